"""Papers: records merged by abstract or DOI, so the same paper read twice is one paper with two sources.

Records are merged as they stream in: only the first record of a paper keeps its abstract text; the
others keep their metadata and source (the paper holds the text once), so reading the same corpus twice
costs a record's metadata per duplicate, not its text.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from kg.ingest import Record
from kg.resolve.ids import abstract_key, paper_iri_of_key


@dataclass
class Paper:
    """One paper: its abstract, the records it was read from (the later ones without their text), and its
    metadata (first record wins)."""

    iri: str
    abstract: str
    records: list[Record] = field(default_factory=list)
    #: the metadata fields some record of the paper gives (kept while records are merged)
    known: set[str] = field(default_factory=set, repr=False, compare=False)

    @property
    def first(self) -> Record:
        """The first record this paper was read from."""
        return self.records[0]

    def field(self, name: str):
        """The first non-empty value of metadata field ``name`` among the records."""
        for r in self.records:
            value = getattr(r, name)
            if value:
                return value
        return None


#: the metadata a later record contributes only where every earlier record of its paper lacks it
_FOLDED = ("title", "authors", "year", "venue", "keywords", "doi", "arxiv", "url", "date")


def _without_known(record: Record, paper: Paper) -> Record:
    """A later record of ``paper`` without its text and without the metadata an earlier record already
    gives (:meth:`Paper.field` takes the first non-empty value, so the answers are the same); its source
    and id stay, for the source record it becomes."""
    given = {name for name in _FOLDED if getattr(record, name)}
    known = {name: () if isinstance(getattr(record, name), tuple) else None for name in given & paper.known}
    paper.known |= given
    return replace(record, abstract="", **known)


def merge_records(records: Iterable[Record]) -> tuple[list[Paper], int]:
    """Group records by abstract (normalised) or DOI; return the papers in first-seen order and how many
    duplicates merged. A paper's text and IRI are those of its first record."""
    papers: dict[str, Paper] = {}
    by_doi: dict[str, str] = {}
    duplicates = 0
    for record in records:
        key = abstract_key(record.abstract)
        if key not in papers and record.doi and record.doi in by_doi:
            key = by_doi[record.doi]
        paper = papers.get(key)
        if paper is None:
            papers[key] = Paper(iri=paper_iri_of_key(key), abstract=record.abstract, records=[record],
                                known={name for name in _FOLDED if getattr(record, name)})
        else:
            paper.records.append(_without_known(record, paper))
            duplicates += 1
        if record.doi:
            by_doi.setdefault(record.doi, key)
    return list(papers.values()), duplicates
