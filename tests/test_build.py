"""``kg build`` end to end on the small golden corpus: the graph, its meaning, determinism, IDs, SHACL, the CLI.

The corpus (tests/data/corpus_small/) holds nine distinct abstracts in the three input formats:
a seed file with a header, one abstract repeated (with a different line break), an HTML ``<script>``
payload, LaTeX ``\\emph{}`` and odd Unicode (NFD accents, an emoji, non-breaking hyphens); a JSONL
file with metadata and a code URL; a CSV file. After an intended change of extraction rules,
regenerate the golden graph with ``.venv/bin/python tests/regenerate_golden.py``.
"""
from __future__ import annotations

import csv
import gzip
import json
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rdflib import Graph, Literal, URIRef
from rdflib.compare import graph_diff, isomorphic, to_isomorphic
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, XSD

from kg.cli import cli
from kg.namespaces import ID, KG, SCHEMA
from kg.resolve.ids import abstract_key, entity_iri, normalize_abstract, paper_iri, slug
from regenerate_golden import CORPUS, EXPECTED, REPO, build_corpus, in_repo

CORPUS_DIR = REPO / CORPUS
SEED = CORPUS_DIR / "workshop.txt"
JSONL = CORPUS_DIR / "records.jsonl"
CSV = CORPUS_DIR / "extra.csv"

#: the link properties from a paper to an entity (kg:proposes included)
LINKS = (KG.usesMethod, KG.usesDataset, KG.hasModality, KG.addressesTask, KG.usesMetric, KG.proposes)
#: the paper IRI of the repeated HeteroMix abstract: a pure function of the abstract, the same on every machine
HETEROMIX_IRI = ID["paper/da0c2f739355bf0b"]


# --------------------------------------------------------------------------- the inputs, read without kg.ingest


def seed_abstracts() -> list[str]:
    paragraphs = [p.strip() for p in SEED.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return paragraphs[1:]  # the first paragraph is the header line


def jsonl_records() -> list[dict]:
    return [json.loads(line) for line in JSONL.read_text(encoding="utf-8").splitlines() if line.strip()]


def csv_records() -> list[dict]:
    with CSV.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def input_abstracts() -> list[str]:
    return seed_abstracts() + [r["abstract"] for r in jsonl_records()] + [r["abstract"] for r in csv_records()]


def papers(g: Graph) -> set[URIRef]:
    return set(g.subjects(RDF.type, KG.Paper))


def paper_with_id(g: Graph, identifier: str) -> URIRef:
    found = [p for p in g.subjects(DCTERMS.identifier, Literal(identifier)) if (p, RDF.type, KG.Paper) in g]
    assert len(found) == 1, f"expected one paper with dcterms:identifier {identifier!r}, found {found}"
    return found[0]


def paper_with_text(g: Graph, fragment: str) -> URIRef:
    found = [p for p in papers(g) if fragment in str(g.value(p, DCTERMS.abstract))]
    assert len(found) == 1, f"expected one paper whose abstract contains {fragment!r}, found {found}"
    return found[0]


def entities_named(g: Graph, forms: set[str]) -> set[URIRef]:
    """Entities whose rdfs:label or skos:altLabel is one of ``forms`` (compared case-insensitively)."""
    wanted = {f.lower() for f in forms}
    return {s for p in (RDFS.label, SKOS.altLabel) for s, o in g.subject_objects(p)
            if str(o).lower() in wanted and (s, RDF.type, KG.Paper) not in g and (s, RDF.type, KG.Extractor) not in g}


def linked_papers(g: Graph, entity: URIRef) -> set[URIRef]:
    return {p for prop in LINKS for p in g.subjects(prop, entity)}


# --------------------------------------------------------------------------- golden graph


def describe_diff(expected: Graph, actual: Graph, limit: int = 30) -> str:
    _, only_expected, only_actual = graph_diff(to_isomorphic(expected), to_isomorphic(actual))

    def lines(g: Graph) -> list[str]:
        return sorted(f"  {s.n3()} {p.n3()} {o.n3()}" for s, p, o in g)[:limit]

    return "\n".join([
        f"{len(only_expected)} triples only in expected.ttl:", *lines(only_expected),
        f"{len(only_actual)} triples only in the new build:", *lines(only_actual),
        "If the change is intended, run `.venv/bin/python tests/regenerate_golden.py` and review the git diff.",
    ])


def test_golden_graph_is_isomorphic(corpus_graph):
    expected = Graph().parse(EXPECTED, format="turtle")
    assert isomorphic(expected, corpus_graph), describe_diff(expected, corpus_graph)


# --------------------------------------------------------------------------- meaning of the build


def test_summary_counts(corpus_build):
    summary, _ = corpus_build
    assert (summary.records, summary.papers, summary.duplicates, summary.skipped) == (10, 9, 1, [])
    assert summary.triples > 0 and all(summary.entities[t] > 0 for t in ("Method", "Dataset", "Modality", "Task", "Metric"))


def test_duplicate_abstract_is_one_paper_with_two_sources(corpus_graph):
    g = corpus_graph
    heteromix = paper_with_text(g, "We propose HeteroMix")
    assert heteromix == HETEROMIX_IRI
    sources = set(g.objects(heteromix, PROV.wasDerivedFrom))
    assert len(sources) == 2
    where = {(str(g.value(s, KG.sourceFile)), g.value(s, KG.position).toPython()) for s in sources}
    assert where == {(f"{CORPUS}/workshop.txt", 1), (f"{CORPUS}/workshop.txt", 3)}
    others = papers(g) - {heteromix}
    assert all(len(set(g.objects(p, PROV.wasDerivedFrom))) == 1 for p in others)


def test_every_paper_has_one_abstract_equal_to_the_input_and_one_label(corpus_graph):
    g = corpus_graph
    expected: dict[str, str] = {}
    for text in input_abstracts():
        expected.setdefault(abstract_key(text), text)  # the first occurrence of a repeated abstract is kept
    assert len(papers(g)) == len(expected) == 9
    found = {}
    for p in papers(g):
        abstracts = list(g.objects(p, DCTERMS.abstract))
        labels = list(g.objects(p, RDFS.label))
        assert len(abstracts) == 1 and len(labels) == 1, p
        assert str(labels[0]).strip(), p
        found[abstract_key(str(abstracts[0]))] = str(abstracts[0])
    assert found == expected
    # HTML, LaTeX and odd Unicode are kept literally, never interpreted or normalised
    kept = set(found.values())
    assert any("<script>alert('pwned')</script>" in t and '<b onmouseover="steal()">' in t for t in kept)
    assert any("\\emph{unrelated}" in t for t in kept)
    assert any(t.startswith("Cafe\u0301 \u2014 a r\u00e9sum\u00e9") and "🧪" in t and "PatchDrop\u2011V2" in t for t in kept)


def author_names(g, paper) -> set[str]:
    """The schema:name of each schema:Person the paper's dcterms:creator points to."""
    people = set(g.objects(paper, DCTERMS.creator))
    assert all((person, RDF.type, SCHEMA.Person) in g for person in people)
    return {str(n) for person in people for n in g.objects(person, SCHEMA.name)}


def test_jsonl_and_csv_metadata(corpus_graph):
    g = corpus_graph
    p = paper_with_id(g, "rml-101")
    assert set(g.objects(p, DCTERMS.title)) == {Literal("Top-k Sparse Autoencoders Find Linguistic Features")}
    assert author_names(g, p) == {"Mara Quist", "Tomasz Eberle"}
    assert set(g.objects(p, KG.year)) == {Literal("2025", datatype=XSD.gYear)}
    assert set(g.objects(p, KG.venue)) == {Literal("ICLR")}
    assert set(g.objects(p, SCHEMA.keywords)) == {Literal("interpretability"), Literal("sparse autoencoders")}
    # delimited strings in JSONL: "A and B" authors, "x; y" keywords, a string year
    q = paper_with_id(g, "rml-102")
    assert author_names(g, q) == {"Ines Okafor", "Lei Brandt"}
    assert set(g.objects(q, SCHEMA.keywords)) == {Literal("EEG"), Literal("foundation models")}
    assert set(g.objects(q, KG.year)) == {Literal("2024", datatype=XSD.gYear)}
    # CSV: title and year columns; an empty title cell gives no dcterms:title
    r = paper_with_id(g, "rml-201")
    assert set(g.objects(r, DCTERMS.title)) == {Literal("HorizonBench: Long-Horizon Forecasting Tasks")}
    s = paper_with_id(g, "rml-202")
    assert set(g.objects(s, DCTERMS.title)) == set()
    assert set(g.objects(s, KG.year)) == {Literal("2024", datatype=XSD.gYear)}
    # seed records carry no metadata but still get an identifier
    assert set(g.objects(HETEROMIX_IRI, DCTERMS.title)) == set()
    assert len(set(g.objects(HETEROMIX_IRI, DCTERMS.identifier))) == 1


def test_code_url_is_a_code_repository(corpus_graph):
    g = corpus_graph
    p = paper_with_id(g, "rml-101")
    assert set(g.objects(p, KG.codeRepository)) == {URIRef("https://github.com/example-lab/topk-probe")}
    assert sum(1 for _ in g.triples((None, KG.codeRepository, None))) == 1


def test_shared_acronym_is_one_entity_linked_from_both_papers(corpus_graph):
    g = corpus_graph
    llm = entities_named(g, {"LLM", "LLMs"})
    assert len(llm) == 1, f"'LLMs' should be one entity, found {sorted(llm)}"
    (entity,) = llm
    sae_paper = paper_with_text(g, "We introduce GatedLens")
    abstain_paper = paper_with_id(g, "rml-202")  # "Large language models (LLMs) often answer ..."
    assert {sae_paper, abstain_paper} <= linked_papers(g, entity)


def test_sae_and_sparse_autoencoders_are_one_entity(corpus_graph):
    g = corpus_graph
    found = entities_named(g, {"SAE", "SAEs", "sparse autoencoder", "sparse autoencoders"})
    assert len(found) == 1, f"'SAE' and 'sparse autoencoders (SAEs)' should be one entity, found {sorted(found)}"
    (entity,) = found
    names = {str(o) for p in (RDFS.label, SKOS.altLabel) for o in g.objects(entity, p)}
    assert {"SAE", "sparse autoencoders"} & names and names & {"SAEs", "SAE"} and len(names) >= 2
    assert set(g.objects(entity, SKOS.altLabel)), "the other written forms are skos:altLabel"
    defining = paper_with_text(g, "Sparse autoencoders (SAEs) have become")
    short_only = paper_with_id(g, "rml-101")  # "We train a SAE with a top-k activation ..."
    assert {defining, short_only} <= linked_papers(g, entity)


def test_mentions_anchor_the_abstract_inside_their_sentence(corpus_graph):
    g = corpus_graph
    mentions = set(g.subjects(RDF.type, KG.Mention))
    assert len(mentions) >= 30
    for m in mentions:
        paper = g.value(m, KG.paper)
        abstract = str(g.value(paper, DCTERMS.abstract))
        start, end = g.value(m, KG.start).toPython(), g.value(m, KG.end).toPython()
        assert 0 <= start < end <= len(abstract), m
        assert abstract[start:end] == str(g.value(m, KG.anchorText)), m
        sentence = g.value(m, KG.inSentence)
        assert sentence is not None and (sentence, RDF.type, KG.Sentence) in g, m
        assert g.value(sentence, DCTERMS.isPartOf) == paper
        s_start, s_end = g.value(sentence, KG.start).toPython(), g.value(sentence, KG.end).toPython()
        assert s_start <= start and end <= s_end, f"{m} [{start}, {end}) is not inside {sentence} [{s_start}, {s_end})"
        assert abstract[s_start:s_end] == str(g.value(sentence, KG.text))
        # the mention is evidence for a link that is in the graph, made by a named extractor
        assert (paper, g.value(m, KG.property), g.value(m, KG.entity)) in g, m
        assert (g.value(m, PROV.wasAttributedTo), RDF.type, KG.Extractor) in g, m


def test_every_link_has_a_mention(corpus_graph):
    g = corpus_graph
    evidenced = {(g.value(m, KG.paper), g.value(m, KG.property), g.value(m, KG.entity))
                 for m in g.subjects(RDF.type, KG.Mention)}
    links = {(p, prop, e) for prop in LINKS for p, e in g.subject_objects(prop)}
    assert links and links <= evidenced, sorted(links - evidenced)[:5]


def test_each_link_has_exactly_one_mention(corpus_graph):
    g = corpus_graph
    by_link: dict = {}
    for m in g.subjects(RDF.type, KG.Mention):
        by_link.setdefault((g.value(m, KG.paper), g.value(m, KG.property), g.value(m, KG.entity)), []).append(m)
    assert by_link and all(len(ms) == 1 for ms in by_link.values()), [ms for ms in by_link.values() if len(ms) > 1][:3]


def test_link_evidence_keeps_the_earliest_mention_of_each_link():
    from kg.extract.types import Mention, PaperExtraction
    from kg.rdf.papers import link_evidence
    from kg.resolve.entities import Resolution, mention_key

    paper, sae, eeg = "https://w3id.org/paperkg/id/paper/0", "https://x/sae", "https://x/eeg"
    mentions = [Mention(90, 93, "Method", "SAE", "abbreviation-use"),
                Mention(10, 34, "Method", "sparse autoencoder", "phrase"),
                Mention(50, 53, "Method", "SAE", "proposal", proposed=True),
                Mention(60, 63, "Modality", "EEG", "vocabulary")]
    entity_of = {mention_key(paper, m): (eeg if m.type == "Modality" else sae) for m in mentions}
    links = link_evidence(paper, PaperExtraction(mentions=mentions), Resolution({}, entity_of))
    assert sorted((str(prop), str(e), m.start) for prop, e, m in links) == [
        (str(KG.hasModality), eeg, 60), (str(KG.proposes), sae, 50), (str(KG.usesMethod), sae, 10)]


def test_a_span_both_proposed_and_used_backs_only_the_proposal():
    from kg.extract.types import Mention, PaperExtraction
    from kg.rdf.papers import link_evidence
    from kg.resolve.entities import Resolution

    paper, jvi = "https://w3id.org/paperkg/id/paper/0", "https://x/jvi"
    mentions = [Mention(10, 41, "Method", "jackknife variational inference", "term-phrase"),
                Mention(10, 41, "Method", "jackknife variational inference", "abbreviation", proposed=True)]
    entity_of = {(paper, 10, 41, "Method", False): jvi}
    links = link_evidence(paper, PaperExtraction(mentions=mentions), Resolution({}, entity_of))
    assert [(str(prop), m.rule) for prop, _e, m in links] == [(str(KG.proposes), "abbreviation")]



PROVENANCE = """
SELECT ?anchor ?start ?end ?sentence ?rule WHERE {
    ?paper dcterms:identifier ?id ; kg:hasModality ?entity .
    ?entity rdfs:label ?name .
    ?m a kg:Mention ; kg:paper ?paper ; kg:entity ?entity ; kg:property kg:hasModality ;
       kg:anchorText ?anchor ; kg:start ?start ; kg:end ?end ;
       kg:inSentence ?s ; prov:wasAttributedTo ?extractor .
    ?s kg:text ?sentence .
    ?extractor rdfs:label ?rule .
} ORDER BY ?start
"""


def test_sparql_retrieves_the_provenance_of_a_link(corpus_graph):
    rows = list(corpus_graph.query(PROVENANCE, initNs={"kg": KG, "dcterms": DCTERMS, "rdfs": RDFS, "prov": PROV},
                                   initBindings={"id": Literal("rml-102"), "name": Literal("EEG")}))
    assert rows, "no provenance for the MontageNet -> EEG link"
    abstract = next(r["abstract"] for r in jsonl_records() if r["id"] == "rml-102")
    for row in rows:
        assert str(row.anchor) in str(row.sentence) and str(row.sentence) in abstract
        assert abstract[row.start.toPython():row.end.toPython()] == str(row.anchor)
        assert str(row.rule)
    assert any("electroencephalography" in str(r.anchor).lower() or str(r.anchor) == "EEG" for r in rows)


def test_the_graph_conforms_to_the_shapes(corpus_graph):
    from kg.rdf.validate import validate_graph

    report = validate_graph(corpus_graph)
    shown = "\n".join(f"{v.severity} {v.focus} {v.path}: {v.message}" for v in report.violations[:20])
    assert report.conforms, shown


def test_the_graph_of_24_varied_abstracts_conforms_to_the_shapes(nlp, tmp_path):
    from kg.build.pipeline import build
    from kg.rdf.validate import validate_graph

    summary = build([REPO / "tests" / "data" / "generality" / "abstracts.jsonl"], tmp_path, views=False, cache=False)
    report = validate_graph(Graph().parse(tmp_path / "kg.ttl"))
    shown = "\n".join(f"{v.severity} {v.focus} {v.path}: {v.message}" for v in report.violations[:20])
    assert summary.papers == 24 and report.conforms, shown


# --------------------------------------------------------------------------- determinism and ID stability


def test_two_builds_are_byte_identical(corpus_build, tmp_path):
    again = build_corpus(tmp_path)
    assert (tmp_path / "kg.ttl").read_bytes() == (corpus_build[1] / "kg.ttl").read_bytes()
    assert again.triples == corpus_build[0].triples


def test_input_order_does_not_change_the_graph(corpus_build, tmp_path):
    build_corpus(tmp_path, [f"{CORPUS}/extra.csv", f"{CORPUS}/records.jsonl", f"{CORPUS}/workshop.txt"])
    assert (tmp_path / "kg.ttl").read_bytes() == (corpus_build[1] / "kg.ttl").read_bytes()


def test_model_is_loaded_once(nlp, corpus_build):
    from kg.extract import load_nlp
    from kg.extract.model import _load_nlp, find_model

    assert load_nlp(None) is nlp and load_nlp() is nlp and load_nlp(find_model()) is nlp
    assert _load_nlp.cache_info().currsize == 1, "the spaCy pipeline was loaded under two cache keys"


def heteromix_abstract() -> str:
    return seed_abstracts()[1]


def test_paper_iri_depends_only_on_the_abstract(nlp, tmp_path):
    """The same abstract in another file, position and format (and with other line breaks) keeps its IRI."""
    text = heteromix_abstract()
    other = jsonl_records()[2]["abstract"]
    (tmp_path / "moved.jsonl").write_text(
        json.dumps({"abstract": other}) + "\n" + json.dumps({"id": "x-7", "abstract": text.replace(" ", "\n", 3)}) + "\n",
        encoding="utf-8")
    with (tmp_path / "moved.csv").open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([["abstract", "title"], [other, "t"], ["x", "y"], [text, "HeteroMix"]])
    with gzip.open(tmp_path / "moved.jsonl.gz", "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"abstract": "  " + text + "\n"}) + "\n")
    assert paper_iri(text) == HETEROMIX_IRI
    expected = {"moved.jsonl": {HETEROMIX_IRI, paper_iri(other)}, "moved.csv": {HETEROMIX_IRI, paper_iri(other), paper_iri("x")},
                "moved.jsonl.gz": {HETEROMIX_IRI}}
    for name, iris in expected.items():
        out = tmp_path / f"out-{name}"
        result = CliRunner().invoke(cli, ["build", str(tmp_path / name), "--output", str(out), "--no-views", "-q"])
        assert result.exit_code == 0, result.output
        g = Graph().parse(out / "kg.ttl", format="turtle")
        assert papers(g) == iris, name


_SLUG_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_slug_is_iri_safe_non_empty_and_stable(name):
    s = slug(name)
    assert s and set(s) <= _SLUG_CHARS and not s.startswith("-") and not s.endswith("-") and len(s) <= 80
    assert slug(name) == s
    assert URIRef(str(ID[f"method/{s}"])).n3().startswith("<https://w3id.org/paperkg/id/method/")


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789éüßαβ", min_size=1, max_size=12)
_SEPARATOR = st.sampled_from([" ", "-", "_", "  ", " - ", "/", ", ", "\t"])


@settings(max_examples=200, deadline=None)
@example(["ß"], [" "] * 11, ["-"] * 11, "Method")  # no ASCII letter: the slug is a digest, separators must not count
@given(st.lists(_WORD, min_size=1, max_size=12), st.lists(_SEPARATOR, min_size=11, max_size=11),
       st.lists(_SEPARATOR, min_size=11, max_size=11), st.sampled_from(["Method", "Dataset", "Task", "Metric", "Modality"]))
def test_entity_iri_of_normalised_equal_names_is_equal(words, seps_a, seps_b, type_name):
    """Names that differ only in separators, case (of ASCII letters) and Unicode normal form get one IRI."""
    a = "".join(w + s for w, s in zip(words, seps_a)).strip()
    b = "".join((w.swapcase() if w.isascii() else w) + s for w, s in zip(words, seps_b))
    assert entity_iri(type_name, a) == entity_iri(type_name, b)
    assert entity_iri(type_name, unicodedata.normalize("NFD", a)) == entity_iri(type_name, unicodedata.normalize("NFC", a))


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=300))
def test_slug_ignores_the_unicode_normal_form(name):
    assert slug(unicodedata.normalize("NFD", name)) == slug(unicodedata.normalize("NFC", name))


_NON_SPACE = st.text(st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc", "Cs")), min_size=1, max_size=15)
_WHITESPACE = st.text(alphabet=" \t\n\r", min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.lists(_NON_SPACE, min_size=1, max_size=20), st.data())
def test_abstract_key_ignores_whitespace_changes(words, data):
    compact = " ".join(words)
    seps = data.draw(st.lists(_WHITESPACE, min_size=len(words) + 1, max_size=len(words) + 1))
    spread = seps[0] + "".join(w + s for w, s in zip(words, seps[1:]))
    assert abstract_key(spread) == abstract_key(compact)
    assert paper_iri(spread) == paper_iri(compact)
    assert normalize_abstract(spread) == normalize_abstract(compact)


def test_abstract_key_separates_different_abstracts():
    assert abstract_key("We propose A.") != abstract_key("We propose B.")
    assert abstract_key("We propose A.") != abstract_key("We propose  A")  # punctuation is content


# --------------------------------------------------------------------------- the CLI


@pytest.fixture(scope="module")
def cli_build(nlp, tmp_path_factory) -> tuple[object, Path]:
    """``kg build tests/data/corpus_small --output OUT`` through click's runner, from the repository root."""
    out = tmp_path_factory.mktemp("cli_build") / "output"
    with in_repo():
        result = CliRunner().invoke(cli, ["build", CORPUS, "--output", str(out)])
    return result, out


def test_cli_build_prints_the_summary_and_writes_the_outputs(cli_build, corpus_build):
    result, out = cli_build
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "read 10 records: 9 papers, 1 duplicate merged, 0 skipped"
    summary = corpus_build[0]
    (entities,) = [line for line in lines if line.startswith("entities: ")]
    for n, kind in [(summary.entities["Method"], "methods"), (summary.entities["Dataset"], "datasets"),
                    (summary.entities["Modality"], "modalities"), (summary.entities["Task"], "tasks"),
                    (summary.entities["Metric"], "metrics")]:
        assert f"{n} {kind}" in entities
    assert any(f"{summary.triples} triples" in line for line in lines)
    assert lines[-1].startswith("done in ") and lines[-1].endswith(" s")
    names = {p.name for p in out.iterdir()}
    assert {"graph.html", "kg.ttl", "report.html"} <= names
    assert not [n for n in names if n.endswith(".tmp")], "a temporary file was left in the output directory"
    assert (out / "kg.ttl").read_bytes() == (corpus_build[1] / "kg.ttl").read_bytes()
    for name in ("graph.html", "report.html"):
        html = (out / name).read_text(encoding="utf-8")
        assert html.lstrip().lower().startswith("<!doctype html") and "</html>" in html
        assert "<script>alert('pwned')</script>" not in html, f"{name} embeds the abstract's HTML unescaped"


def snapshot(directory: Path, skip: str | None = None) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> bytes), except those under the subdirectory ``skip``."""
    files = (p for p in sorted(directory.rglob("*")) if p.is_file())
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in files
            if skip is None or p.relative_to(directory).parts[0] != skip}


def _write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


#: name -> (file name, content or None for a missing path, what the one-line message must contain)
FATAL_INPUTS: dict[str, tuple[str, bytes | None, tuple[str, ...]]] = {
    "missing path": ("absent.jsonl", None, ("no such file or directory", "absent.jsonl")),
    "empty file": ("empty.txt", b"", ("empty.txt", "empty")),
    "whitespace-only file": ("blank.jsonl", b" \n\n\t\n", ("blank.jsonl", "empty")),
    "binary file": ("figure.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), ("figure.txt", "not UTF-8")),
    "non-UTF-8 file": ("latin1.txt", "Header line\n\nA caf\u00e9 abstract.\n".encode("latin-1"),
                       ("latin1.txt", "not UTF-8", "line 3")),
    "CSV without abstract column": ("no_abstract.csv", b"id,title,summary_text\n1,A paper,Some text\n",
                                    ("no_abstract.csv", "no abstract column")),
    "JSONL with no valid line": ("garbage.jsonl", b"{not json\n{also not\n", ("garbage.jsonl", "line 1")),
}


@pytest.mark.parametrize("case", sorted(FATAL_INPUTS))
def test_fatal_input_exits_non_zero_and_leaves_the_previous_output(case, cli_build, tmp_path):
    name, content, needles = FATAL_INPUTS[case]
    out = tmp_path / "output"
    shutil.copytree(cli_build[1], out)
    before = snapshot(out)
    bad = tmp_path / name
    if content is not None:
        _write(bad, content)
    result = CliRunner().invoke(cli, ["build", str(CORPUS_DIR), str(bad), "--output", str(out)])
    assert result.exit_code != 0, result.output
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1, f"expected a one-line message, got:\n{message}"
    assert message.startswith("error: ")
    for needle in needles:
        assert needle in message, f"{needle!r} not in {message!r}"
    assert "Traceback" not in result.output
    assert snapshot(out) == before, "the previous output changed or a file was left"


def test_fatal_error_while_writing_leaves_the_previous_output(cli_build, tmp_path, monkeypatch):
    """A failure after extraction (here: the views cannot be written) must not touch the previous outputs.

    The extraction cache (.cache/) may legitimately have learnt the new abstract.
    """
    import kg.build.pipeline
    from kg.errors import GraphError

    out = tmp_path / "output"
    shutil.copytree(cli_build[1], out)
    before = snapshot(out, skip=".cache")

    def fail(graph, overview, report):
        raise GraphError(f"cannot write {overview}: disk full")

    monkeypatch.setattr(kg.build.pipeline, "write_views", fail)
    one = _write(tmp_path / "one.jsonl", json.dumps({"abstract": heteromix_abstract()}) + "\n")
    result = CliRunner().invoke(cli, ["build", str(one), "--output", str(out)])
    assert result.exit_code != 0
    assert "disk full" in result.stderr
    assert snapshot(out, skip=".cache") == before


def test_bad_records_are_skipped_with_a_warning_and_counted(nlp, tmp_path):
    good = jsonl_records()[1]
    huge = "Transformers " * 300_000  # about 3.9 MB
    lines = [json.dumps(good), "{this line is not JSON", json.dumps({"id": "big", "abstract": huge}),
             json.dumps({"title": "no abstract"})]
    src = _write(tmp_path / "mixed.jsonl", "\n".join(lines) + "\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(src), "--output", str(out), "--no-views"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 3, result.stderr
    assert all("mixed.jsonl" in w and "skipped" in w for w in warnings)
    assert any("line 2" in w and "invalid JSON" in w for w in warnings)
    assert any("line 3" in w and "over the limit" in w for w in warnings)
    assert any("line 4" in w and "abstract" in w for w in warnings)
    assert result.stdout.splitlines()[0] == "read 1 record: 1 paper, 0 duplicates merged, 3 skipped"
    g = Graph().parse(out / "kg.ttl", format="turtle")
    assert {str(o) for o in g.objects(None, DCTERMS.abstract)} == {good["abstract"]}


def test_html_abstract_is_kept_as_literal_text(nlp, tmp_path):
    text = ('We release <img src=x onerror="alert(1)"> and <script>fetch("//evil")</script> as text; '
            "&amp; stays &amp;, <!-- a comment --> stays too. We propose TagNet for HTML parsing.")
    src = _write(tmp_path / "html.jsonl", json.dumps({"abstract": text}) + "\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(src), "--output", str(out)])
    assert result.exit_code == 0, result.output
    g = Graph().parse(out / "kg.ttl", format="turtle")
    assert [str(o) for o in g.objects(None, DCTERMS.abstract)] == [text]
    for name in ("graph.html", "report.html"):
        html = (out / name).read_text(encoding="utf-8")
        assert '<script>fetch("//evil")</script>' not in html and '<img src=x onerror=' not in html


def test_no_inputs_is_a_usage_error():
    result = CliRunner().invoke(cli, ["build"])
    assert result.exit_code == 2 and "INPUTS" in result.output


def test_python_dash_m_kg_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "kg", "build", "--help"], capture_output=True, text=True,
                            cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Build the knowledge graph of INPUTS" in result.stdout


def test_code_urls_become_valid_iris(nlp, tmp_path):
    """LaTeX escapes in a URL are undone and characters an IRI may not hold are percent-encoded (no crash)."""
    text = ("We release ToolX, a library for graph sampling. Code: https://github.com/some\\_lab/tool\\_x "
            "and a mirror at https://example.org/a|b^c`d.")
    src = _write(tmp_path / "url.jsonl", json.dumps({"abstract": text}) + "\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(src), "--output", str(out), "--no-views"])
    assert result.exit_code == 0, result.output
    g = Graph().parse(out / "kg.ttl", format="turtle")
    assert set(g.objects(None, KG.codeRepository)) == {URIRef("https://github.com/some_lab/tool_x"),
                                                       URIRef("https://example.org/a%7Cb%5Ec%60d")}


def test_control_characters_in_an_abstract_are_kept(nlp, tmp_path):
    text = "We propose BellNet\a with a \x1b[31m escape, a \x00 NUL, a \u2028 separator and a \ufeff mark. BellNet beats ResNet."
    src = _write(tmp_path / "ctl.jsonl", json.dumps({"abstract": text}) + "\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(src), "--output", str(out), "--no-views"])
    assert result.exit_code == 0, result.output
    g = Graph().parse(out / "kg.ttl", format="turtle")
    assert [str(o) for o in g.objects(None, DCTERMS.abstract)] == [text]


def test_unpaired_surrogate_is_skipped_with_a_warning(nlp, tmp_path):
    good = jsonl_records()[0]
    src = _write(tmp_path / "sur.jsonl", json.dumps(good) + "\n" + '{"abstract": "A lone \\ud800 surrogate."}\n')
    result = CliRunner().invoke(cli, ["build", str(src), "--output", str(tmp_path / "out"), "--no-views"])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0 and "sur.jsonl" in result.stderr and "line 2" in result.stderr


def test_output_that_is_a_file_is_a_clear_error(tmp_path):
    taken = _write(tmp_path / "kg.ttl", "@prefix x: <http://x/> .\n")
    result = CliRunner().invoke(cli, ["build", str(JSONL), "--output", str(taken)])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit), result.exception  # no traceback
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1 and "kg.ttl" in message and "not a directory" in message, message
    assert taken.read_text() == "@prefix x: <http://x/> .\n"


def test_progress_bar_above_the_threshold(nlp, tmp_path):
    from kg.cli.build import PROGRESS_THRESHOLD

    n = PROGRESS_THRESHOLD + 1
    lines = [json.dumps({"abstract": f"We propose Net{i}, a convolutional network evaluated on CIFAR-10."}) for i in range(n)]
    src = _write(tmp_path / "many.jsonl", "\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["build", str(src), "--output", str(tmp_path / "out"), "--no-views"])
    assert result.exit_code == 0, result.output
    assert f"{n}/{n}" in result.stderr and "abstract/s" in result.stderr, result.stderr
    few = _write(tmp_path / "few.jsonl", "\n".join(lines[:3]) + "\n")
    result = CliRunner().invoke(cli, ["build", str(few), "--output", str(tmp_path / "out3"), "--no-views"])
    assert result.exit_code == 0 and "abstract/s" not in result.stderr
