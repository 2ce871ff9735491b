"""General vocabulary of scientific English that types candidate terms, kept as data in ``lexicon.json``.

Head nouns and modifiers of the field's language (what makes a phrase a task, a method or a metric),
the cue words of results and relations: never names of particular papers' artifacts. Each entry of
``lexicon.json`` is one lexicon with one meaning (its ``means``), listed as ``words`` (lines of words
separated by spaces) or ``phrases`` (one entry each). ``from kg.extract.lexicon import TASK_HEADS`` gives a
lexicon as a frozenset; the file is read once per process, when the first lexicon is asked for (importing
this module reads nothing; importing a module that imports a lexicon by name does).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kg.errors import OntologyError

#: The lexicons, packaged beside this module.
LEXICON_FILE: Path = Path(__file__).with_name("lexicon.json")

#: Lexicons whose meanings exclude each other: a word may stand in at most one lexicon of a group
#: (tests/test_lexicon.py finds any that stands in two). The heads of task, method, metric and dataset
#: phrases; modifiers that say nothing (generic, evaluative) against modifiers that name something
#: (technical adjectives, learning settings).
CONTRADICTING: tuple[tuple[str, ...], ...] = (
    ("TASK_HEADS", "METHOD_HEADS", "EITHER_HEADS", "METRIC_HEADS", "DATASET_NOUNS"),
    ("GENERIC_MODIFIERS", "TECHNICAL_ADJECTIVES"),
    ("GENERIC_MODIFIERS", "LEARNING_SETTINGS"),
    ("EVALUATIVE", "TECHNICAL_ADJECTIVES"),
    ("EVALUATIVE", "LEARNING_SETTINGS"),
)


def parse_lexicons(data: dict, source: str = str(LEXICON_FILE)) -> dict[str, frozenset[str]]:
    """The lexicons of ``data`` (a parsed ``lexicon.json``) by name; raises OntologyError naming ``source``
    and the lexicon when an entry is not ``{"means": ..., "words" or "phrases": [...]}``."""
    if not isinstance(data, dict):
        raise OntologyError(f"{source}: the lexicons must be one JSON object, name -> entry; correct the file")
    out: dict[str, frozenset[str]] = {}
    for name, entry in data.items():
        lists = [key for key in ("words", "phrases") if key in entry] if isinstance(entry, dict) else []
        if not name.isupper() or len(lists) != 1 or not isinstance(entry.get("means"), str) \
                or not isinstance(entry[lists[0]], list) or not all(isinstance(line, str) for line in entry[lists[0]]):
            raise OntologyError(f"{source}: lexicon {name!r} must be an upper-case name with a \"means\" text and "
                                "one list of strings, \"words\" or \"phrases\"; correct the entry")
        lines = entry[lists[0]]
        out[name] = frozenset(w for line in lines for w in line.split()) if lists[0] == "words" \
            else frozenset(line.strip() for line in lines)
    return out


def _unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object whose keys are all different (json.loads would keep the last of two silently)."""
    names = [name for name, _ in pairs]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"lexicon {', '.join(twice)} is listed twice; merge the entries")
    return dict(pairs)


@cache
def lexicons() -> dict[str, frozenset[str]]:
    """Every lexicon of :data:`LEXICON_FILE` by name (read once per process)."""
    try:
        data = json.loads(LEXICON_FILE.read_text(encoding="utf-8"), object_pairs_hook=_unique)
    except (OSError, ValueError) as exc:
        raise OntologyError(f"cannot read the lexicons at {LEXICON_FILE}: {exc}; reinstall paperkg from a "
                            "full checkout") from exc
    return parse_lexicons(data)


def __getattr__(name: str) -> frozenset[str]:
    """A lexicon as a module attribute (``lexicon.TASK_HEADS``), read from :data:`LEXICON_FILE`."""
    if name.isupper() and name in lexicons():
        return lexicons()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
