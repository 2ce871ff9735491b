"""Plain, picklable records of what extraction found in one abstract."""
from __future__ import annotations

from dataclasses import dataclass, field

from kg.entity_types import TYPE_NAMES

ENTITY_TYPES: tuple[str, ...] = TYPE_NAMES

#: Types a paper can propose (kg:proposes): a modality is never coined.
PROPOSABLE: frozenset[str] = frozenset({"Method", "Dataset", "Metric", "Task"})

#: Types of what a paper names as its own ("a strategy named X", a title that is X's name); a task so named
#: is the class of problems it studies ("games that we call hidden zero-sum games"), not an artifact.
NAMEABLE: frozenset[str] = frozenset({"Method", "Dataset", "Metric"})


@dataclass(frozen=True, order=True)
class Mention:
    """One typed entity mention: characters ``start:end`` of the abstract (of the title if ``in_title``).

    ``concept`` is the IRI of a vocabulary concept when the mention matched one; ``long_form`` and
    ``short_form`` are set when the mention is (part of) an abbreviation definition or use.
    ``confidence`` is the trained model's probability of the span and type, in [0, 1], or None for a
    mention no model scored; it takes no part in equality or order.
    """

    start: int
    end: int
    type: str
    text: str
    rule: str
    concept: str | None = None
    long_form: str | None = None
    short_form: str | None = None
    proposed: bool = False
    #: the mention is in the paper's title, not its abstract: ``start:end`` index the title
    in_title: bool = False
    confidence: float | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ResultClaim:
    """A quantitative claim: a number reported for a metric (optionally on a dataset, by a method)."""

    start: int
    end: int
    metric: str
    value: str
    numeric: float | None
    unit: str
    dataset: str | None = None
    method: str | None = None
    #: character spans of the metric, dataset and method names in the abstract (None when implicit)
    metric_span: tuple[int, int] | None = None
    metric_concept: str | None = None
    dataset_span: tuple[int, int] | None = None
    method_span: tuple[int, int] | None = None


@dataclass(frozen=True)
class Relation:
    """A typed relation between two named things, supported by characters ``start:end``."""

    start: int
    end: int
    predicate: str
    subject: str
    subject_type: str
    object: str
    object_type: str
    rule: str
    #: character spans of the subject and object names in the abstract
    subject_span: tuple[int, int] | None = None
    object_span: tuple[int, int] | None = None
    #: the trained relation model's probability of the relation, in [0, 1], or None for a rule's
    #: relation the model did not score; it takes no part in equality
    confidence: float | None = field(default=None, compare=False)


@dataclass
class PaperExtraction:
    """Everything extracted from one abstract; offsets index the abstract text unchanged."""

    sentences: list[tuple[int, int]] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    name: str | None = None
    code_urls: list[str] = field(default_factory=list)
    results: list[ResultClaim] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    #: the keys entity resolution compares each written form of the mentions by
    #: (:func:`kg.keys.form_keys`), computed where the text is extracted rather than once per build
    forms: dict[str, tuple[str, str, str, str]] = field(default_factory=dict)
