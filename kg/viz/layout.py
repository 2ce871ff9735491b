"""Node positions of the views, computed in Python (deterministic for a seed; physics stays off).

:func:`layout` is the force-directed layout of every view; :func:`fill` stretches positions over
the rectangle a map is drawn for (:data:`MAP_WIDTH` × :data:`MAP_HEIGHT` screen pixels at zoom 1),
so that the labels placed in those pixels keep their sizes when the page fits the map to the window.
"""
from __future__ import annotations

import math
from typing import Mapping

import networkx as nx

from kg.analysis.stats import sorted_copy

#: above this many nodes the layout switches to NetworkX's sparse spring layout
BIG_LAYOUT = 4000
#: the drawing area (pixels) the map layouts are made for: a 1280 × 800 window less the page's
#: header, legend and margins. A larger window zooms in (labels keep their pixel size, so they
#: have more room); a window down to about 85% of this still shows the top labels apart.
MAP_WIDTH = 1160.0
MAP_HEIGHT = 600.0
#: how far :func:`fill` may stretch one axis more than the other
MAX_STRETCH = 1.7
#: :func:`grouped_layout` gives its own region to this many groups at most
MAX_GROUPS = 120


def force_layout(h: nx.Graph, seed: int = 0, iterations: int = 60,
                 weight: Mapping[tuple[str, str], float] | None = None) -> dict[str, tuple[float, float]]:
    """Fruchterman–Reingold in vectorised numpy (O(n²) memory), with a weak pull to the centre so
    that small components stay near the main one. ``weight`` (edge -> factor, default 1) scales an
    edge's attraction. Positions are centred, scaled by the bulk of the nodes (outliers clipped)
    to about [-1, 1]. Deterministic for a given ``seed`` and node order.
    """
    import numpy as np

    nodes = list(h)
    n = len(nodes)
    index = {node: i for i, node in enumerate(nodes)}
    adjacency = np.zeros((n, n), dtype=np.float32)
    for u, v in h.edges():
        w = 1.0 if weight is None else weight.get((u, v), weight.get((v, u), 1.0))
        adjacency[index[u], index[v]] = adjacency[index[v], index[u]] = w
    rng = np.random.default_rng(seed)
    x = rng.random(n, dtype=np.float32)
    y = rng.random(n, dtype=np.float32)
    k = np.float32(1.0 / math.sqrt(n))
    k2 = k * k
    temperature = 0.1
    cooling = temperature / (iterations + 1)
    for _ in range(iterations):
        dx = x[:, None] - x[None, :]
        dy = y[:, None] - y[None, :]
        distance = np.sqrt(dx * dx + dy * dy)
        np.clip(distance, 0.01, None, out=distance)
        force = k2 / (distance * distance)
        force -= adjacency * distance / k
        mx = (dx * force).sum(axis=1) - (x - x.mean()) * (2.0 * k)
        my = (dy * force).sum(axis=1) - (y - y.mean()) * (2.0 * k)
        length = np.sqrt(mx * mx + my * my)
        length = np.where(length < 0.01, 0.1, length)
        x += mx * (temperature / length)
        y += my * (temperature / length)
        temperature -= cooling
    pos = np.stack([x, y], axis=1)
    pos -= np.median(pos, axis=0)
    # nodes cut off from the rest (e.g. by --top) drift far away: scale by the bulk, clip the outliers
    spread = max(float(np.percentile(np.abs(pos), 98)), 1e-9)
    pos = np.clip(pos / spread, -1.15, 1.15)
    return {node: (float(pos[i, 0]), float(pos[i, 1])) for i, node in enumerate(nodes)}


def unit_layout(h: nx.Graph, seed: int = 0,
                weight: Mapping[tuple[str, str], float] | None = None) -> dict[str, tuple[float, float]]:
    """Return positions of about [-1, 1]: :func:`force_layout` up to ``BIG_LAYOUT`` nodes, NetworkX's
    sparse spring layout above (it scales to tens of thousands of nodes)."""
    n = h.number_of_nodes()
    if n == 0:
        return {}
    if n == 1:
        return {next(iter(h)): (0.0, 0.0)}
    ordered = sorted_copy(h)
    if n <= BIG_LAYOUT:
        return force_layout(ordered, seed, weight=weight)
    pos = nx.spring_layout(ordered, seed=seed, iterations=30)
    return {node: (float(x), float(y)) for node, (x, y) in pos.items()}


def pack_discs(centres: Mapping[str, tuple[float, float]], radii: Mapping[str, float], aspect: float = 1.0,
               gap: float = 0.0, iterations: int = 250) -> dict[str, tuple[float, float]]:
    """Return disc centres moved so that the discs (``radii``, kept ``gap`` apart) barely overlap.

    Discs start at ``centres`` and are pulled towards the middle (``aspect`` > 1 pulls harder
    vertically, so the packing comes out wider than high) while every overlapping pair is pushed
    apart, the smaller disc moving more. Vectorised (O(n²) per round); deterministic. The pull
    fades so that the last rounds only separate.
    """
    import numpy as np

    keys = sorted(centres)
    if len(keys) < 2:
        return {k: (0.0, 0.0) for k in keys}
    pos = np.array([centres[k] for k in keys], dtype=np.float64)
    r = np.array([radii[k] for k in keys], dtype=np.float64)
    need = r[:, None] + r[None, :] + gap
    np.fill_diagonal(need, 0.0)
    share = r[None, :] ** 2 / (r[:, None] ** 2 + r[None, :] ** 2)  # how much of a push i takes from j
    angle = np.arange(len(keys))[:, None] - np.arange(len(keys))[None, :]
    tie = np.stack([np.cos(angle), np.sin(angle)], axis=-1)  # direction for discs at the same point
    squash = np.array([1.0, aspect])
    for step in range(iterations):
        pull = 0.05 * max(0.0, 1.0 - step / (0.7 * iterations))
        pos -= pull * pos * squash
        delta = pos[None, :, :] - pos[:, None, :]  # delta[i, j] = pos[j] - pos[i]
        dist = np.sqrt((delta ** 2).sum(axis=-1))
        over = np.maximum(need - dist, 0.0)
        if not over.any():
            if pull == 0.0:
                break
            continue
        close = dist < 1e-9
        unit = np.where(close[..., None], tie, delta / np.where(close, 1.0, dist)[..., None])
        pos -= 0.5 * (unit * (over * share)[..., None]).sum(axis=1)
    for _ in range(iterations):  # separate what is left, without the pull
        delta = pos[None, :, :] - pos[:, None, :]
        dist = np.sqrt((delta ** 2).sum(axis=-1))
        over = np.maximum(need - dist, 0.0)
        if over.max() <= 1e-3 * r.min():
            break
        close = dist < 1e-9
        unit = np.where(close[..., None], tie, delta / np.where(close, 1.0, dist)[..., None])
        pos -= 0.6 * (unit * (over * share)[..., None]).sum(axis=1)
    return {k: (float(pos[i, 0]), float(pos[i, 1])) for i, k in enumerate(keys)}


def grouped_layout(h: nx.Graph, group: Mapping[str, int], seed: int = 0,
                   aspect: float = MAP_WIDTH / MAP_HEIGHT) -> dict[str, tuple[float, float]]:
    """Return positions where each group (community) of ``h`` occupies its own disc, of area
    proportional to its size, the discs placed by a force layout of the groups (weighted by the
    links between them) and packed without overlap into a shape ``aspect`` times wider than high.

    The ``MAX_GROUPS`` largest groups of at least 3 nodes get a disc each; the other nodes (in
    small groups or none) share one. Deterministic for a given ``seed``.
    """
    by_group: dict[int, list[str]] = {}
    for node in sorted(h):
        if group.get(node) is not None:
            by_group.setdefault(group[node], []).append(node)
    big = sorted((g for g, nodes in by_group.items() if len(nodes) >= 3), key=lambda g: (-len(by_group[g]), g))
    members: dict[str, list[str]] = {f"g{g}": by_group[g] for g in big[:MAX_GROUPS]}
    rest = sorted(set(h) - {n for nodes in members.values() for n in nodes})
    if rest:
        members["rest"] = rest
    of = {node: key for key, nodes in members.items() for node in nodes}
    between = nx.Graph()
    between.add_nodes_from(members)
    for u, v in h.edges():
        a, b = of[u], of[v]
        if a != b:
            w = between.edges[a, b]["weight"] + 1 if between.has_edge(a, b) else 1
            between.add_edge(a, b, weight=w)
    radii = {key: math.sqrt(len(nodes)) for key, nodes in members.items()}
    top = max((w for _, _, w in between.edges(data="weight")), default=1)
    weight = {(a, b): 0.2 + 0.8 * w / top for a, b, w in between.edges(data="weight")}
    centres = unit_layout(between, seed, weight=weight)
    spread = math.sqrt(sum(r * r for r in radii.values()))
    packed = pack_discs({k: (x * spread * aspect ** 0.5, y * spread / aspect ** 0.5) for k, (x, y) in centres.items()},
                        radii, aspect=aspect, gap=0.6)
    pos: dict[str, tuple[float, float]] = {}
    for key, nodes in members.items():
        cx, cy = packed[key]
        inner = unit_layout(h.subgraph(nodes), seed) if len(nodes) > 1 else {nodes[0]: (0.0, 0.0)}
        r = radii[key] / 1.1
        for node, (x, y) in inner.items():
            pos[node] = (cx + x * r, cy + y * r)
    return pos


def layout(h: nx.Graph, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Return deterministic canvas positions (pixels) of a view, spread with its size."""
    scale = 200.0 * h.number_of_nodes() ** 0.35 + 200.0
    return {node: (round(x * scale, 1), round(y * scale, 1)) for node, (x, y) in unit_layout(h, seed).items()}


def fill(pos: Mapping[str, tuple[float, float]], width: float = MAP_WIDTH, height: float = MAP_HEIGHT,
         max_stretch: float = MAX_STRETCH) -> dict[str, tuple[float, float]]:
    """Return ``pos`` centred and scaled to fill ``width`` × ``height`` (centred on 0, 0).

    Each axis is scaled on its own, but neither more than ``max_stretch`` times the other, so a
    round layout becomes a wide map without turning into a band.
    """
    if not pos:
        return {}
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    sx = width / (max(xs) - min(xs)) if max(xs) > min(xs) else 1.0
    sy = height / (max(ys) - min(ys)) if max(ys) > min(ys) else 1.0
    if max(xs) == min(xs):
        sx = sy
    if max(ys) == min(ys):
        sy = sx
    sx, sy = min(sx, sy * max_stretch), min(sy, sx * max_stretch)
    return {node: ((x - cx) * sx, (y - cy) * sy) for node, (x, y) in pos.items()}
