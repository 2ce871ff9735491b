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
    """A SPARQL query is malformed, unknown or refused."""

    exit_code = 2


class QueryTimeout(QueryError):
    """A SPARQL query ran past its time limit: the query may be right, only too slow (exit 3, so a script
    can tell it from a malformed query and retry with a LIMIT or a longer ``--timeout``)."""

    exit_code = 3


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


class InterruptSignal(KeyboardInterrupt):
    """Ctrl-C or SIGTERM, raised by :func:`raise_interrupt`.

    A subclass, so that every ``except KeyboardInterrupt`` still catches it, but not KeyboardInterrupt
    itself: CPython remembers a bare KeyboardInterrupt that ends a nested ``PyRun_*`` call (Cython modules
    run some of their set-up that way) and then, at exit, kills the process with SIGINT instead of
    returning the exit status the command chose (130).
    """


def raise_interrupt(signum: int, _frame: object) -> None:
    """Signal handler for SIGINT and SIGTERM (installed by the command line): raise
    :class:`InterruptSignal`. The process is on its way out, so from then on the errors of destructors
    of objects the interrupt left half-built (an import cut short) are not printed."""
    import sys

    sys.unraisablehook = lambda _unraisable: None
    raise InterruptSignal(signum)
