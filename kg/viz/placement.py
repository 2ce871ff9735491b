"""The map of a view: positions filling the map rectangle, node and label sizes by rank, and the
most central labels (with the community names) moved apart so that none overlaps another.

The page shows the labels of the ``TOP_LABELS`` most central nodes at the first view and more as
the reader zooms in (``page.js`` hides any lower-ranked label that would cover a shown one);
:func:`map_layout` makes sure the top ones fit together.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import networkx as nx

from kg.viz.labels import Box, Label, free_label, node_label, overlapping_pairs, resolve_overlaps
from kg.viz.layout import MAP_HEIGHT, MAP_WIDTH, fill, grouped_layout, unit_layout

#: labels always shown at the first view, in screen pixels from TOP_PX[0] (rank 0) to TOP_PX[1]
TOP_LABELS = 30
TOP_PX = (18.0, 13.0)
#: the other labels, shown where they fit as the reader zooms in
SMALL_PX = 11.0
#: community names drawn over the map
COMMUNITY_PX = 14.0
MAX_COMMUNITY_LABELS = 12
#: keys of the community names among the labels placed (node ids are IRIs or "c1"-like)
NAME_KEY = "#community "
#: labels on the map are cut to this many characters (the tooltip has the full one)
MAP_LABEL_CHARS = 28
#: community names on the map keep their first entities up to this many characters
NAME_CHARS = 30
#: node radius (canvas units at zoom 1) from the least to the most central node
RADIUS = (3.5, 16.0)
#: place labels as if the window were this fraction of the map rectangle (a margin for small windows)
PLACEMENT_SCALE = 0.85
#: gap the page keeps between two shown labels (pixels); placement keeps PLACE_PAD, more, as a margin
LABEL_PAD = 3.0
PLACE_PAD = 6.0


@dataclass
class MapLayout:
    """Positions and label settings of a view's nodes, and the community names to draw."""

    pos: dict[str, tuple[float, float]]
    radius: dict[str, float]
    rank: dict[str, int]
    px: dict[str, float]
    text: dict[str, str]
    communities: list[dict[str, object]] = field(default_factory=list)


def map_text(label: str, limit: int = MAP_LABEL_CHARS) -> str:
    """Return ``label`` cut to ``limit`` characters (on a word boundary when one is near)."""
    label = " ".join(label.split())
    if len(label) <= limit:
        return label
    cut = label[: limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:-") + "…"


def community_name(label: str, limit: int = NAME_CHARS) -> str:
    """Return the map name of a community labelled ``"EEG / BIOT / LaBraM"``: its first entities
    while they fit in ``limit`` characters (the first one, cut, when even it does not)."""
    parts = [p.strip() for p in label.split(" / ") if p.strip()]
    if not parts:
        return ""
    name = map_text(parts[0], limit)
    for part in parts[1:]:
        if len(name) + 3 + len(part) > limit:
            break
        name += " / " + part
    return name


def label_px(rank: int) -> float:
    """Return the on-screen font size (pixels) of the label of the node ranked ``rank`` (0 = most central)."""
    if rank >= TOP_LABELS:
        return SMALL_PX
    hi, lo = TOP_PX
    return round(hi - (hi - lo) * rank / max(1, TOP_LABELS - 1), 2)


def node_radius(score: float, top: float, radius: tuple[float, float] = RADIUS) -> float:
    """Return a node's radius from its score (square root scale: area grows with the score)."""
    lo, hi = radius
    share = (score / top) ** 0.5 if top > 0 else 0.0
    return round(lo + (hi - lo) * min(1.0, max(0.0, share)), 2)


def ranked(h: nx.Graph, score: Mapping[str, float]) -> list[str]:
    """Return the nodes of ``h``, most central first (ties by id)."""
    return sorted(h, key=lambda n: (-score.get(n, 0.0), n))


def community_anchors(pos: Mapping[str, tuple[float, float]], community: Mapping[str, int],
                      limit: int = MAX_COMMUNITY_LABELS) -> list[tuple[int, float, float, int]]:
    """Return ``(id, x, y, size)`` of the communities to name: the ``limit`` largest in the view
    with at least 3 nodes and 1.5% of them, at the centroid of their nodes."""
    members: dict[int, list[str]] = defaultdict(list)
    for node in pos:
        if community.get(node) is not None:
            members[community[node]].append(node)
    least = max(3, round(0.015 * len(pos)))
    chosen = sorted((c for c in members if len(members[c]) >= least), key=lambda c: (-len(members[c]), c))[:limit]
    anchors = []
    for c in chosen:
        xs = [pos[n][0] for n in members[c]]
        ys = [pos[n][1] for n in members[c]]
        anchors.append((c, sum(xs) / len(xs), sum(ys) / len(ys), len(members[c])))
    return anchors


def place_labels(pos: dict[str, tuple[float, float]], order: list[str], radius: Mapping[str, float],
                 text: Mapping[str, str], px: Mapping[str, float],
                 names: Sequence[tuple[str, float, float, str]] = (),
                 width: float = MAP_WIDTH, height: float = MAP_HEIGHT, scale: float = PLACEMENT_SCALE,
                 top: int = TOP_LABELS) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]:
    """Move the ``top`` first nodes of ``order`` (their labels and shapes) and the free ``names``
    ``(key, x, y, text)`` apart until none overlaps another at zoom ``scale``; return the new node
    positions and name anchors.
    """
    labels: list[Label] = [node_label(n, *pos[n], radius[n], text[n], px[n], scale) for n in order[:top]]
    labels += [free_label(key, x, y, t, COMMUNITY_PX, scale, weight=2.0, bold=True) for key, x, y, t in names]
    bounds = Box(-width / 2, -height / 2, width / 2, height / 2 + 40)  # room for the labels under the lowest nodes
    moved = resolve_overlaps(labels, pad=PLACE_PAD / scale, bounds=bounds)
    new_pos = dict(pos)
    anchors = {}
    node_keys = set(order[:top])
    for key, xy in moved.items():
        if key in node_keys:
            new_pos[key] = xy
        else:
            anchors[key] = xy
    return new_pos, anchors


def map_layout(h: nx.Graph, score: Mapping[str, float], community: Mapping[str, int] | None = None,
               community_names: Mapping[int, str] | None = None, seed: int = 0,
               pos: Mapping[str, tuple[float, float]] | None = None,
               radius: tuple[float, float] = RADIUS, apart: int = TOP_LABELS) -> MapLayout:
    """Return the :class:`MapLayout` of view ``h`` (nodes ranked by ``score``).

    With ``community`` (node -> id) each community gets its own region (:func:`grouped_layout`)
    and the largest ones are named at their centre (``community_names``).
    ``pos`` (about [-1, 1]) replaces the force layout when given; ``radius`` is the range of node radii.
    The ``apart`` (at least ``TOP_LABELS``) most central nodes are moved so that their labels and
    shapes do not overlap.
    """
    community = community or {}
    if pos is not None:
        base = dict(pos)
    elif community:
        base = grouped_layout(h, community, seed)
    else:
        base = unit_layout(h, seed)
    filled = fill(base)
    order = ranked(h, score)
    top = max((score.get(n, 0.0) for n in h), default=0.0)
    rank = {n: i for i, n in enumerate(order)}
    radii = {n: node_radius(score.get(n, 0.0), top, radius) for n in h}
    text = {n: h.nodes[n].get("map_label") or map_text(h.nodes[n].get("label") or n) for n in h}
    px = {n: label_px(rank[n]) for n in h}
    names = []
    if community and community_names:
        for cid, x, y, _ in community_anchors(filled, community):
            name = community_name(community_names.get(cid, ""))
            if name:
                names.append((f"{NAME_KEY}{cid}", x, y, name))
    new_pos, anchors = place_labels(filled, order, radii, text, px, names, top=max(apart, TOP_LABELS))
    drawn = [{"id": int(key[len(NAME_KEY):]), "label": label,
              "x": round(anchors[key][0], 1), "y": round(anchors[key][1], 1)} for key, _, _, label in names]
    return MapLayout({n: (round(x, 1), round(y, 1)) for n, (x, y) in new_pos.items()}, radii, rank, px, text, drawn)


def check_layout(m: MapLayout, scale: float = PLACEMENT_SCALE) -> list[tuple[str, str]]:
    """Return the overlapping pairs among the top labels and community names of ``m`` (for tests)."""
    order = sorted(m.rank, key=m.rank.__getitem__)[:TOP_LABELS]
    labels = [node_label(n, *m.pos[n], m.radius[n], m.text[n], m.px[n], scale) for n in order]
    for c in m.communities:
        x, y = float(c["x"]), float(c["y"])  # type: ignore[arg-type]
        labels.append(free_label(f"{NAME_KEY}{c['id']}", x, y, str(c["label"]), COMMUNITY_PX, scale, bold=True))
    return overlapping_pairs(labels)
