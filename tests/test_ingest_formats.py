"""Tests of the bibliographic input formats: BibTeX, RIS, CSL-JSON, OpenAlex, the arXiv snapshot, Semantic Scholar.

Each format has a small fixture in tests/data/ingest/formats/ written in the shape its exporter or API
writes (with LaTeX, non-ASCII names, missing optional fields and exactly one bad record), and a larger
file generated here from a template.
"""
from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, OWL, RDF, XSD

from kg.cli import cli
from kg.errors import InputError
from kg.ingest import READERS, Author, Record, SkippedRecord, SourceRef, detect_format, read_records
from kg.ingest.openalex import rebuild_abstract
from kg.namespaces import KG, SCHEMA

DATA = Path(__file__).parent / "data" / "ingest" / "formats"

#: format -> its fixture files
FIXTURES = {
    "bibtex": ["library.bib"],
    "ris": ["scopus.ris"],
    "csl-json": ["zotero.json"],
    "openalex": ["openalex-page.json", "openalex-works.jsonl"],
    "arxiv": ["arxiv-snapshot.jsonl"],
    "s2": ["s2-papers.json"],
}
ALL_FIXTURES = [(fmt, name) for fmt, names in FIXTURES.items() for name in names]
#: fixture -> (records read, records skipped)
COUNTS = {"library.bib": (4, 1), "scopus.ris": (3, 1), "zotero.json": (3, 1), "openalex-page.json": (3, 1),
          "openalex-works.jsonl": (3, 1), "arxiv-snapshot.jsonl": (3, 1), "s2-papers.json": (3, 1)}


def read(paths, **kwargs) -> tuple[list[Record], list[SkippedRecord]]:
    skipped: list[SkippedRecord] = []
    records = list(read_records(paths, on_skip=skipped.append, **kwargs))
    return records, skipped


def meta(record: Record) -> tuple:
    """Everything of a record but its abstract."""
    return (record.source, record.id, record.title, record.authors, record.year, record.venue, record.keywords,
            record.doi, record.arxiv, record.url, record.date)


@pytest.fixture
def in_data(monkeypatch) -> Path:
    monkeypatch.chdir(DATA)
    return DATA


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_every_format_is_registered():
    assert {"bibtex", "ris", "csl-json", "openalex", "arxiv", "s2"} <= set(READERS)


# --------------------------------------------------------------------------- BibTeX


def test_bibtex_fixture(in_data):
    records, skipped = read(["library.bib"])
    assert [meta(r) for r in records] == [
        (SourceRef("library.bib", 0, 6), "mueller2023sparse", "Sparse Mixture Routing with α-Entmax",
         (Author("Jörg Müller"), Author("Renée Café"), Author("Jan van der Berg Jr.")), 2023,
         "Journal of Machine Learning Research", ("mixture of experts", "sparsity", "routing"),
         "10.5555/jmlr.2023.0142", None, "https://jmlr.org/papers/v24/mueller23a.html", "2023-06-14"),
        # @string macro as booktitle, eprint + archivePrefix = arXiv, "and others" dropped, year without date
        (SourceRef("library.bib", 1, 25), "nowak2024graphs", "Message Passing on Directed Hypergraphs",
         (Author("Łukasz Nowak"), Author("Anne-Kathrine Søndergaard")), 2024,
         "Advances in Neural Information Processing Systems", ("graph neural networks", "hypergraphs"),
         None, "2406.01234", None, None),
        # BibLaTeX: journaltitle, date, eprinttype
        (SourceRef("library.bib", 2, 41), "okafor2022calib", "Calibrating Language Models with Temperature Ensembles",
         (Author("Chidi Okafor"), Author("Xiǎomíng Wáng")), 2022, "Transactions on Machine Learning Research", (),
         None, "2211.04567", None, "2022-11-03"),
        # only a title and an abstract
        (SourceRef("library.bib", 4, 61), "anon2020short", "Dropout as a Bayesian Ensemble", (), None, None, (),
         None, None, None, None),
    ]
    # LaTeX decoded ({\"u}, $\alpha$, \textbf{}, 95\%), hard line wraps read as spaces
    assert records[0].abstract == (
        "We replace the softmax router of a mixture-of-experts layer with α-entmax, which assigns exactly zero "
        "weight to most experts. On translation benchmarks the sparse router matches the dense one while "
        "activating 95% fewer experts, and über-large models train faster."
    )
    assert [(s.source, s.kind) for s in skipped] == [(SourceRef("library.bib", 3, 54), "no abstract")]
    assert "line 54" in skipped[0].reason and "abstract" in skipped[0].reason


def test_bibtex_bad_entries_are_skipped_with_their_kind(in_tmp):
    (in_tmp / "bad.bib").write_text(
        "@article{a, abstract = {Fine.}}\n"
        "@article{a, abstract = {Same key.}}\n"
        "@article{b, abstract = {Two titles.}, title = {x}, title = {y}}\n"
        "@misc{c, abstract = {never closed\n"
        "@article{d, abstract = {Read after the broken one.}, year = {soon}}\n"
        "@article{e, abstract = {Last one.}, author = {Doe, Jane}}\n",
        encoding="utf-8",
    )
    records, skipped = read(["bad.bib"])
    assert [(r.id, r.source.line, r.authors, r.year) for r in records] == [
        ("a", 1, (), None), ("d", 5, (), None), ("e", 6, (Author("Jane Doe"),), None)]
    assert [(s.source.position, s.source.line, s.kind) for s in skipped] == [
        (1, 2, "duplicate key"), (2, 3, "duplicate field"), (3, 4, "invalid BibTeX")]
    assert records[1].dropped == ("`year` must be a four-digit year like 2024, got 'soon'",)  # year = {soon}


def test_bibtex_that_is_no_bibtex_is_an_error(in_tmp):
    (in_tmp / "notes.bib").write_text("Just some notes, no entries.\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"^notes\.bib holds no BibTeX entry.*--format"):
        read(["notes.bib"])
    (in_tmp / "empty.bib").write_text("\n  \n", encoding="utf-8")
    with pytest.raises(InputError, match=r"^empty\.bib is empty"):
        read(["empty.bib"])


def test_bibtex_large_generated_file(in_tmp):
    entries: list[str] = []
    starts: list[int] = []  # the line of each entry's @type{
    for i in range(2000):
        kind = "inproceedings" if i % 3 else "article"
        venue = f"booktitle = {{Proceedings of Workshop {i % 17}}}" if i % 3 else f"journal = {{Journal {i % 11}}}"
        abstract = "" if i % 100 == 7 else (
            f"  abstract = {{We study problem {i} with $\\alpha_{{{i}}}$ and M{{\\\"u}}ller's method.\n"
            f"    It improves accuracy by {i % 50}\\%.}},\n")
        starts.append(1 + sum(e.count("\n") for e in entries[-1:]) + (starts[-1] - 1 if starts else 0))
        entries.append(
            f"@{kind}{{key{i},\n  author = {{Last{i}, First and M{{\\\"u}}ller, J.}},\n"
            f"  title = {{Title {i}}},\n  {venue},\n  year = {2000 + i % 25},\n{abstract}"
            f"  doi = {{10.1000/gen.{i}}}\n}}\n\n"
        )
    (in_tmp / "big.bib").write_text("".join(entries), encoding="utf-8")
    records, skipped = read(["big.bib"])
    assert len(records) == 1980 and len(skipped) == 20 and {s.kind for s in skipped} == {"no abstract"}
    last = records[-1]
    assert last.id == "key1999" and last.source == SourceRef("big.bib", 1999, starts[-1])
    assert [r.source.line for r in records[:3]] == starts[:3] == [1, 11, 21]
    assert last.abstract == "We study problem 1999 with α_1999 and Müller's method. It improves accuracy by 49%."
    assert last.authors == (Author("First Last1999"), Author("J. Müller")) and last.doi == "10.1000/gen.1999"
    assert last.venue == "Proceedings of Workshop 10" and last.year == 2024


# --------------------------------------------------------------------------- RIS


def test_ris_fixture(in_data):
    records, skipped = read(["scopus.ris"])
    assert [meta(r) for r in records] == [
        (SourceRef("scopus.ris", 0, 1), None, "Contrastive pretraining for tabular anomaly detection",
         (Author("J. Müller"), Author("A.-K. Søndergaard"), Author("Carlos Ibáñez Jr.")), 2023,
         "Pattern Recognition Letters", ("anomaly detection", "contrastive learning", "tabular data"),
         "10.1016/j.patrec.2023.06.011", None,
         "https://www.scopus.com/inward/record.uri?eid=2-s2.0-85162012345&doi=10.1016%2fj.patrec.2023.06.011"
         "&partnerID=40&md5=0a1b2c3d4e5f", "2023-06-14"),
        (SourceRef("scopus.ris", 1, 26), None, "Low-rank adapters forget less", (Author("Zofia Kowalczyk"),), 2024,
         "Proceedings of the 41st International Conference on Machine Learning",
         ("parameter-efficient fine-tuning", "catastrophic forgetting"), None, None, None, None),
        # JO as the venue, Y1 as the full date
        (SourceRef("scopus.ris", 3, 51), None, "Equivariant networks for crystal property prediction",
         (Author("Hiroshi Ōtsuka"),), 2021, "npj Computational Materials", (), None, None, None, "2021-11-02"),
    ]
    # a multi-line AB: rispy joins its continuation lines
    assert records[1].abstract == (
        "Fine-tuning a language model on a new task erodes what it knew before. We measure forgetting across "
        "twelve task sequences and find that low-rank adapters retain 30–40 % more of the earlier tasks than full "
        "fine-tuning at equal accuracy on the new one."
    )
    assert [(s.source, s.kind) for s in skipped] == [(SourceRef("scopus.ris", 2, 40), "no abstract")]


def test_ris_unterminated_record_and_other_files(in_tmp):
    (in_tmp / "cut.ris").write_text(
        "TY  - JOUR\nAB  - First.\nER  - \n\nTY  - JOUR\nAB  - No end line.\nTY  - JOUR\nAB  - Third.\nER  - \n"
        "TY  - JOUR\nAB  - Cut off at the end.\n", encoding="utf-8")
    records, skipped = read(["cut.ris"])
    assert [(r.abstract, r.source.position, r.source.line) for r in records] == [("First.", 0, 1), ("Third.", 2, 7)]
    assert [(s.source.line, s.kind) for s in skipped] == [(5, "unterminated record"), (10, "unterminated record")]
    (in_tmp / "other.ris").write_text("id,abstract\n1,x\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"^other\.ris holds no RIS record \(line 1 is 'id,abstract'\)"):
        read(["other.ris"], fmt="ris")


def test_ris_large_generated_file(in_tmp):
    chunks: list[str] = []
    for i in range(2000):
        lines = ["TY  - JOUR", f"AU  - Nowak{i}, Łukasz", f"TI  - Title {i}", f"T2  - Journal {i % 13}",
                 f"PY  - {2000 + i % 20}", f"DO  - 10.1000/ris.{i}", f"KW  - topic {i % 7}", f"KW  - method {i % 5}"]
        if i % 50 != 3:
            lines.append(f"AB  - Abstract number {i} about learning.")
        chunks.append("\r\n".join([*lines, "ER  - ", "", ""]))
    (in_tmp / "big.ris").write_text("".join(chunks), encoding="utf-8", newline="")
    records, skipped = read(["big.ris"])
    assert len(records) == 1960 and len(skipped) == 40
    last = records[-1]
    start = 1 + sum(chunk.count("\r\n") for chunk in chunks[:-1])
    assert last.source == SourceRef("big.ris", 1999, start) and last.abstract == "Abstract number 1999 about learning."
    assert last.authors == (Author("Łukasz Nowak1999"),) and last.keywords == ("topic 4", "method 4")
    assert last.year == 2019 and last.venue == "Journal 10" and last.doi == "10.1000/ris.1999"


# --------------------------------------------------------------------------- CSL-JSON


def test_csl_json_fixture(in_data):
    records, skipped = read(["zotero.json"])
    items = json.loads((DATA / "zotero.json").read_text(encoding="utf-8"))
    assert [r.abstract for r in records] == [i["abstract"] for i in items if "abstract" in i]  # kept exactly
    assert [meta(r) for r in records] == [
        (SourceRef("zotero.json", 0, 2), "http://zotero.org/users/4711/items/QW3RT8ZP",
         "Early stopping is implicit weight decay",
         (Author("Åsa Lindqvist", "0000-0002-1825-0097"), Author("Jan van der Berg")), 2024, "Neural Computation",
         ("regularisation", "optimisation"), "10.1162/neco_a_01599", None, "https://doi.org/10.1162/NECO_a_01599",
         "2024-06-14"),
        # a literal name; issued with year and month only: a year, no date
        (SourceRef("zotero.json", 1, 49), "http://zotero.org/users/4711/items/8HJK2LMN",
         "Local initialisation makes vision transformers data-efficient",
         (Author("Éloïse Dubois"), Author("Aurora Vision Consortium")), 2023,
         "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition", (), None, None, None,
         None),
        # an arXiv preprint as Zotero writes it: number "arXiv:..."
        (SourceRef("zotero.json", 3, 94), "http://zotero.org/users/4711/items/P0O9I8U7",
         "Learning where the reward is wrong", (Author("Sora Nakamura"),), 2023, None,
         ("Computer Science - Machine Learning",), None, "2310.07777", None, "2023-10-12"),
    ]
    assert [(s.source, s.kind) for s in skipped] == [(SourceRef("zotero.json", 2, 75), "no abstract")]


def test_csl_json_wrong_field_types(in_tmp):
    items = [{"type": "article", "title": "ok", "abstract": "Fine."},
             {"type": "article", "title": 42, "abstract": "Title is a number."},
             {"type": "article", "title": "x", "abstract": "Bad author.", "author": "Jane Doe"},
             {"type": "article", "title": "x", "abstract": ["not", "text"]}]
    (in_tmp / "c.json").write_text(json.dumps(items), encoding="utf-8")
    records, skipped = read(["c.json"])
    assert [(r.abstract, r.title) for r in records] == [("Fine.", "ok"), ("Title is a number.", None)]
    assert records[1].dropped == ("`title` must be a string, got int",)
    # an author list CSL-JSON cannot hold, and an abstract that is no text, cost the record
    assert [(s.source.position, s.kind) for s in skipped] == [(2, "invalid field"), (3, "invalid field")]


def test_csl_json_that_is_not_json_or_not_an_array(in_tmp):
    (in_tmp / "broken.json").write_text('[\n  {"type": "article", "title": "x",\n]\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"^broken\.json is not valid JSON \(line 3, column 1: .*\); fix the file"):
        read(["broken.json"], fmt="csl-json")
    (in_tmp / "obj.json").write_text('{"items": []}', encoding="utf-8")
    with pytest.raises(InputError, match=r"^obj\.json is not CSL-JSON: it holds a JSON dict"):
        read(["obj.json"], fmt="csl-json")


def test_csl_json_large_generated_file(in_tmp):
    items = [{"id": f"item{i}", "type": "article-journal", "title": f"Title {i}",
              "author": [{"family": f"Family{i}", "given": "Given"}, {"literal": f"Team {i % 9}"}],
              "issued": {"date-parts": [[2000 + i % 24, 1 + i % 12, 1 + i % 28]]},
              "container-title": f"Journal {i % 5}", "DOI": f"10.1000/csl.{i}",
              **({} if i % 40 == 5 else {"abstract": f"Abstract {i}: we learn things."})}
             for i in range(2000)]
    (in_tmp / "big.json").write_text(json.dumps(items, indent=2), encoding="utf-8")
    records, skipped = read(["big.json"])
    assert len(records) == 1950 and len(skipped) == 50
    lines = [r.source.line for r in records]
    assert lines[0] == 2 and lines == sorted(set(lines))
    assert records[-1].date == "2007-08-12" and records[-1].authors == (Author("Given Family1999"), Author("Team 1"))


# --------------------------------------------------------------------------- OpenAlex


def test_openalex_page_fixture(in_data):
    records, skipped = read(["openalex-page.json"])
    assert [meta(r) for r in records] == [
        (SourceRef("openalex-page.json", 0, 10), "W4385012345", "Sparse autoencoders for protein language models",
         (Author("Zoë Hartmann", "0000-0003-4471-2088"), Author("Mateus Araújo")), 2024,
         "bioRxiv (Cold Spring Harbor Laboratory)", ("Sparse autoencoder", "Protein language model"),
         "10.1101/2024.03.18.585123", None, None, "2024-03-18"),
        # no source: no venue; no keywords: the concepts
        (SourceRef("openalex-page.json", 1, 142), "W4390011122", "Quantised diffusion models on phones",
         (Author("Nguyễn Thị Lan"),), 2023, None, ("Quantization (signal processing)", "Diffusion model"),
         "10.1145/3610661.3616543", None, None, "2023-11-02"),
        (SourceRef("openalex-page.json", 3, 285), "W4311122233", "Self-supervised speech features predict brain responses",
         (Author("Amélie Fournier", "0000-0001-5522-9177"), Author("Kwame Mensah")), 2022,
         "Neural Information Processing Systems", ("Speech perception",), None, None, None, "2022-12-05"),
    ]
    assert records[1].abstract == (
        "Running diffusion models on phones is limited by memory bandwidth. We quantise weights to four bits with a "
        "per-channel scale learned during distillation and generate 512 × 512 images in under two seconds on a "
        "mid-range handset."
    )
    assert [(s.source, s.kind) for s in skipped] == [(SourceRef("openalex-page.json", 2, 235), "no abstract")]
    assert "abstract_inverted_index" in skipped[0].reason


def test_openalex_snapshot_lines_fixture(in_data):
    records, skipped = read(["openalex-works.jsonl"])
    assert [meta(r) for r in records] == [
        (SourceRef("openalex-works.jsonl", 0, 1), "W4392233445", "Retrieval-augmented generation for clinical notes",
         (Author("Siobhán Ó Briain", "0000-0002-6613-754X"), Author("Rahul Iyer")), 2024, "npj Digital Medicine",
         ("Retrieval-augmented generation",), "10.1038/s41746-024-01010-1", None, None, "2024-02-29"),
        # an arXiv DOI gives the arXiv id
        (SourceRef("openalex-works.jsonl", 1, 2), "W4388899900", "Weather forecasting with graph transformers",
         (Author("Björn Ekström"),), 2023, "arXiv (Cornell University)", (), "10.48550/arxiv.2308.01234",
         "2308.01234", None, "2023-08-21"),
        (SourceRef("openalex-works.jsonl", 3, 4), "W4377766655", "Fairness audits without demographic labels",
         (Author("Ayşe Demir"),), 2023, None, ("Algorithmic fairness",), None, None, None, "2023-05-30"),
    ]
    assert [(s.source, s.kind) for s in skipped] == [(SourceRef("openalex-works.jsonl", 2, 3), "invalid JSON")]


@pytest.mark.parametrize("index, expected", [
    ({"graphs": [2], "We": [0], "study": [1, 3]}, "We study graphs study"),
    ({"a": [0], "gap": [5]}, "a gap"),  # missing positions are no words
    ({}, None),
    (None, None),
])
def test_openalex_inverted_index_is_rebuilt(index, expected):
    assert rebuild_abstract(index) == expected


def test_openalex_bad_index_and_other_json(in_tmp):
    lines = [{"id": "https://openalex.org/W1", "abstract_inverted_index": {"Fine": [0], "work.": [1]}},
             {"id": "https://openalex.org/W2", "abstract_inverted_index": {"Bad": ["zero"]}},
             {"id": "https://openalex.org/W3", "abstract_inverted_index": {}}]
    (in_tmp / "w.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    records, skipped = read(["w.jsonl"])
    assert [(r.id, r.abstract) for r in records] == [("W1", "Fine work.")]
    assert [s.kind for s in skipped] == ["invalid field", "no abstract"]
    (in_tmp / "plain.jsonl").write_text('{"abstract": "Not OpenAlex."}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"^no line of plain\.jsonl is an OpenAlex work .*--format"):
        read(["plain.jsonl"], fmt="openalex")


def _work(i: int) -> dict:
    words = f"Work {i} learns representations of graphs number {i % 10} .".split()
    index: dict[str, list[int]] = {}
    for pos, word in enumerate(words):
        index.setdefault(word, []).append(pos)
    return {"id": f"https://openalex.org/W{10_000 + i}", "doi": f"https://doi.org/10.1000/oa.{i}",
            "title": f"Work {i}", "publication_year": 2000 + i % 25, "publication_date": f"{2000 + i % 25}-03-0{1 + i % 9}",
            "authorships": [{"author": {"display_name": f"Author {i}", "orcid": None}}],
            "primary_location": {"source": {"display_name": f"Venue {i % 4}"}} if i % 2 else None,
            "keywords": [{"display_name": f"kw{i % 6}"}], "concepts": [],
            "abstract_inverted_index": None if i % 100 == 99 else index}


def test_openalex_large_generated_files(in_tmp):
    works = [_work(i) for i in range(2000)]
    page = {"meta": {"count": 2000, "page": 1, "per_page": 2000}, "results": works, "group_by": []}
    (in_tmp / "page.json").write_text(json.dumps(page, indent=1), encoding="utf-8")
    with gzip.open(in_tmp / "part_000.gz", "wt", encoding="utf-8") as fh:  # the snapshot's own file names
        fh.writelines(json.dumps(w) + "\n" for w in works)
    for name in ("page.json", "part_000.gz"):
        assert detect_format(name) == "openalex"
        records, skipped = read([name])
        assert len(records) == 1980 and len(skipped) == 20
        assert records[-1].abstract == "Work 1998 learns representations of graphs number 8 ."
        assert records[-1].id == "W11998" and records[-1].venue is None and records[-1].date == "2023-03-01"
    assert records[-1].source == SourceRef("part_000.gz", 1998, 1999)


# --------------------------------------------------------------------------- arXiv snapshot


def test_arxiv_snapshot_fixture(in_data):
    records, skipped = read(["arxiv-snapshot.jsonl"])
    assert [meta(r) for r in records] == [
        # authors_parsed, the first version's date, hard-wrapped title joined
        (SourceRef("arxiv-snapshot.jsonl", 0, 1), "2401.01234", "Token Merging for Long-Context Transformers without Retraining",
         (Author("Léa Moreau"), Author("Tomasz Wiśniewski"), Author("Priya Raman")), 2024, None, ("cs.CL", "cs.LG"),
         None, "2401.01234", None, "2024-01-02"),
        (SourceRef("arxiv-snapshot.jsonl", 1, 2), "2305.06789", "Conformal Prediction Sets for Graph Neural Networks",
         (Author("Daniel Okoro Jr."), Author("Hannah Schäfer")), 2023,
         "Transactions on Machine Learning Research (2023)", ("stat.ML", "cs.LG"), "10.48550/arxiv.2305.06789",
         "2305.06789", None, "2023-05-11"),
        # no versions: update_date
        (SourceRef("arxiv-snapshot.jsonl", 3, 4), "2210.04321", "Curriculum Sampling for Offline Reinforcement Learning",
         (Author("Mei Chen"),), 2022, None, ("cs.LG", "cs.AI"), None, "2210.04321", None, "2022-10-10"),
    ]
    assert records[0].abstract == (
        "Long inputs make attention quadratic in cost. We merge similar key and value tokens on the fly, halving the "
        "memory of a 32k-token context while losing less than one point of accuracy on long-document question "
        "answering."
    )
    assert [(s.source, s.kind) for s in skipped] == [(SourceRef("arxiv-snapshot.jsonl", 2, 3), "no abstract")]


def test_arxiv_authors_string_when_not_parsed(in_tmp):
    line = {"id": "hep-th/9901001v2", "submitter": "X", "authors": "J. M\\\"uller and A. Caf\\'e",
            "title": "T", "categories": "hep-th", "abstract": "  One\n  line.\n", "versions": []}
    (in_tmp / "a.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    [record], _ = read(["a.jsonl"])
    assert record.authors == (Author("J. Müller"), Author("A. Café")) and record.arxiv == "hep-th/9901001"
    assert record.abstract == "One line." and record.date is None


def _arxiv_line(i: int) -> dict:
    return {"id": f"{2000 + i % 100:04d}.{i:05d}", "submitter": f"Person {i}",
            "authors": f"Person {i} and Other {i}", "title": f"Paper\n  {i}", "comments": None,
            "journal-ref": None, "doi": None, "categories": "cs.LG stat.ML" if i % 2 else "cs.CV",
            "abstract": "" if i % 250 == 1 else f"  Abstract {i} line one\nline two.\n",
            "versions": [{"version": "v1", "created": "Mon, 3 Apr 2023 10:00:00 GMT"}],
            "update_date": "2023-04-04", "authors_parsed": [[f"Person{i}", "A.", ""], [f"Other{i}", "B.", ""]]}


def test_arxiv_large_generated_file_named_like_the_real_snapshot(in_tmp):
    """The real snapshot is arxiv-metadata-oai-snapshot.json, though it is JSON lines."""
    name = "arxiv-metadata-oai-snapshot.json"
    (in_tmp / name).write_text("".join(json.dumps(_arxiv_line(i)) + "\n" for i in range(2000)), encoding="utf-8")
    assert detect_format(name) == "arxiv"
    records, skipped = read([name])
    assert len(records) == 1992 and len(skipped) == 8 and {s.kind for s in skipped} == {"no abstract"}
    last = records[-1]
    assert last.source == SourceRef(name, 1999, 2000) and last.abstract == "Abstract 1999 line one line two."
    assert last.arxiv == "2099.01999" and last.title == "Paper 1999" and last.keywords == ("cs.LG", "stat.ML")


# --------------------------------------------------------------------------- Semantic Scholar


def test_s2_fixture(in_data):
    records, skipped = read(["s2-papers.json"])
    papers = json.loads((DATA / "s2-papers.json").read_text(encoding="utf-8"))["data"]
    assert [r.abstract for r in records] == [p["abstract"] for p in papers if p["abstract"]]
    assert [meta(r) for r in records] == [
        (SourceRef("s2-papers.json", 0, 5), "5f1c0a9e3b7d4c2a8e6f0b1d2c3a4e5f6a7b8c9d",
         "Distilling Chain-of-Thought into Small Models", (Author("Mihai Popescu"), Author("Aoife Ní Bhriain")), 2023,
         "Annual Meeting of the Association for Computational Linguistics", ("Computer Science", "Linguistics"),
         "10.18653/v1/2023.acl-long.101", "2305.11111",
         "https://www.semanticscholar.org/paper/5f1c0a9e3b7d4c2a8e6f0b1d2c3a4e5f6a7b8c9d", "2023-07-09"),
        # empty venue: publicationVenue.name; no fieldsOfStudy: the s2FieldsOfStudy; no publicationDate
        (SourceRef("s2-papers.json", 1, 51), "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
         "Active Learning for Satellite Image Segmentation", (Author("Gustavo Peña"),), 2022,
         "IEEE Transactions on Geoscience and Remote Sensing", ("Environmental Science", "Computer Science"), None,
         None, "https://www.semanticscholar.org/paper/0a1b2c3d4e5f60718293a4b5c6d7e8f901234567", None),
        (SourceRef("s2-papers.json", 3, 104), "9d8c7b6a5f4e3d2c1b0a99887766554433221100",
         "Mixture-of-Depths Speech Recognition", (Author("Søren Kierkegaard Holm"), Author("Yusuf Çelik")), 2024,
         "arXiv.org", ("Computer Science", "Engineering"), None, "2402.09876",
         "https://www.semanticscholar.org/paper/9d8c7b6a5f4e3d2c1b0a99887766554433221100", "2024-02-15"),
    ]
    assert [(s.source, s.kind) for s in skipped] == [(SourceRef("s2-papers.json", 2, 87), "no abstract")]


def test_s2_single_paper_batch_array_and_lines(in_tmp):
    paper = {"paperId": "abc", "title": "One", "abstract": "A single paper.", "year": 2020,
             "authors": [{"authorId": "1", "name": "Ana Lima"}], "externalIds": {"DOI": "10.1000/ONE"}}
    (in_tmp / "one.json").write_text(json.dumps(paper, indent=2), encoding="utf-8")
    (in_tmp / "batch.json").write_text(json.dumps([paper, None, {**paper, "paperId": "def"}]), encoding="utf-8")
    (in_tmp / "lines.jsonl").write_text(json.dumps(paper) + "\n" + json.dumps({**paper, "paperId": "x"}) + "\n",
                                        encoding="utf-8")
    for name, ids, skips in [("one.json", ["abc"], []), ("batch.json", ["abc", "def"], ["not a JSON object"]),
                             ("lines.jsonl", ["abc", "x"], [])]:
        assert detect_format(name) == "s2", name
        records, skipped = read([name])
        assert [r.id for r in records] == ids and [s.kind for s in skipped] == skips
        assert records[0].doi == "10.1000/one" and records[0].authors == (Author("Ana Lima"),)


def test_s2_large_generated_file(in_tmp):
    with (in_tmp / "papers.jsonl").open("w", encoding="utf-8") as fh:
        for i in range(2000):
            fh.write(json.dumps({
                "paperId": f"{i:040x}", "title": f"Paper {i}", "year": 2000 + i % 25,
                "abstract": None if i % 80 == 0 else f"We train model {i} on data.",
                "authors": [{"authorId": str(i), "name": f"Author {i}"}], "venue": f"Venue {i % 3}",
                "externalIds": {"ArXiv": f"2101.{i:05d}"}, "fieldsOfStudy": ["Computer Science"],
                "publicationDate": f"{2000 + i % 25}-12-31"}) + "\n")
            if i == 1000:
                fh.write("{not json\n")
    records, skipped = read(["papers.jsonl"])
    assert len(records) == 1975 and sorted({s.kind for s in skipped}) == ["invalid JSON", "no abstract"]
    assert len(skipped) == 26 and records[-1].source == SourceRef("papers.jsonl", 2000, 2001)
    assert records[-1].arxiv == "2101.01999" and records[-1].date == "2024-12-31"


# --------------------------------------------------------------------------- detection and --format


@pytest.mark.parametrize("fmt, name", ALL_FIXTURES)
def test_fixtures_are_detected_by_extension_and_by_content(in_tmp, fmt, name):
    source = DATA / name
    assert detect_format(source) == fmt
    plain = in_tmp / (name.split(".")[0] + ".data")  # an extension that says nothing
    shutil.copy(source, plain)
    assert detect_format(plain) == fmt
    packed = in_tmp / (name.split(".")[0] + ".gz")
    packed.write_bytes(gzip.compress(source.read_bytes()))
    assert detect_format(packed) == fmt
    expected, _ = read([source])
    assert [r.abstract for r in read([plain])[0]] == [r.abstract for r in expected]
    assert [r.abstract for r in read([packed])[0]] == [r.abstract for r in expected]


@pytest.mark.parametrize("fmt, name", ALL_FIXTURES)
def test_format_flag_forces_the_reader(in_tmp, fmt, name):
    # a misleading extension: detection refuses it, --format reads it
    misnamed = in_tmp / (name.split(".")[0] + ".txt")
    shutil.copy(DATA / name, misnamed)
    with pytest.raises(InputError, match=rf"extension says seed but .*means {fmt}.*pass --format NAME"):
        detect_format(misnamed)
    records, skipped = read([misnamed], fmt=fmt)
    assert (len(records), len(skipped)) == COUNTS[name]


@pytest.mark.parametrize("fmt, name", [
    ("ris", "library.bib"), ("bibtex", "scopus.ris"), ("csl-json", "openalex-page.json"),
    ("openalex", "zotero.json"), ("arxiv", "s2-papers.json"), ("s2", "arxiv-snapshot.jsonl"),
])
def test_forcing_the_wrong_format_is_an_error_naming_the_file(in_data, fmt, name):
    with pytest.raises(InputError, match=rf"{name.replace('.', '[.]')}.*(--format|RIS|BibTeX)"):
        read([name], fmt=fmt)


def test_json_extensions_let_the_content_decide(in_tmp):
    shutil.copy(DATA / "openalex-works.jsonl", in_tmp / "works.json")
    shutil.copy(DATA / "arxiv-snapshot.jsonl", in_tmp / "arxiv.ndjson")
    shutil.copy(DATA / "s2-papers.json", in_tmp / "s2.jsonl")
    (in_tmp / "ours.json").write_text('{"abstract": "Plain JSONL in a .json file."}\n', encoding="utf-8")
    assert [detect_format(n) for n in ("works.json", "arxiv.ndjson", "s2.jsonl", "ours.json")] == [
        "openalex", "arxiv", "s2", "jsonl"]


def test_plain_jsonl_stays_plain_jsonl(in_tmp):
    (in_tmp / "ours.jsonl").write_text('{"abstract": "x", "id": "p1", "categories": "cs.LG"}\n', encoding="utf-8")
    assert detect_format("ours.jsonl") == "jsonl"
    (in_tmp / "blob").write_text('{"title": "no abstract yet"}\n', encoding="utf-8")
    assert detect_format("blob") == "jsonl"


def test_ambiguous_json_content_asks_for_format(in_tmp):
    both = {"paperId": "p", "abstract_inverted_index": {"x": [0]}, "abstract": "x"}
    (in_tmp / "both.data").write_text(json.dumps(both) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"^both\.data: its first line is .* which fits openalex and s2; pass --format"):
        detect_format("both.data")
    assert read(["both.data"], fmt="s2")[0][0].abstract == "x"


def test_conflicting_extension_and_content(in_tmp):
    shutil.copy(DATA / "library.bib", in_tmp / "refs.ris")
    with pytest.raises(InputError, match=r"^refs\.ris: its extension says ris but its first entry starts like "
                                         r"`@article\{`, which means bibtex; fix the extension or pass --format"):
        detect_format("refs.ris")
    shutil.copy(DATA / "scopus.ris", in_tmp / "refs.json")
    with pytest.raises(InputError, match=r"extension says csl-json but its first line is a RIS"):
        detect_format("refs.json")


def test_large_json_document_is_detected_from_its_start(in_tmp):
    """A pretty-printed page far larger than the detection sample is still told from its first members."""
    page = {"meta": {"count": 3000}, "results": [_work(i) for i in range(3000)]}
    (in_tmp / "page.data").write_text(json.dumps(page, indent=2), encoding="utf-8")
    assert (in_tmp / "page.data").stat().st_size > 1 << 20
    assert detect_format("page.data") == "openalex"
    s2 = {"total": 3000, "offset": 0, "data": [{"paperId": str(i), "abstract": "x" * 100} for i in range(3000)]}
    (in_tmp / "s2.data").write_text(json.dumps(s2, indent=2), encoding="utf-8")
    assert detect_format("s2.data") == "s2"


def test_directory_of_formats(in_tmp):
    for _, name in ALL_FIXTURES:
        shutil.copy(DATA / name, in_tmp / name)
    records, skipped = read(["."])
    assert (len(records), len(skipped)) == tuple(map(sum, zip(*COUNTS.values()))) == (22, 7)
    assert sorted({r.source.file for r in records}) == sorted(name for _, name in ALL_FIXTURES)
    (in_tmp / "oa").mkdir()
    for name in ("openalex-page.json", "openalex-works.jsonl", "library.bib"):
        shutil.copy(DATA / name, in_tmp / "oa" / name)
    forced, _ = read(["oa"], fmt="openalex")  # any JSON extension suits a JSON format
    assert {r.source.file for r in forced} == {"oa/openalex-page.json", "oa/openalex-works.jsonl"}


# --------------------------------------------------------------------------- our JSONL with identifiers


def test_plain_jsonl_reads_doi_arxiv_url_and_date(in_tmp):
    line = {"abstract": "We read identifiers.", "doi": "https://doi.org/10.1000/ABC.1", "arxiv": "arXiv:2106.01234v3",
            "url": "https://example.org/paper", "date": "2024-05-07",
            "authors": [{"name": "Ada Lovelace", "orcid": "https://orcid.org/0000-0002-1825-0097"}, "Alan Turing"]}
    (in_tmp / "ids.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    [record], skipped = read(["ids.jsonl"])
    assert skipped == []
    assert (record.doi, record.arxiv, record.url, record.date) == (
        "10.1000/abc.1", "2106.01234", "https://example.org/paper", "2024-05-07")
    assert record.authors == (Author("Ada Lovelace", "0000-0002-1825-0097"), Author("Alan Turing"))
    assert record.year == 2024  # the date gives the year no field states


def test_a_stated_year_wins_over_the_date_s(in_tmp):
    (in_tmp / "y.jsonl").write_text(json.dumps({"abstract": "A.", "year": 2023, "date": "2024-05-07"}) + "\n",
                                    encoding="utf-8")
    [record], _ = read(["y.jsonl"])
    assert (record.year, record.date) == (2023, "2024-05-07")


# --------------------------------------------------------------------------- kg build


def _build(source: Path, out: Path) -> Graph:
    result = CliRunner().invoke(cli, ["build", str(source), "-o", str(out), "--no-views", "--no-cache"])
    assert result.exit_code == 0, result.output
    n = COUNTS[source.name][0]
    assert result.stdout.splitlines()[:2] == [f"read {n} records: {n} papers, 0 duplicates merged, 1 skipped",
                                              "skipped: 1 no abstract"]
    return Graph().parse(out / "kg.ttl", format="turtle")


def _paper(g: Graph, doi: str) -> URIRef:
    [paper] = list(g.subjects(OWL.sameAs, URIRef(f"https://doi.org/{doi}")))
    assert (paper, RDF.type, KG.Paper) in g
    return paper


def _creators(g: Graph, paper: URIRef) -> dict[str, set[str]]:
    """The paper's authors: schema:name -> their owl:sameAs IRIs."""
    people = set(g.objects(paper, DCTERMS.creator))
    assert all((p, RDF.type, SCHEMA.Person) in g for p in people)
    return {str(g.value(p, SCHEMA.name)): {str(o) for o in g.objects(p, OWL.sameAs)} for p in people}


def test_kg_build_of_the_bibtex_fixture(nlp, tmp_path):
    g = _build(DATA / "library.bib", tmp_path / "out")
    paper = _paper(g, "10.5555/jmlr.2023.0142")
    assert _creators(g, paper) == {"Jörg Müller": set(), "Renée Café": set(), "Jan van der Berg Jr.": set()}
    assert (paper, DCTERMS.date, Literal("2023-06-14", datatype=XSD.date)) in g
    assert (paper, DCTERMS.title, Literal("Sparse Mixture Routing with α-Entmax")) in g
    assert str(g.value(paper, DCTERMS.abstract)).startswith("We replace the softmax router")
    preprints = list(g.subjects(OWL.sameAs, URIRef("https://arxiv.org/abs/2406.01234")))
    assert len(preprints) == 1 and (preprints[0], DCTERMS.identifier, Literal("nowak2024graphs")) in g


def test_kg_build_of_the_openalex_fixture(nlp, tmp_path):
    g = _build(DATA / "openalex-page.json", tmp_path / "out")
    paper = _paper(g, "10.1101/2024.03.18.585123")
    assert _creators(g, paper) == {"Zoë Hartmann": {"https://orcid.org/0000-0003-4471-2088"}, "Mateus Araújo": set()}
    assert (paper, DCTERMS.identifier, Literal("W4385012345")) in g
    assert len(set(g.subjects(RDF.type, KG.Paper))) == 3
