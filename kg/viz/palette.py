"""Colours of the map views: one per community (qualitative) and a sequential scale for years."""
from __future__ import annotations

from typing import Iterable

#: distinct colours for the largest communities (community 1 gets the first); the rest are grey
COMMUNITY_COLOURS: tuple[str, ...] = (
    "#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#17becf", "#edc948", "#9c755f",
    "#ff9da7", "#2f4b7c", "#8cd17d", "#d37295", "#86bcb6", "#bcbd22", "#a0cbe8", "#ffbe7d",
    "#6a3d9a", "#b6992d", "#499894", "#d4a6c8",
)
OTHER_COMMUNITY = "#b8b8b8"

#: viridis, sampled at nine points (dark blue-violet for the oldest year, yellow for the newest)
_VIRIDIS: tuple[tuple[int, int, int], ...] = (
    (68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141),
    (39, 173, 129), (92, 200, 99), (170, 220, 50), (253, 231, 37),
)
NO_YEAR = "#c8c8c8"


def community_colour(cid: int | None) -> str:
    """Return the colour of community ``cid`` (ids from 1, largest first; ``None``: not in one)."""
    if cid is None or cid < 1 or cid > len(COMMUNITY_COLOURS):
        return OTHER_COMMUNITY
    return COMMUNITY_COLOURS[cid - 1]


def sequential(t: float) -> str:
    """Return the colour at ``t`` in [0, 1] of the sequential scale (viridis, linearly interpolated)."""
    t = min(1.0, max(0.0, t)) * (len(_VIRIDIS) - 1)
    i = min(int(t), len(_VIRIDIS) - 2)
    f = t - i
    rgb = [round(a + (b - a) * f) for a, b in zip(_VIRIDIS[i], _VIRIDIS[i + 1])]
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def year_scale(years: Iterable[int]) -> tuple[int, int]:
    """Return the first and last of ``years`` (``(0, 0)`` when there are none)."""
    ys = sorted(set(years))
    return (ys[0], ys[-1]) if ys else (0, 0)


def year_colour(year: int | None, first: int, last: int) -> str:
    """Return the colour of ``year`` on the scale from ``first`` to ``last`` (grey when unknown)."""
    if year is None:
        return NO_YEAR
    return sequential(0.5 if last == first else (year - first) / (last - first))


def year_legend(first: int, last: int, steps: int = 5) -> list[dict[str, object]]:
    """Return ticks ``{year, color}`` of the year legend, at most ``steps`` evenly spaced years."""
    if not first and not last:
        return []
    if last - first < steps:
        years = list(range(first, last + 1))
    else:
        years = sorted({round(first + (last - first) * i / (steps - 1)) for i in range(steps)})
    return [{"year": y, "color": year_colour(y, first, last)} for y in years]
