"""Merging records into papers: by abstract or DOI, with each paper's metadata as its records give it."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kg.ingest import Author, Record, SourceRef
from kg.ingest.corpus import merge_records

FIELDS = ("title", "authors", "year", "venue", "keywords", "doi", "url", "date")
VALUES = {
    "title": st.sampled_from([None, "A", "B"]),
    "authors": st.sampled_from([(), (Author("Ada"),), (Author("Bo"), Author("Cy"))]),
    "year": st.sampled_from([None, 2020, 2021]),
    "venue": st.sampled_from([None, "ICLR", "ICML"]),
    "keywords": st.sampled_from([(), ("x",), ("y", "z")]),
    "doi": st.sampled_from([None, "10.1000/a"]),
    "url": st.sampled_from([None, "https://example.org/a"]),
    "date": st.sampled_from([None, "2021-05-07"]),
}


@st.composite
def records(draw) -> list[Record]:
    n = draw(st.integers(1, 12))
    return [Record(draw(st.sampled_from(["First abstract.", "Second abstract."])), SourceRef("f.jsonl", i, i + 1),
                   id=f"r{i}", **{name: draw(VALUES[name]) for name in FIELDS}) for i in range(n)]


def first_value(rs: list[Record], name: str):
    return next((getattr(r, name) for r in rs if getattr(r, name)), None)


@settings(max_examples=300, deadline=None)
@given(records())
def test_a_paper_answers_each_field_as_its_records_do(rs: list[Record]) -> None:
    """Later records lose their text and the fields an earlier one gives; no paper's answer changes."""
    papers, duplicates = merge_records(rs)
    assert duplicates == len(rs) - len(papers)
    assert sum(len(p.records) for p in papers) == len(rs)
    for paper in papers:
        originals = [r for r in rs if r.source in {k.source for k in paper.records}]
        for name in FIELDS:
            assert paper.field(name) == first_value(originals, name), name
        assert [r.id for r in paper.records] == [r.id for r in originals]
        assert all(r.abstract == "" for r in paper.records[1:])


def test_same_doi_is_one_paper_with_both_sources() -> None:
    a = Record("Our abstract, as the publisher has it.", SourceRef("a.bib", 0, 1), doi="10.1000/xyz")
    b = Record("Our abstract as arXiv has it.", SourceRef("b.json", 0, 1), doi="10.1000/xyz", arxiv="2106.01234")
    c = Record("Another paper.", SourceRef("b.json", 1, 2), doi="10.1000/other")
    papers, duplicates = merge_records([a, b, c])
    assert duplicates == 1 and len(papers) == 2
    assert papers[0].abstract == a.abstract and papers[0].field("arxiv") == "2106.01234"
    assert [r.source for r in papers[0].records] == [a.source, b.source]


def test_repeated_papers_hold_their_text_once() -> None:
    """20,000 records of the same 1 KB abstract (a new string each time, as a reader makes them): the merge
    keeps one text, so its memory is the records' metadata (a few MB), not 20 MB of copies."""
    import tracemalloc

    text = "We propose a method for learning from repeated records. " * 18  # ~1 KB

    def stream():
        for i in range(20_000):
            yield Record("".join([text[:10], text[10:]]), SourceRef("big.jsonl", i, i + 1), id=f"r{i}",
                         title=f"Copy {i}")

    tracemalloc.start()
    try:
        papers, duplicates = merge_records(stream())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(papers) == 1 and duplicates == 19_999
    assert peak < 12 << 20, f"peak {peak / 2**20:.0f} MB: the merge keeps the copies' text"
