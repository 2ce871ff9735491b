"""The explorer's search box: papers and entities found by a prefix of any word of a label or alias.

Names (``rdfs:label``, ``skos:prefLabel``, ``skos:altLabel``) are folded (accents removed, case folded,
every run of other characters one space) and indexed at each word start, so "trans" finds "Vision
Transformer" and "vision tr" finds it too. The index is one sorted array of (name, word offset) pairs
searched with :func:`bisect.bisect_left` over the folded suffixes: built once from the store, a few
bytes per word, no copy of the suffixes kept.
"""
from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from kg.analysis.convert import CLASS_TYPES, NODE_TYPES
from kg.namespaces import KG, RDF, RDFS, SKOS
from kg.server.explore import page_path

__all__ = ["fold", "Hit", "SearchIndex", "build_index", "MAX_QUERY_CHARS", "MAX_LIMIT"]

#: longest query accepted, in characters
MAX_QUERY_CHARS = 200
#: most hits one search returns
MAX_LIMIT = 50
#: names are indexed up to this many folded characters (titles are far shorter)
MAX_NAME_CHARS = 1000
#: sort key length: a longer query is looked up by its first KEY_CHARS characters, then checked whole
KEY_CHARS = 48
#: at most this many matching words are ranked for one query (a one-letter query matches thousands)
SCAN_LIMIT = 3000
_OFFSET_BITS = 10
_OFFSET_MASK = (1 << _OFFSET_BITS) - 1
_NON_WORD = re.compile(r"[^\w]+|_+")
_NAME_PROPERTIES = {str(RDFS.label): "label", str(SKOS.prefLabel): "prefLabel", str(SKOS.altLabel): "altLabel"}
_TYPE_RANK = {t: (1 if t == "Paper" else 0) for t in NODE_TYPES}


def fold(text: str) -> str:
    """``text`` lower-cased without accents, each run of non-word characters one space, stripped."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NON_WORD.sub(" ", plain.casefold()).strip()


@dataclass(frozen=True)
class Hit:
    """One search result: the resource, its label and type, its explorer URL and the name that matched."""

    iri: str
    label: str
    type: str
    url: str
    match: str

    def as_json(self) -> dict[str, str]:
        return {"iri": self.iri, "label": self.label, "type": self.type, "url": self.url, "match": self.match}


@dataclass(frozen=True)
class _Resource:
    iri: str
    label: str
    type: str


class SearchIndex:
    """Word-start prefix search over the folded names of resources."""

    def __init__(self, names: Iterable[tuple[str, str, str, str]]) -> None:
        """``names``: ``(iri, label, type, name)`` for every name (label or alias) of every resource."""
        self._resources: list[_Resource] = []
        self._names: list[str] = []  # the name as written
        self._folded: list[str] = []
        self._owner = array("I")  # name index -> resource index
        seen: dict[str, int] = {}
        positions = array("Q")
        for iri, label, kind, name in names:
            folded = fold(name)[:MAX_NAME_CHARS]
            if not folded:
                continue
            if iri not in seen:
                seen[iri] = len(self._resources)
                self._resources.append(_Resource(iri, label, kind))
            index = len(self._names)
            self._names.append(name)
            self._folded.append(folded)
            self._owner.append(seen[iri])
            for offset, char in enumerate(folded):
                if char != " " and (offset == 0 or folded[offset - 1] == " "):
                    if offset > _OFFSET_MASK:
                        break
                    positions.append(index << _OFFSET_BITS | offset)
        self._positions = array("Q", sorted(positions, key=self._key))

    def _key(self, position: int) -> str:
        offset = position & _OFFSET_MASK
        return self._folded[position >> _OFFSET_BITS][offset:offset + KEY_CHARS]

    def __len__(self) -> int:
        """The number of resources indexed."""
        return len(self._resources)

    @property
    def words(self) -> int:
        """The number of indexed word starts."""
        return len(self._positions)

    def search(self, query: str, limit: int = 10) -> list[Hit]:
        """The best ``limit`` resources one of whose names has a word starting with ``query`` (folded):
        an exact name first, then a name starting with it, entities before papers, shorter labels first."""
        q = fold(query)
        if not q or limit <= 0:
            return []
        key = q[:KEY_CHARS]
        start = bisect_left(self._positions, key, key=self._key)
        best: dict[int, tuple[tuple[object, ...], int]] = {}
        scanned = 0
        for i in range(start, len(self._positions)):
            position = self._positions[i]
            if not self._key(position).startswith(key):
                break
            scanned += 1
            if scanned > SCAN_LIMIT:
                break
            name, offset = position >> _OFFSET_BITS, position & _OFFSET_MASK
            folded = self._folded[name]
            if len(q) > KEY_CHARS and not folded.startswith(q, offset):
                continue
            owner = self._owner[name]
            resource = self._resources[owner]
            rank = (folded != q, offset != 0, _TYPE_RANK.get(resource.type, 2), self._names[name] != resource.label,
                    len(resource.label), resource.label.casefold(), resource.iri)
            if owner not in best or rank < best[owner][0]:
                best[owner] = (rank, name)
        ranked = sorted(best.items(), key=lambda item: item[1][0])[:limit]
        return [Hit(iri=self._resources[owner].iri, label=self._resources[owner].label,
                    type=self._resources[owner].type, url=page_path(self._resources[owner].iri),
                    match=self._names[name]) for owner, (_, name) in ranked]


def _type_name(types: list[str]) -> str:
    """The type shown for a resource: its paperkg node type, else the local name of one of its classes."""
    kg = str(KG)
    for iri in sorted(types):
        if iri.startswith(kg) and iri[len(kg):] in CLASS_TYPES:
            return CLASS_TYPES[iri[len(kg):]]
    if types:
        return re.split(r"[#/]", sorted(types)[0])[-1] or "Resource"
    return "Resource"


def build_index(store: object) -> SearchIndex:
    """The index of every IRI-named resource with a name in ``store`` (a :class:`pyoxigraph.Store`).

    Its label is the first of its ``rdfs:label`` (else ``skos:prefLabel``) values in sorted order, as on
    its page; every other name is an alias."""
    import pyoxigraph as ox

    by_resource: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for prop, kind in _NAME_PROPERTIES.items():
        for quad in store.quads_for_pattern(None, ox.NamedNode(prop), None):  # type: ignore[attr-defined]
            if isinstance(quad.subject, ox.NamedNode) and isinstance(quad.object, ox.Literal):
                by_resource[quad.subject.value][kind].add(quad.object.value)
    rdf_type = ox.NamedNode(str(RDF.type))

    def names() -> Iterable[tuple[str, str, str, str]]:
        for iri in sorted(by_resource):
            kinds = by_resource[iri]
            label = sorted(kinds.get("label") or kinds.get("prefLabel") or kinds.get("altLabel") or [""])[0]
            types = {q.object.value for q in store.quads_for_pattern(ox.NamedNode(iri), rdf_type, None)  # type: ignore[attr-defined]
                     if isinstance(q.object, ox.NamedNode)}
            kind = _type_name(list(types))
            all_names = set().union(*kinds.values())
            for name in [label, *sorted(all_names - {label})]:
                yield iri, label, kind, name

    return SearchIndex(names())
