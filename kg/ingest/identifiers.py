"""Parsing the identifiers and dates that bibliographic inputs carry: DOIs, arXiv ids, ORCID iDs, dates.

Each parser takes the value as an input writes it (a bare identifier, a URL, a prefixed form such as
``doi:10.1000/xyz`` or ``arXiv:2106.01234v2``) and returns its canonical form, or None when the value
is not one. None is an answer, not an error: readers keep the record and drop the identifier.
"""
from __future__ import annotations

import re
from datetime import date

#: a DOI: directory indicator 10, a registrant code, a slash and a suffix (Crossref's recommended pattern,
#: widened to the registrant codes with sub-divisions such as 10.1000.10)
_DOI = re.compile(r"10\.\d{4,9}(?:\.\d+)*/\S+")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*|https?://doi\.org/)", re.IGNORECASE)
#: new-style (since 2007) and old-style (archive[.class]/YYMMNNN) arXiv identifiers, with an optional version
_ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(?:v\d+)?")
_ARXIV_OLD = re.compile(r"([a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?")
_ARXIV_PREFIX = re.compile(r"^(?:https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/|arxiv:\s*)", re.IGNORECASE)
_ORCID = re.compile(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])")
_ORCID_PREFIX = re.compile(r"^(?:https?://(?:www\.)?orcid\.org/|orcid:\s*)", re.IGNORECASE)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?")


def parse_doi(value: object) -> str | None:
    """The bare, lower-cased DOI of ``value`` (``"https://doi.org/10.1000/XYZ"`` -> ``"10.1000/xyz"``).

    DOIs are case-insensitive, so the lower-cased form is the one two sources can be matched on.
    A trailing full stop or comma (from a reference list) is dropped.
    """
    if not isinstance(value, str):
        return None
    text = _DOI_PREFIX.sub("", value.strip())
    text = text.rstrip(".,;")
    return text.lower() if _DOI.fullmatch(text) else None


def parse_arxiv(value: object) -> str | None:
    """The arXiv identifier of ``value`` without its version (``"arXiv:2106.01234v2"`` -> ``"2106.01234"``)."""
    if not isinstance(value, str):
        return None
    text = _ARXIV_PREFIX.sub("", value.strip())
    if text.endswith(".pdf"):
        text = text[: -len(".pdf")]
    for pattern in (_ARXIV_NEW, _ARXIV_OLD):
        match = pattern.fullmatch(text)
        if match:
            return match.group(1)
    return None


def orcid_checksum_ok(orcid: str) -> bool:
    """True when the ISO 7064 11-2 check character of a ``0000-0000-0000-000X`` ORCID iD is right."""
    digits = orcid.replace("-", "")
    total = 0
    for ch in digits[:-1]:
        total = (total + int(ch)) * 2
    check = (12 - total % 11) % 11
    return digits[-1] == ("X" if check == 10 else str(check))


def parse_orcid(value: object) -> str | None:
    """The bare ORCID iD of ``value`` (``"https://orcid.org/0000-0002-1825-0097"`` -> ``"0000-0002-1825-0097"``),
    None when it is not one or its check character is wrong."""
    if not isinstance(value, str):
        return None
    text = _ORCID_PREFIX.sub("", value.strip()).upper()
    match = _ORCID.fullmatch(text)
    return match.group(1) if match and orcid_checksum_ok(match.group(1)) else None


def full_date(year: object, month: object, day: object) -> str | None:
    """``YYYY-MM-DD`` when the three parts make a real calendar date, else None."""
    try:
        return date(int(year), int(month), int(day)).isoformat()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def parse_date(value: object) -> str | None:
    """The ISO 8601 full date of ``value`` (``"2024-05-07"``, ``"2024-5-7T10:00:00Z"``), None when it gives
    less than day, month and year or is no calendar date."""
    if not isinstance(value, str):
        return None
    match = _ISO_DATE.fullmatch(value.strip())
    return full_date(*match.groups()) if match else None
