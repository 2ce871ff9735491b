"""Papers: records merged by abstract, so the same abstract read twice is one paper with two sources."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from kg.ids import abstract_key, paper_iri_of_key
from kg.ingest import Record


@dataclass
class Paper:
    """One paper: its abstract, the records it was read from, and its metadata (first record wins)."""

    iri: str
    abstract: str
    records: list[Record] = field(default_factory=list)

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


def merge_records(records: Iterable[Record]) -> tuple[list[Paper], int]:
    """Group records by abstract; return the papers in first-seen order and how many duplicates merged."""
    papers: dict[str, Paper] = {}
    duplicates = 0
    for record in records:
        key = abstract_key(record.abstract)
        paper = papers.get(key)
        if paper is None:
            papers[key] = Paper(iri=paper_iri_of_key(key), abstract=record.abstract, records=[record])
        else:
            paper.records.append(record)
            duplicates += 1
    return list(papers.values()), duplicates
