"""Minting stable IRIs for papers, entities and evidence.

IRIs depend only on content (never on run order, time or machine), so the same abstract gives the
same paper IRI across runs, files and machines, and the same entity name gives the same entity IRI.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

from rdflib import URIRef

from kg.entity_types import BY_NAME, entity_type
from kg.namespaces import ID

_SPACE = re.compile(r"\s+")
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
#: what separates the words of a name (dropped from the digest of a name with no ASCII letter or digit)
_SEPARATORS = re.compile(r"[\s\-_/,]+")

def normalize_abstract(text: str) -> str:
    """The abstract as identity sees it: Unicode NFC, whitespace runs collapsed, trimmed."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()


def digest(text: str, length: int = 16) -> str:
    """A hex SHA-256 digest prefix of ``text``."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def abstract_key(text: str) -> str:
    """The key under which two records count as the same paper."""
    return digest(normalize_abstract(text))


def paper_iri(abstract: str) -> URIRef:
    """The IRI of the paper with this abstract."""
    return URIRef(paper_iri_of_key(abstract_key(abstract)))


def paper_iri_of_key(key: str) -> str:
    """The IRI (as a string) of the paper whose :func:`abstract_key` is ``key``."""
    return f"{ID}paper/{key}"


def slug(name: str) -> str:
    """A readable, IRI-safe slug: NFKD-folded, lower case, non-alphanumeric runs as '-'.

    Names made only of symbols fall back to a digest so that the slug is never empty.
    """
    if name.isascii():  # NFKD changes no ASCII text and leaves no combining marks (the common case, fast)
        decomposed = name
        folded = name.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", name)
        folded = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    out = _NON_ALNUM.sub("-", folded).strip("-")
    if not out:  # digest a normal form, so that spellings differing in Unicode form, case or separators share it
        return "x" + digest(_SEPARATORS.sub("", decomposed.lower()), 12)
    if len(out) > 80:  # digest the full slug, so that names with the same slug keep it when shortened
        out = out[:64].rstrip("-") + "-" + digest(out, 8)
    return out


def entity_iri(type_name: str, key: str) -> URIRef:
    """The IRI of an entity of ``type_name`` (Method, Dataset, ...) whose canonical key is ``key``."""
    return ID[f"{entity_type(type_name).segment}/{slug(key)}"]


def sentence_iri(paper: URIRef, index: int) -> URIRef:
    """The IRI of sentence ``index`` (0-based) of ``paper``."""
    return URIRef(f"{paper}/s{index}")


def mention_iri(paper: URIRef, start: int, end: int, type_name: str, in_title: bool = False) -> URIRef:
    """The IRI of the mention of a ``type_name`` entity at characters ``start:end`` of the abstract
    (``m...``), or of the title (``t...``)."""
    return URIRef(f"{paper}/{'t' if in_title else 'm'}{start}-{end}-{BY_NAME[type_name].segment}")


def result_iri(paper: URIRef, index: int) -> URIRef:
    """The IRI of the ``index``-th quantitative result claimed in ``paper``."""
    return URIRef(f"{paper}/r{index}")


def relation_iri(paper: URIRef, start: int, end: int, name: str) -> URIRef:
    """The IRI of a relation assertion supported by characters ``start:end`` of ``paper``'s abstract."""
    return URIRef(f"{paper}/rel{start}-{end}-{slug(name)}")


def source_iri(paper: URIRef | str, file: str, position: int) -> URIRef:
    """The IRI of the source record at ``position`` of ``file``, under the paper it was read as
    (``paper/KEY/src-DIGEST``): a paper's sources are written with it, however many there are."""
    return URIRef(f"{paper}/src-{digest(f'{file}#{position}')}")


def person_iri(name: str, orcid: str | None = None) -> URIRef:
    """The IRI of an author: by ORCID iD when there is one (``person/0000-0002-1825-0097``), else by the
    full name as written (``person/ada-lovelace-<digest>``), so one name within a build is one person."""
    if orcid:
        return ID[f"person/{orcid}"]
    return ID[f"person/{slug(name) or 'author'}-{digest(' '.join(name.split()), 8)}"]


def extractor_iri(name: str) -> URIRef:
    """The IRI of the extraction rule or model called ``name``."""
    return ID[f"extractor/{slug(name)}"]
