"""Saved SPARQL queries: the ``kg/sparql/queries/*.rq`` files shipped with paperkg.

Each file starts with a header comment::

    # name: datasets-shared
    # description: Datasets used by more than one paper, most shared first.
    # param: entity — the entity's IRI, label or alias

Parameters are bound by substitution (SPARQL SEP-0007), which needs the variable in the SELECT
clause: a saved query projects its parameters, and :func:`kg.sparql.run.run_query` drops those columns.
Oxigraph plans a query before it sees the substituted values, so a saved query looks the parameter
up first and evaluates the rest ``LATERAL { ... }`` (per match): milliseconds instead of a full scan.
A parameter whose meaning starts with "optional" may be omitted; the others are required.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from kg.errors import QueryError

QUERIES_DIR = Path(__file__).resolve().parent / "queries"

_HEADER = re.compile(r"^#\s*(name|description|param)\s*:\s*(.*?)\s*$")
_PARAM = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(?:—|–|--|-|:)\s*(.*)$")


@dataclass(frozen=True)
class SavedQuery:
    """A saved query: its name, one-line description, parameters (name -> meaning) and SPARQL text."""

    name: str
    description: str
    text: str
    path: Path
    params: dict[str, str] = field(default_factory=dict)

    @property
    def required(self) -> list[str]:
        """The parameters that must be given (those whose meaning does not start with "optional")."""
        return [p for p, meaning in self.params.items() if not meaning.lower().startswith("optional")]


def parse_saved(path: Path) -> SavedQuery:
    """Read one ``.rq`` file and its header; QueryError naming the file and line if the header is malformed."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise QueryError(f"cannot read saved query {path}: {exc.strerror or exc}") from exc
    name, description, params = path.stem, "", {}
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.startswith("#"):
            break
        match = _HEADER.match(line)
        if not match:
            continue
        key, value = match.groups()
        if key == "name":
            name = value
        elif key == "description":
            description = value
        else:
            pm = _PARAM.match(value)
            if not pm:
                raise QueryError(f"{path}:{lineno}: malformed header line {line!r}; write `# param: name — meaning`")
            params[pm.group(1)] = pm.group(2)
    if not description:
        raise QueryError(f"{path}: saved query has no `# description:` header line")
    return SavedQuery(name=name, description=description, text=text, path=path, params=params)


@lru_cache(maxsize=1)
def _catalogue(directory: Path = QUERIES_DIR) -> dict[str, SavedQuery]:
    queries = {}
    for path in sorted(directory.glob("*.rq")):
        saved = parse_saved(path)
        if saved.name in queries:
            raise QueryError(f"{path}: saved query name {saved.name!r} is also used by {queries[saved.name].path}")
        queries[saved.name] = saved
    return queries


def list_saved() -> list[SavedQuery]:
    """Every saved query, sorted by name."""
    return list(_catalogue().values())


def get_saved(name: str) -> SavedQuery:
    """The saved query called ``name``; QueryError listing the known names otherwise."""
    queries = _catalogue()
    if name not in queries:
        raise QueryError(f"unknown saved query {name!r}; known: {', '.join(queries)} (see `kg query --list`)")
    return queries[name]


def is_saved(name: str) -> bool:
    """Whether ``name`` names a saved query."""
    return name in _catalogue()
