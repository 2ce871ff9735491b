"""Controlled vocabularies (modalities, metrics, datasets, methods, tasks) read from ``ontology/``."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.entity_types import TYPE_NAMES
from kg.errors import OntologyError
from kg.resources import ontology_files


@dataclass(frozen=True)
class Term:
    """One written form of a vocabulary concept. ``cue`` forms imply the concept without naming it;
    ``exact`` forms match only as written (a dataset's names and the cues they make: "Kinetics", not
    "reaction kinetics")."""

    form: str
    type: str
    concept: str
    label: str
    cue: bool = False
    exact: bool = False


@dataclass(frozen=True)
class Concept:
    """A vocabulary concept with its preferred label and broader concepts."""

    iri: str
    type: str
    label: str
    alt_labels: tuple[str, ...]
    broader: tuple[str, ...]
    #: the other types its written forms may name by context (``kg:alsoReadAs``): "reinforcement
    #: learning" is a Method one paper uses and the Task another works on
    also_read_as: tuple[str, ...] = ()


#: The types a vocabulary form may be read as by context (``kg:alsoReadAs``): a modality or a dataset is
#: never read as another type.
READABLE_TYPES: tuple[str, ...] = ("Method", "Task", "Metric")


@dataclass(frozen=True)
class Vocabulary:
    """All vocabulary concepts and their written forms."""

    concepts: dict[str, Concept]
    terms: tuple[Term, ...]
    triples: dict[str, tuple] = None  # type: ignore[assignment]  # concept IRI -> its own triples

    def term(self, key: str) -> Term:
        """The term whose span ruler pattern id is ``key`` (:func:`term_key`)."""
        return self.terms[int(key[1:])]

    def concept_triples(self, iri: str) -> tuple:
        """The triples the vocabulary states about concept ``iri`` (labels, scheme, broader, sameAs)."""
        return (self.triples or {}).get(iri, ())


@lru_cache(maxsize=4)
def load_vocabulary(files: tuple[Path, ...] | None = None) -> Vocabulary:
    """Read every concept typed kg:Method/Dataset/Modality/Task/Metric from the ontology files."""
    from rdflib import Graph, Literal, URIRef
    from rdflib.namespace import RDF, RDFS, SKOS

    from kg.namespaces import KG

    graph = Graph()
    for path in files or tuple(ontology_files()):
        try:
            graph.parse(path, format="turtle")
        except Exception as exc:  # rdflib raises many parser-specific types
            raise OntologyError(f"{path}: cannot parse vocabulary: {exc}; fix the Turtle syntax") from exc
    concepts: dict[str, Concept] = {}
    terms: list[Term] = []
    for type_name in TYPE_NAMES:
        for iri in sorted(set(graph.subjects(RDF.type, KG[type_name]))):
            label = graph.value(iri, SKOS.prefLabel) or graph.value(iri, RDFS.label)
            if label is None:
                continue
            alts = sorted({str(a) for a in graph.objects(iri, SKOS.altLabel) if isinstance(a, Literal)})
            broader = tuple(sorted(str(b) for b in graph.objects(iri, SKOS.broader)))
            readings = tuple(sorted(str(c) for c in graph.objects(iri, KG.alsoReadAs)))
            allowed = {str(KG[t]): t for t in READABLE_TYPES if t != type_name} if type_name in READABLE_TYPES else {}
            if not set(readings) <= set(allowed):
                raise OntologyError(f"{iri} kg:alsoReadAs {', '.join(readings)}: the object must be one of "
                                    f"{', '.join(sorted(allowed)) or 'nothing for a ' + type_name}; fix that "
                                    "statement in ontology/vocab/")
            readings = tuple(allowed[r] for r in readings)
            concepts[str(iri)] = Concept(str(iri), type_name, str(label), tuple(alts), broader, readings)
            for form in {str(label), *alts, *(str(x) for x in graph.objects(iri, RDFS.label))}:
                # a dataset's name is a proper noun: "Kinetics" and "Replica", not "kinetics" and "replica"
                terms.append(Term(form, type_name, str(iri), str(label), exact=type_name == "Dataset"))
            for cue in sorted(str(c) for c in graph.objects(iri, KG.cue)):
                terms.append(Term(cue, type_name, str(iri), str(label), cue=True))
    terms.extend(data_modality_cues(graph, concepts, terms))
    terms.sort(key=lambda t: (t.type, t.concept, t.form, t.cue))
    own = {iri: tuple(sorted(graph.triples((URIRef(iri), None, None)))) for iri in concepts}
    return Vocabulary(concepts, tuple(terms), own)


#: The ``doc.spans`` key under which the vocabulary's span rulers put every written form they find.
VOCABULARY_SPANS = "paperkg_vocabulary"

#: The label of a metric's plural forms that only result extraction reads ("accuracies", "losses"): as an
#: entity mention a metric is its written form, or an acronym's plural ("FIDs").
METRIC_PLURAL = "Metric-plural"

#: The span rulers of the vocabulary, in pipeline order: case-exact forms, then case-folded ones.
RULERS: tuple[tuple[str, str], ...] = (("paperkg_vocabulary_exact", "ORTH"), ("paperkg_vocabulary_folded", "LOWER"))


def data_modality_cues(graph, concepts: dict[str, Concept], terms: list[Term]) -> list[Term]:  # graph: rdflib.Graph
    """A dataset's label and alternative labels as cues of the modality its data are (``kg:dataModality``):
    "WikiText-103" implies text, "QM9" molecules. They match as written, as the dataset's names do; a form
    that also names something else in ``terms`` cues nothing (SPICE is a metric too). Which cues say what
    a paper works with is the modality model's judgement, as for any cue."""
    from kg.namespaces import KG

    elsewhere = {t.form.lower() for t in terms if t.type != "Dataset" and not t.cue}
    written = {(t.form, t.concept) for t in terms if t.cue}  # already a cue of its modality ("ImageNet")
    out = []
    for iri, modality in sorted(graph.subject_objects(KG.dataModality)):
        dataset, target = concepts.get(str(iri)), concepts.get(str(modality))
        if dataset is None or dataset.type != "Dataset" or target is None or target.type != "Modality":
            raise OntologyError(f"{iri} kg:dataModality {modality}: the subject must be a vocabulary dataset and "
                                "the object a vocabulary modality; fix that statement in ontology/vocab/")
        out += [Term(form, "Modality", target.iri, target.label, cue=True, exact=True)
                for form in sorted({dataset.label, *dataset.alt_labels})
                if form.lower() not in elsewhere and (form, target.iri) not in written]
    return out


def term_key(index: int) -> str:
    """The span ruler pattern id of ``vocabulary.terms[index]`` (a span's ``id_``)."""
    return f"t{index}"


def matches_exactly(form: str) -> bool:
    """Acronyms and short forms match case exactly ("MAP" is not "map"), and so does a one-word name spelt with
    a capital (a proper name: "Inception" is not the "inception" of a field, "Whisper" no whisper); longer
    forms case-folded."""
    return len(form) <= 5 or any(c.isupper() for c in form[1:]) or (form[:1].isupper() and form.isalpha())


def mention_forms(term: Term) -> set[str]:
    """The forms of ``term`` that are entity mentions: the form and its plural, a metric's only when it is
    an acronym ("FIDs", not "losses" from "loss"), a cue's never."""
    forms = {term.form}
    if not term.cue and (term.type != "Metric" or term.form.isupper()) and not term.form.endswith("s") \
            and term.form[-1:].isalpha():
        forms.add(term.form + "s")
    return forms


def result_metric_forms(term: Term) -> set[str]:
    """The forms of a metric that name it in a result ("accuracies", "errors"); empty for other terms."""
    if term.type != "Metric" or term.cue:
        return set()
    forms = {term.form}
    if term.form[-1:].isalpha() and not term.form.endswith("s"):
        forms.add(term.form + "s")
    if term.form.endswith("y") and len(term.form) > 4:
        forms.add(term.form[:-1] + "ies")
    return forms


def vocabulary_patterns(vocabulary: Vocabulary) -> dict[str, list[dict[str, str]]]:
    """spaCy ``span_ruler`` phrase patterns of every written form of ``vocabulary``, by the token attribute
    they match on ("ORTH" or "LOWER"). A pattern's label is its term's type (:data:`METRIC_PLURAL` for the
    plurals only results read) and its id the term's :func:`term_key`."""
    out: dict[str, list[dict[str, str]]] = {attr: [] for _, attr in RULERS}
    for i, term in enumerate(vocabulary.terms):
        attr = "ORTH" if term.exact or matches_exactly(term.form) else "LOWER"
        mentions = mention_forms(term)
        labelled = [(f, term.type) for f in sorted(mentions)]
        labelled += [(f, METRIC_PLURAL) for f in sorted(result_metric_forms(term) - mentions)]
        out[attr].extend({"label": label, "pattern": form, "id": term_key(i)} for form, label in labelled)
    return out


def add_vocabulary_rulers(nlp, vocabulary: Vocabulary) -> None:  # (Language, Vocabulary) -> None
    """Put spaCy ``span_ruler`` components holding :func:`vocabulary_patterns` at the head of ``nlp``: they
    write every vocabulary form they find to ``doc.spans[VOCABULARY_SPANS]`` (and are saved with the
    pipeline by ``nlp.to_disk``)."""
    patterns = vocabulary_patterns(vocabulary)
    for position, (name, attr) in enumerate(RULERS):
        ruler = nlp.add_pipe("span_ruler", name=name, before=nlp.pipe_names[position] if nlp.pipe_names else None,
                             config={"spans_key": VOCABULARY_SPANS, "phrase_matcher_attr": attr,
                                     "overwrite": False, "validate": False})
        ruler.add_patterns(patterns[attr])
