"""SHACL validation of a graph against ``ontology/shapes.ttl`` with pySHACL."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rdflib import Graph
from rdflib.namespace import SH
from rdflib.term import Node

from kg.errors import GraphError, OntologyError
from kg.resources import ontology_dir, shapes_file
from kg.store.local import oxigraph_of, to_memory


@dataclass(frozen=True)
class Violation:
    """One SHACL validation result."""

    focus: Node
    path: Node | None
    message: str
    severity: str
    value: Node | None
    constraint: str


@dataclass
class ValidationReport:
    """The outcome of :func:`validate_graph`: ``conforms`` and the individual results."""

    conforms: bool
    violations: list[Violation] = field(default_factory=list)
    graph: Graph | None = None  # pySHACL's report graph


def _parse(path: Path, fix: str) -> Graph:
    try:
        return Graph().parse(path)
    except Exception as exc:  # rdflib raises many parser exception types
        raise OntologyError(f"{path}: cannot parse: {exc}; {fix}") from exc


_SHIPPED_FIX = "restore it from the repository"
_GIVEN_FIX = "fix the Turtle, or leave out --shapes to use ontology/shapes.ttl"


def _local(node: Node | None) -> str:
    text = str(node or "")
    return text.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def validate_graph(graph: Graph, shapes: str | Path | None = None, ontology: str | Path | None = None) -> ValidationReport:
    """Validate ``graph`` against the SHACL ``shapes`` (default ``ontology/shapes.ttl``), with the OWL
    ontology (default ``ontology/kg.ttl``) as pySHACL's ont_graph and rdfs inference."""
    from pyshacl import validate

    shapes_path = Path(shapes) if shapes else shapes_file()
    shapes_graph = _parse(shapes_path, _GIVEN_FIX if shapes else _SHIPPED_FIX)
    if not any(str(p).startswith(str(SH)) or str(o).startswith(str(SH)) for _, p, o in shapes_graph):
        raise OntologyError(f"{shapes_path} holds no SHACL shape (no term of {SH}), so nothing would be "
                            "checked; give a shapes file, or leave out --shapes")
    ont_graph = _parse(Path(ontology) if ontology else ontology_dir() / "kg.ttl",
                       "fix the Turtle" if ontology else _SHIPPED_FIX)
    data = to_memory(graph) if oxigraph_of(graph) is not None else graph
    try:
        conforms, report, _ = validate(data, shacl_graph=shapes_graph, ont_graph=ont_graph, inference="rdfs",
                                       abort_on_first=False, allow_warnings=True)
    except Exception as exc:  # pySHACL reports malformed shapes with its own exception types
        raise GraphError(f"SHACL validation could not run: {exc}") from exc
    violations = []
    for result in report.subjects(SH.resultSeverity, None):
        violations.append(Violation(
            focus=report.value(result, SH.focusNode),
            path=report.value(result, SH.resultPath),
            message=str(report.value(result, SH.resultMessage) or ""),
            severity=_local(report.value(result, SH.resultSeverity)),
            value=report.value(result, SH.value),
            constraint=_local(report.value(result, SH.sourceConstraintComponent)),
        ))
    violations.sort(key=lambda v: (v.severity != "Violation", str(v.focus), str(v.path), v.constraint, str(v.value)))
    return ValidationReport(conforms=bool(conforms), violations=violations, graph=report)
