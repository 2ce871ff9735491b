"""The five entity types, one row each: what extraction names them, how their IRIs and links are written,
and how the views draw them.

Plain data (no spaCy, no rdflib): every stage reads it, so a type is described in one place.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EntityType:
    """One entity type and how each stage writes or shows it."""

    #: the type of mentions and the local name of its kg: class ("Method")
    name: str
    #: the path segment of its IRIs and its Turtle prefix ("method": ``id:method/bert``, ``method:bert``)
    segment: str
    #: the local name of the kg: property that links a paper to an entity of this type ("usesMethod")
    link: str
    #: the plural the build summary writes ("methods", "modalities")
    plural: str
    #: the views' colour and vis-network shape
    colour: str
    shape: str
    #: kg: sub-classes shown as this type ("Model" is a Method)
    subclasses: tuple[str, ...] = ()


METHOD, DATASET, MODALITY, TASK, METRIC = "Method", "Dataset", "Modality", "Task", "Metric"

#: the types in their canonical order (extraction, vocabularies, IRI prefixes, build summary)
ENTITY_TYPES: tuple[EntityType, ...] = (
    EntityType(METHOD, "method", "usesMethod", "methods", "#e15759", "diamond", ("Model",)),
    EntityType(DATASET, "dataset", "usesDataset", "datasets", "#59a14f", "square", ("Benchmark",)),
    EntityType(MODALITY, "modality", "hasModality", "modalities", "#b07aa1", "star"),
    EntityType(TASK, "task", "addressesTask", "tasks", "#f28e2b", "triangle"),
    EntityType(METRIC, "metric", "usesMetric", "metrics", "#76b7b2", "triangleDown"),
)

#: type name -> its row
BY_NAME: dict[str, EntityType] = {t.name: t for t in ENTITY_TYPES}

#: the type names in canonical order
TYPE_NAMES: tuple[str, ...] = tuple(BY_NAME)

#: the type names in the order views, reports and trends list them
DISPLAY_ORDER: tuple[str, ...] = (METHOD, DATASET, TASK, MODALITY, METRIC)


def entity_type(name: str) -> EntityType:
    """The row of type ``name``; ValueError naming the known types otherwise."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown entity type {name!r}; expected one of {sorted(BY_NAME)}") from None
