"""The one error hierarchy of paperkg.

Library code raises these; only the CLI turns them into exit codes and text.
Every message names the file, line or IRI concerned and says what to do.
"""
from __future__ import annotations


class KGError(Exception):
    """Base class of every error paperkg raises on purpose."""

    exit_code: int = 1


class InputError(KGError):
    """An input file or record cannot be read (missing, empty, binary, malformed)."""


class ModelError(KGError):
    """The spaCy pipeline cannot be loaded."""


class OntologyError(KGError):
    """The ontology or a vocabulary file is missing or malformed."""


class GraphError(KGError):
    """A graph or store cannot be loaded, written or validated."""


class OutputError(GraphError):
    """An output cannot be written where it was asked for (read-only or missing directory, a file in the
    way, a full disk); the message names the path and what to do."""

    exit_code = 2


class Interrupted(KGError):
    """The user interrupted the command (Ctrl-C, SIGTERM); the message says what was kept."""

    exit_code = 130


class QueryError(KGError):
    """A SPARQL query is malformed, unknown, refused or timed out."""

    exit_code = 2


class NotFoundError(KGError):
    """A paper or entity named by the user does not exist in the graph."""


class AmbiguousNameError(NotFoundError):
    """A name given by the user matches several papers or entities; the message lists them."""

    def __init__(self, message: str, candidates: list[str] | None = None) -> None:
        super().__init__(message)
        self.candidates = candidates or []


class ArgumentError(KGError):
    """The arguments of a command or function do not make sense (too few papers, a window too short)."""

    exit_code = 2
