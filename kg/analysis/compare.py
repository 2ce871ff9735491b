"""Side-by-side profiles of papers: what each proposes, addresses, uses and reports.

The profile is read from the RDF graph: entity links (``kg:proposes``, ``kg:addressesTask``,
``kg:usesDataset``, ``kg:hasModality``, ``kg:usesMetric``), results (``kg:reportsResult`` with value,
metric, dataset and method) and comparisons: the ``kg:comparesWith`` relation assertions found in the
paper's own sentences (``kg:inSentence`` / ``dcterms:isPartOf``), so a comparison is attributed to the
paper that states it.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Sequence

import networkx as nx
from rdflib import URIRef

from kg.errors import ArgumentError, NotFoundError
from kg.namespaces import KG

#: profile rows, in display order
ROWS: tuple[str, ...] = ("proposes", "tasks", "datasets", "modalities", "metrics", "results", "compares with")
#: row -> paper link property
LINK_ROWS: dict[str, str] = {
    "proposes": "proposes", "tasks": "addressesTask", "datasets": "usesDataset",
    "modalities": "hasModality", "metrics": "usesMetric",
}

_PREFIXES = f"""
PREFIX kg: <{KG}>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX dcterms: <http://purl.org/dc/terms/>
"""

_LINKS = _PREFIXES + """
SELECT ?paper ?p ?label WHERE {
  VALUES ?paper { %s }
  VALUES ?p { kg:proposes kg:addressesTask kg:usesDataset kg:hasModality kg:usesMetric }
  ?paper ?p ?e .
  ?e rdfs:label ?label .
}"""

_RESULTS = _PREFIXES + """
SELECT ?paper ?result ?value ?numeric ?metric ?dataset ?method WHERE {
  VALUES ?paper { %s }
  ?paper kg:reportsResult ?result .
  ?result kg:value ?value .
  OPTIONAL { ?result kg:numericValue ?numeric }
  OPTIONAL { ?result kg:metric/rdfs:label ?metric }
  OPTIONAL { ?result kg:dataset/rdfs:label ?dataset }
  OPTIONAL { ?result kg:method/rdfs:label ?method }
}"""

_COMPARISONS = _PREFIXES + """
SELECT DISTINCT ?paper ?subject ?subjectLabel ?objectLabel WHERE {
  VALUES ?paper { %s }
  ?sentence dcterms:isPartOf ?paper .
  ?assertion kg:inSentence ?sentence ;
             rdf:predicate kg:comparesWith ;
             rdf:subject ?subject ;
             rdf:object ?object .
  ?subject rdfs:label ?subjectLabel .
  ?object rdfs:label ?objectLabel .
}"""


@dataclass
class Profile:
    """One paper's column: its IRI, label, year and the values of each row of :data:`ROWS`."""

    paper: str
    label: str
    year: str
    rows: dict[str, list[str]] = field(default_factory=lambda: {r: [] for r in ROWS})


def choose_papers(g: nx.Graph, names: Sequence[str], similar_to: str | None = None, top: int = 5) -> list[str]:
    """Return the papers to compare: ``names`` resolved (labels, IRIs or prefixes), or ``similar_to`` and its
    ``top`` nearest neighbours (:func:`kg.analysis.stats.similar`).

    Raises :class:`~kg.errors.ArgumentError` for both or neither, or fewer than two distinct papers, and
    :class:`~kg.errors.NotFoundError` for a name that matches no paper.
    """
    from kg.analysis import stats
    from kg.analysis.names import resolve

    if similar_to is not None and names:
        raise ArgumentError("give papers to compare or --similar-to PAPER, not both")
    if similar_to is not None:
        if top < 1:
            raise ArgumentError(f"--top {top}: give 1 or more neighbours")
        node = resolve(g, similar_to, types=["Paper"])
        neighbours = stats.similar(g, node, n=top)
        if not neighbours:
            raise NotFoundError(f"{g.nodes[node]['label']!r} shares no entity with another paper, so it has no "
                                "neighbour to compare with; name the papers instead")
        return [node] + [s.paper for s in neighbours]
    chosen: list[str] = []
    for name in names:
        node = resolve(g, name, types=["Paper"])
        if node not in chosen:
            chosen.append(node)
    if len(chosen) < 2:
        got = ", ".join(repr(g.nodes[n]["label"]) for n in chosen) or "none"
        raise ArgumentError(f"compare needs at least two different papers (got {got}); name more papers, "
                            "or use --similar-to PAPER")
    return chosen


def _values(papers: Sequence[str]) -> str:
    return " ".join(URIRef(p).n3() for p in papers)


def result_text(value: str, metric: str | None, dataset: str | None, method: str | None) -> str:
    """Return ``"79.6% balanced accuracy on TUAB (BIOT)"`` from a result's parts (missing parts left out)."""
    text = value + (f" {metric}" if metric else "") + (f" on {dataset}" if dataset else "")
    return text + (f" ({method})" if method else "")


def profiles(graph: Any, g: nx.Graph, papers: Sequence[str]) -> list[Profile]:
    """Return the profile of each paper (RDF ``graph``; labels and years from the typed graph ``g``)."""
    missing = [p for p in papers if p not in g or g.nodes[p].get("type") != "Paper"]
    if missing:
        raise NotFoundError(f"{missing[0]} is not a paper of the graph; give a paper's label, IRI or title prefix")
    out = {p: Profile(p, g.nodes[p]["label"], str(g.nodes[p].get("year") or "")) for p in papers}
    values = _values(papers)
    by_prop = {v: k for k, v in LINK_ROWS.items()}
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for paper, prop, label in graph.query(_LINKS % values):
        found[str(paper)][by_prop[str(prop).rsplit("#", 1)[-1]]].add(str(label))
    results: dict[str, dict[str, tuple]] = defaultdict(dict)
    for paper, result, value, numeric, metric, dataset, method in graph.query(_RESULTS % values):
        key = (str(dataset or ""), str(metric or ""), str(value), str(method or ""))
        results[str(paper)].setdefault(str(result), key)  # one row per result (first label if several)
    proposed = {p: {e for e in g[p] if "proposes" in (g.edges[p, e].get("properties") or [])} for p in papers}
    for paper, subject, subject_label, object_label in graph.query(_COMPARISONS % values):
        p = str(paper)
        text = str(object_label) if str(subject) in proposed[p] else f"{subject_label} vs {object_label}"
        found[p]["compares with"].add(text)
    for p, profile in out.items():
        for row in ROWS:
            if row != "results":
                profile.rows[row] = sorted(found[p][row], key=lambda s: (s.casefold(), s))
        profile.rows["results"] = [result_text(v, m or None, d or None, meth or None)
                                   for d, m, v, meth in sorted(results[p].values())]
    return [out[p] for p in papers]
