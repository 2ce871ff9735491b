"""Trends of entities over publication years: shares, slopes and Kleinberg bursts.

Pure functions over counts (no graph, no I/O): :mod:`kg.analysis.yearcounts` gathers the counts
from a graph. For an entity ``e`` and a year ``y``, the *share* is the number of papers of year ``y``
linking ``e`` divided by the number of papers of year ``y``. An entity *rises* when the
least-squares slope of its share over the last ``N`` years is positive, and *falls* when it is
negative; :func:`kleinberg_bursts` finds the years where its share is unusually high.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from kg.errors import ArgumentError, GraphError

#: defaults of kg trends
DEFAULT_LAST = 5
DEFAULT_MIN_PAPERS = 10
#: Kleinberg's parameters as CiteSpace uses them: the burst state emits s times the base rate,
#: and entering it costs gamma * ln(n) for n batches
DEFAULT_S = 2.0
DEFAULT_GAMMA = 1.0
#: the burst state's rate is capped below 1 (an entity in more than half the papers cannot double)
_MAX_RATE = 0.9999


@dataclass(frozen=True)
class Burst:
    """A maximal run of batches ``start..end`` (inclusive indices, or years once mapped) in the burst state.

    ``weight`` is the cost the burst state saves over the base state across the run (Kleinberg's
    burst weight): the larger, the stronger the evidence.
    """

    start: int
    end: int
    weight: float

    def text(self, dash: str = "-") -> str:
        """The burst's years and weight as tables show them: "2021-2023 (4.2)", "2022 (1.5)"."""
        years = str(self.start) if self.start == self.end else f"{self.start}{dash}{self.end}"
        return f"{years} ({self.weight:.1f})"


def _emission_cost(r: int, d: int, p: float) -> float:
    """``-ln( C(d, r) p^r (1-p)^(d-r) )``: the cost of seeing ``r`` relevant items among ``d`` at rate ``p``."""
    if d == 0:
        return 0.0
    log_choose = math.lgamma(d + 1) - math.lgamma(r + 1) - math.lgamma(d - r + 1)
    log_p = math.log(p) if r else 0.0
    log_q = math.log1p(-p) if d - r else 0.0
    return -(log_choose + r * log_p + (d - r) * log_q)


def burst_states(counts: Sequence[int], totals: Sequence[int], s: float = DEFAULT_S,
                 gamma: float = DEFAULT_GAMMA) -> list[int]:
    """Return the optimal state (0 = base, 1 = burst) of each batch in Kleinberg's two-state model.

    See :func:`kleinberg_bursts` for the model; this is its Viterbi step.
    """
    _check_batches(counts, totals)
    n = len(counts)
    relevant, documents = sum(counts), sum(totals)
    if n == 0 or relevant == 0:
        return [0] * n
    p = [relevant / documents, min(s * relevant / documents, _MAX_RATE)]
    if p[1] <= p[0]:  # the base rate is already at the cap: no higher state exists
        return [0] * n
    enter = gamma * math.log(n)
    # cost[i]: cheapest cost of the batches so far ending in state i; the chain starts in state 0
    cost = [0.0, math.inf]
    back: list[list[int]] = []
    for r, d in zip(counts, totals):
        emit = [_emission_cost(r, d, p[0]), _emission_cost(r, d, p[1])]
        from0 = [cost[0], cost[0] + enter]  # 0 -> 0 is free, 0 -> 1 costs gamma ln n
        from1 = [cost[1], cost[1]]  # leaving the burst state is free
        step = []
        new = []
        for j in (0, 1):
            prev = 0 if from0[j] <= from1[j] else 1
            step.append(prev)
            new.append(min(from0[j], from1[j]) + emit[j])
        back.append(step)
        cost = new
    state = 0 if cost[0] <= cost[1] else 1
    states = [state]
    for step in reversed(back[1:]):
        state = step[state]
        states.append(state)
    return states[::-1]


def kleinberg_bursts(counts: Sequence[int], totals: Sequence[int], s: float = DEFAULT_S,
                     gamma: float = DEFAULT_GAMMA) -> list[Burst]:
    """Return the bursts of a batched count series with Kleinberg's two-state burst model.

    Kleinberg, J. (2003). Bursty and hierarchical structure in streams. *Data Mining and Knowledge
    Discovery* 7(4), 373-397, section 4 ("enumerating bursts"), the model CiteSpace uses for
    burst detection. Batch ``t`` (a year) has ``totals[t]`` documents, ``counts[t]`` of which are
    relevant (link the entity). The base state emits relevant documents at the overall rate
    ``p0 = sum(counts) / sum(totals)``, the burst state at ``p1 = s * p0`` (capped below 1); a batch
    in state ``i`` costs ``-ln(C(d, r) p_i^r (1 - p_i)^(d - r))`` (binomial emission), entering the
    burst state costs ``gamma * ln(n)`` for ``n`` batches and leaving it is free. The cheapest state
    sequence is found by dynamic programming (Viterbi); each maximal run in state 1 is a burst, whose
    weight is the emission cost saved there: ``sum_t cost(0, t) - cost(1, t)``.

    Returns bursts as :class:`Burst` of batch indices, in order; an empty list when there is none.
    """
    states = burst_states(counts, totals, s, gamma)
    relevant, documents = sum(counts), sum(totals)
    bursts: list[Burst] = []
    start: int | None = None
    for t, state in enumerate(states + [0]):
        if state == 1 and start is None:
            start = t
        elif state == 0 and start is not None:
            p0 = relevant / documents
            p1 = min(s * p0, _MAX_RATE)
            weight = sum(_emission_cost(counts[u], totals[u], p0) - _emission_cost(counts[u], totals[u], p1)
                         for u in range(start, t))
            bursts.append(Burst(start, t - 1, weight))
            start = None
    return bursts


def _check_batches(counts: Sequence[int], totals: Sequence[int]) -> None:
    if len(counts) != len(totals):
        raise ArgumentError(f"{len(counts)} counts for {len(totals)} batch totals; give one count per batch")
    for r, d in zip(counts, totals):
        if r < 0 or d < 0 or r > d:
            raise ArgumentError(f"a batch has {r} relevant documents of {d}; counts must lie between 0 and the total")


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Return the least-squares slope of ``ys`` against ``xs`` (0.0 when the ``xs`` do not vary)."""
    if len(xs) != len(ys):
        raise ArgumentError(f"{len(xs)} x values for {len(ys)} y values")
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


@dataclass
class EntityTrend:
    """One entity's papers and share per year, its slope over the window and its strongest burst."""

    entity: str
    label: str
    type: str
    papers: int
    counts: dict[int, int]
    shares: dict[int, float]
    slope: float
    burst: Burst | None = None
    bursts: list[Burst] = field(default_factory=list)


@dataclass
class Trends:
    """The trends of every entity with enough papers, over ``years`` (slopes over ``window``)."""

    years: list[int]
    totals: dict[int, int]
    window: list[int]
    min_papers: int
    entities: list[EntityTrend]

    def rising(self, top: int) -> list[EntityTrend]:
        """The ``top`` entities whose share grows fastest over the window (positive slopes only)."""
        up = [e for e in self.entities if e.slope > 0]
        return sorted(up, key=lambda e: (-e.slope, -e.papers, e.label.casefold(), e.entity))[:top]

    def falling(self, top: int) -> list[EntityTrend]:
        """The ``top`` entities whose share shrinks fastest over the window (negative slopes only)."""
        down = [e for e in self.entities if e.slope < 0]
        return sorted(down, key=lambda e: (e.slope, -e.papers, e.label.casefold(), e.entity))[:top]

    def bursting(self, top: int) -> list[EntityTrend]:
        """The ``top`` entities with the strongest burst (any years), strongest first."""
        with_burst = [e for e in self.entities if e.burst is not None]
        return sorted(with_burst, key=lambda e: (-e.burst.weight, e.label.casefold(), e.entity))[:top]  # type: ignore[union-attr]


@dataclass(frozen=True)
class EntityCounts:
    """Papers per year linking one entity (as gathered by :mod:`kg.analysis.yearcounts`)."""

    entity: str
    label: str
    type: str
    counts: Mapping[int, int]


def compute_trends(entities: Sequence[EntityCounts], totals: Mapping[int, int], last: int = DEFAULT_LAST,
                   min_papers: int = DEFAULT_MIN_PAPERS, s: float = DEFAULT_S,
                   gamma: float = DEFAULT_GAMMA) -> Trends:
    """Return the shares, slopes (over the ``last`` years with papers) and bursts of ``entities``.

    ``totals`` maps each year to its number of papers. Entities linked to fewer than ``min_papers``
    papers overall are left out, so that one paper in a small year cannot rank. Raises
    :class:`~kg.errors.GraphError` when fewer than two years have papers and
    :class:`~kg.errors.ArgumentError` for a window shorter than two years.
    """
    if last < 2:
        raise ArgumentError(f"--last {last}: a slope needs at least two years; give --last 2 or more")
    if min_papers < 1:
        raise ArgumentError(f"--min-papers {min_papers}: give 1 or more")
    years = sorted(y for y, n in totals.items() if n > 0)
    if len(years) < 2:
        raise GraphError(
            f"the graph has papers in {len(years)} year(s) ({', '.join(map(str, years)) or 'none'}); trends need "
            "papers in at least two years (kg:year on each kg:Paper)"
        )
    window = years[-last:]
    result = []
    for ec in entities:
        counts = {y: int(ec.counts.get(y, 0)) for y in years}
        papers = sum(counts.values())
        if papers < min_papers:
            continue
        for y, c in counts.items():
            if c > totals[y]:
                raise GraphError(f"{ec.label!r} has {c} papers in {y}, more than the {totals[y]} papers of that year")
        shares = {y: counts[y] / totals[y] for y in years}
        bursts = [Burst(years[b.start], years[b.end], round(b.weight, 6))
                  for b in kleinberg_bursts([counts[y] for y in years], [totals[y] for y in years], s, gamma)]
        strongest = max(bursts, key=lambda b: (b.weight, b.end), default=None)
        result.append(EntityTrend(
            entity=ec.entity, label=ec.label, type=ec.type, papers=papers, counts=counts, shares=shares,
            slope=slope(window, [shares[y] for y in window]), burst=strongest, bursts=bursts,
        ))
    result.sort(key=lambda e: (e.type, e.label.casefold(), e.entity))
    return Trends(years=years, totals={y: totals[y] for y in years}, window=window, min_papers=min_papers,
                  entities=result)
