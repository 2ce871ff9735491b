"""Score extraction variants side by side with the shared scorer: corpus splits and the dev golds.

    python -m training.evaluate --corpus ../shared/data/abstracts.jsonl.gz --eval ../shared/eval \
        --variant rules --variant shipped --split dev

For each variant (a configuration of the ``paperkg_resolution`` stage and, under its ``relations``,
``proposals`` and ``modalities`` keys, of the relation, proposal and modality stages: :data:`VARIANTS`) the graph of
each evaluation set is built in this process with :func:`kg.build.pipeline.build` (one worker, no cache) and scored by
``score.py`` from ``--eval``. The sets: the corpus split(s) given by ``--split`` (``test`` only to
report, never to choose), ``gold_dev_corpus.json`` (``dev_corpus60.jsonl``) and ``gold_dev.json``
(the first seed file). Prints one Markdown table per set; ``--json`` writes every figure.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kg.extract import model as kg_model
from kg.extract.resolution import HEURISTIC_RULES
from training.corpus import ANNOTATIONS, as_gold, prf, read_corpus, read_standoff

ROOT = Path(__file__).resolve().parents[1]

#: The heuristic rules: noun phrases, task frames, capitalised terms, coined names.
NOISY = list(HEURISTIC_RULES)

#: The variant paperkg ships: the entity stage's configuration in kg.extract.model (the tagger and its
#: thresholds are ``--model`` and ``--threshold`` here; by default the shipped ones, tasks from their own).
SHIPPED = "shipped"

#: The relation stage (``paperkg_relation_model``) as paperkg ships it, and switched off (the rules alone).
RELATIONS_SHIPPED: dict[str, Any] = dict(kg_model.COMPONENT_CONFIG["paperkg_relation_model"])
RELATIONS_OFF: dict[str, Any] = {"use_model": False}

#: The proposal stage (``paperkg_proposal_model``) as shipped, and switched off (the proposal rules alone).
PROPOSALS_SHIPPED: dict[str, Any] = dict(kg_model.COMPONENT_CONFIG["paperkg_proposal_model"])
PROPOSALS_OFF: dict[str, Any] = {"use_model": False}

#: The modality stage (``paperkg_modality_model``) as shipped, and switched off (the modality cues alone).
MODALITIES_SHIPPED: dict[str, Any] = dict(kg_model.COMPONENT_CONFIG["paperkg_modality_model"])
MODALITIES_OFF: dict[str, Any] = {"use_model": False}

#: name -> the ``paperkg_resolution`` configuration it runs (the combinations measured in training/README.md);
#: its ``relations``, ``proposals`` and ``modalities`` keys, when given, are the relation, proposal and
#: modality stages' configurations (else the shipped ones).
VARIANTS: dict[str, dict[str, Any]] = {
    "rules": {"use_model": False, "relations": RELATIONS_OFF, "proposals": PROPOSALS_OFF, "modalities": MODALITIES_OFF},
    f"{SHIPPED}+modality-rules": {**kg_model.COMPONENT_CONFIG["paperkg_resolution"], "modalities": MODALITIES_OFF},
    "model+rules": {"use_model": True, "drop_rules": []},
    **{f"model+rules-veto{x}": {"use_model": True, "drop_rules": [], "veto_rules": NOISY, "veto_below": x}
       for x in (0.1, 0.2, 0.3)},
    SHIPPED: dict(kg_model.COMPONENT_CONFIG["paperkg_resolution"]),
    # the shipped stages with the proposal rules alone, the relation rules alone, the relation model alone,
    # the relation model with every relation rule
    f"{SHIPPED}+proposal-rules": {**kg_model.COMPONENT_CONFIG["paperkg_resolution"], "proposals": PROPOSALS_OFF},
    f"{SHIPPED}+relation-rules": {**kg_model.COMPONENT_CONFIG["paperkg_resolution"], "relations": RELATIONS_OFF},
    f"{SHIPPED}+relation-model": {**kg_model.COMPONENT_CONFIG["paperkg_resolution"],
                                  "relations": {**RELATIONS_SHIPPED, "keep_rules": []}},
    f"{SHIPPED}+relation-model+all-rules": {**kg_model.COMPONENT_CONFIG["paperkg_resolution"],
                                            "relations": {**RELATIONS_SHIPPED, "keep_rules": ["*"]}},
    # the model's type winning with every heuristic rule vetoed (coined names too: "model+rules-veto0.2"),
    # without one heuristic rule each: which rules the model makes unnecessary (training/README.md)
    **{f"model+rules-veto0.2-without-{rule}": {"use_model": True, "drop_rules": [rule], "veto_rules": NOISY,
                                               "veto_below": 0.2} for rule in HEURISTIC_RULES},
    # what ships without one heuristic rule, and without every rule that costs less than 0.002 alone
    **{f"{SHIPPED}-without-{rule}": {**kg_model.COMPONENT_CONFIG["paperkg_resolution"], "drop_rules": [rule]}
       for rule in HEURISTIC_RULES},
    f"{SHIPPED}-without-minor-rules": {**kg_model.COMPONENT_CONFIG["paperkg_resolution"],
                                       "drop_rules": ["task-frame", "title-case", "name", "term-phrase"]},
}

#: The tagger's shipped configuration (before a run changes it).
SHIPPED_TAGGER: dict[str, Any] = dict(kg_model.COMPONENT_CONFIG["paperkg_entity_tagger"])

COLUMNS = ("all_entities", "Method", "Dataset", "Modality", "Task", "Metric", "proposes", "results")


def configure(variant: dict[str, Any]) -> None:
    """Set the entity, proposal and relation stages' configurations to ``variant`` (before the pipeline loads)."""
    entities = dict(variant)
    kg_model.COMPONENT_CONFIG["paperkg_relation_model"] = dict(entities.pop("relations", RELATIONS_SHIPPED))
    kg_model.COMPONENT_CONFIG["paperkg_proposal_model"] = dict(entities.pop("proposals", PROPOSALS_SHIPPED))
    kg_model.COMPONENT_CONFIG["paperkg_modality_model"] = dict(entities.pop("modalities", MODALITIES_SHIPPED))
    kg_model.COMPONENT_CONFIG["paperkg_resolution"] = entities


def build_graph(inputs: list[Path], out: Path, variant: dict[str, Any], model: Path | None = None,
                threshold: float | None = None) -> Path:
    """Build ``inputs`` with the entity stage configured as ``variant`` (and the tagger at ``model``, None:
    the shipped one, its spans kept from ``threshold`` up, None: the shipped threshold); the path of the
    Turtle."""
    from kg.build import pipeline as kg_build

    configure(variant)
    config = dict(SHIPPED_TAGGER)
    if model is not None:
        config["model_path"] = str(model)
    if threshold is not None:
        config["threshold"] = threshold  # one threshold for every label
        config.pop("label_thresholds", None)
    kg_model.COMPONENT_CONFIG["paperkg_entity_tagger"] = config
    kg_model._load_nlp.cache_clear()
    kg_build.build(inputs, out, workers=1, views=False, cache=False)
    return out / "kg.ttl"


def score(scorer: Path, gold: Path, graph: Path, corpus: Path | None) -> dict[str, Any]:
    """The scorer's JSON figures for ``graph`` against ``gold``."""
    cmd = [sys.executable, str(scorer), str(gold), str(graph), *map(str, sorted((ROOT / "ontology").glob("*.ttl"))),
           "--json"]
    if corpus is not None:
        cmd += ["--corpus", str(corpus)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _fold(label: str) -> str:
    words = " ".join(label.lower().replace("-", " ").split())
    return words[:-1] if words.endswith("s") and len(words) > 3 else words


def relation_scores(entries: list[dict[str, Any]], texts: dict[str, str], graph_path: Path) -> dict[str, Any]:
    """Relation facts of a built graph against the annotations' ``relations``: a gold triple is found when
    an assertion of the same paper has its predicate and a label or alias of each side matching (case,
    hyphens, spaces and a plural -s folded); one-to-one. Precision over the graph's assertions of those
    papers, recall over the gold triples."""
    from rdflib import RDF, RDFS, SKOS, Graph
    from rdflib.namespace import DCTERMS

    from kg.namespaces import KG

    g = Graph().parse(graph_path)
    paper_of = {" ".join(str(text).split()): str(p) for p, text in g.subject_objects(DCTERMS.abstract)}

    def names(node) -> set[str]:
        return {_fold(str(x)) for prop in (RDFS.label, SKOS.altLabel) for x in g.objects(node, prop)}

    by_paper: dict[str, list[tuple[set[str], str, set[str]]]] = {}
    for a in g.subjects(RDF.type, KG.RelationAssertion):
        predicate = str(g.value(a, RDF.predicate)).rsplit("#", 1)[-1]
        by_paper.setdefault(str(a).rsplit("/", 1)[0], []).append(
            (names(g.value(a, RDF.subject)), predicate, names(g.value(a, RDF.object))))
    tp = gold_n = pred_n = 0
    for entry in entries:
        paper = paper_of.get(" ".join(texts[entry["id"]].split()))
        predicted = list(by_paper.get(paper, [])) if paper else []
        pred_n += len(predicted)
        for s_label, relation, o_label in entry["annotation"].get("relations", []):
            gold_n += 1
            hit = next((x for x in predicted if x[1] == relation and _fold(s_label) in x[0]
                        and _fold(o_label) in x[2]), None)
            if hit is not None:
                predicted.remove(hit)
                tp += 1
    p, r, f1 = prf(tp, pred_n, gold_n)
    return {"precision": p, "recall": r, "f1": f1,
            "tp": tp, "fp": pred_n - tp, "fn": gold_n - tp}


def corpus_set(corpus: Path, split: str, work: Path, annotations: Path = ANNOTATIONS) -> tuple[Path, Path]:
    """The texts (JSONL) and the gold file of a corpus split, written under ``work``."""
    entries = [e for _, _, e in read_standoff(sorted(annotations.glob("*.jsonl"))) if e["split"] == split]
    records = read_corpus(corpus, {e["id"] for e in entries})
    texts, gold = work / f"corpus_{split}.jsonl", work / f"corpus_gold_{split}.json"
    with texts.open("w", encoding="utf-8") as handle:
        for e in entries:
            r = records[e["id"]]
            handle.write(json.dumps({"id": r["id"], "title": r.get("title", ""), "abstract": r["abstract"]}) + "\n")
    gold.write_text(json.dumps(as_gold(entries)), encoding="utf-8")
    return texts, gold


def table(name: str, rows: dict[str, dict[str, Any]]) -> str:
    """One Markdown table: a row per variant, F1 per column (P/R for all entities)."""
    relations = any("relations" in fig for fig in rows.values())
    lines = [f"### {name}", "", "| variant | all P / R / F1 | " + " | ".join(COLUMNS[1:]) + " | name acc. |"
             + (" relation facts P / R |" if relations else ""),
             "|---" * (len(COLUMNS) + 2 + relations) + "|"]
    for variant, fig in rows.items():
        a = fig["all_entities"]
        cells = [f"{a['precision']:.3f} / {a['recall']:.3f} / **{a['f1']:.3f}**"]
        cells += [f"{fig[c]['f1']:.3f}" for c in COLUMNS[1:]]
        extra = ""
        if relations:
            r = fig.get("relations", {})
            extra = f" {r.get('precision', 0):.3f} / {r.get('recall', 0):.3f} |"
        lines.append(f"| {variant} | " + " | ".join(cells) + f" | {fig['name_accuracy']} |" + extra)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--eval", type=Path, required=True, help="the folder of score.py and the dev golds")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS), help="default: all")
    parser.add_argument("--split", action="append", choices=["train", "dev", "test"], help="default: dev")
    parser.add_argument("--no-dev-golds", action="store_true", help="score the corpus split(s) only")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--annotations", type=Path, default=ANNOTATIONS, help="folder of standoff *.jsonl")
    parser.add_argument("--model", type=Path, help="the entity tagger to run (default: the shipped one)")
    parser.add_argument("--threshold", type=float, help="the tagger's minimum score, the same for every label "
                        "(default: the shipped ones: tasks from their own)")
    args = parser.parse_args(argv)
    scorer = args.eval / "score.py"
    work = Path(tempfile.mkdtemp(prefix="paperkg_eval_"))
    sets: dict[str, tuple[list[Path], Path, Path | None]] = {}
    relation_sets: dict[str, tuple[list[dict[str, Any]], dict[str, str]]] = {}
    for split in args.split or ["dev"]:
        texts, gold = corpus_set(args.corpus, split, work, args.annotations)
        sets[f"corpus {split} split"] = ([texts], gold, args.corpus)
        entries = [e for _, _, e in read_standoff(sorted(args.annotations.glob("*.jsonl"))) if e["split"] == split]
        records = read_corpus(args.corpus, {e["id"] for e in entries})
        relation_sets[f"corpus {split} split"] = (entries, {k: r["abstract"] for k, r in records.items()})
    if not args.no_dev_golds:
        sets["gold_dev_corpus (60 abstracts)"] = ([args.eval / "dev_corpus60.jsonl"], args.eval / "gold_dev_corpus.json",
                                                  None)
        seed = sorted((ROOT / "seeds").glob("*.txt"))[0]
        sets["gold_dev (18 seed abstracts)"] = ([seed], args.eval / "gold_dev.json", None)
    figures: dict[str, dict[str, Any]] = {name: {} for name in sets}
    for variant in args.variant or list(VARIANTS):
        for name, (inputs, gold, corpus) in sets.items():
            started = time.perf_counter()
            graph = build_graph(inputs, work / f"{variant}-{len(figures[name])}-{abs(hash(name))}", VARIANTS[variant], args.model,
                                args.threshold)
            figures[name][variant] = score(scorer, gold, graph, corpus)
            if name in relation_sets:
                figures[name][variant]["relations"] = relation_scores(*relation_sets[name], graph)
            print(f"{variant} on {name}: all-entities F1 {figures[name][variant]['all_entities']['f1']:.3f} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    for name, rows in figures.items():
        print(table(name, rows) + "\n")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
