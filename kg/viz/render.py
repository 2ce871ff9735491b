"""Render a view (a NetworkX graph with typed-graph attributes) as one self-contained HTML page.

The page embeds vis-network (the JavaScript library pyvis drives, taken from pyvis' own package
files), its CSS, our script and the data: nothing is fetched from the network. Positions are
precomputed with NetworkX and physics is off, so large views draw at once. All user text goes in a
JSON block and is displayed with ``textContent``; HTML in an abstract shows as text.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import networkx as nx

from kg.analysis.stats import Community, sorted_copy
from kg.viz.style import TYPE_STYLE, edge_tooltip, node_tooltip, short_label, style

HERE = Path(__file__).parent
VIS_VERSION = "9.1.2"
SYMBOLS = {"dot": "●", "diamond": "◆", "square": "■", "triangle": "▲", "star": "★", "triangleDown": "▼"}
EDGE_COLOR = "rgba(110,110,110,0.35)"
#: above this many nodes the layout switches to NetworkX's sparse spring layout
BIG_LAYOUT = 4000


def _vis_dir() -> Path:
    import pyvis

    base = Path(pyvis.__file__).parent
    for candidate in (base / "templates" / "lib" / f"vis-{VIS_VERSION}", base / "lib" / f"vis-{VIS_VERSION}"):
        if (candidate / "vis-network.min.js").is_file():
            return candidate
    from kg.errors import KGError

    raise KGError(f"vis-network {VIS_VERSION} not found in the pyvis package at {base}; reinstall pyvis==0.3.2")


@lru_cache(maxsize=1)
def _assets() -> dict[str, str]:
    vis = _vis_dir()
    return {
        "vis_js": (vis / "vis-network.min.js").read_text(encoding="utf-8"),
        "vis_css": (vis / "vis-network.css").read_text(encoding="utf-8"),
        "page_js": (HERE / "page.js").read_text(encoding="utf-8"),
        "page_css": (HERE / "page.css").read_text(encoding="utf-8"),
        "template": (HERE / "page.html").read_text(encoding="utf-8"),
    }


def script_json(obj: Any) -> str:
    """Serialise ``obj`` for a ``<script type="application/json">`` block (no ``<``, ``>``, ``&``)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def _force_layout(h: nx.Graph, seed: int, iterations: int = 60) -> dict[str, tuple[float, float]]:
    """Fruchterman–Reingold in vectorised numpy (O(n²) memory), with a weak pull to the centre so
    that small components stay near the main one. Deterministic for a given ``seed``."""
    import numpy as np

    nodes = list(h)
    n = len(nodes)
    index = {node: i for i, node in enumerate(nodes)}
    adjacency = np.zeros((n, n), dtype=np.float32)
    for u, v in h.edges():
        adjacency[index[u], index[v]] = adjacency[index[v], index[u]] = 1.0
    pos = np.random.default_rng(seed).random((n, 2), dtype=np.float32)
    k = np.float32(1.0 / math.sqrt(n))
    temperature = 0.1
    cooling = temperature / (iterations + 1)
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        distance = np.sqrt((delta ** 2).sum(axis=-1))
        np.clip(distance, 0.01, None, out=distance)
        force = k * k / distance ** 2 - adjacency * distance / k
        displacement = np.einsum("ijk,ij->ik", delta, force)
        displacement -= (pos - pos.mean(axis=0)) * (2.0 * k)
        length = np.sqrt((displacement ** 2).sum(axis=-1))
        length = np.where(length < 0.01, 0.1, length)
        pos += displacement * (temperature / length)[:, None]
        temperature -= cooling
    pos -= np.median(pos, axis=0)
    # nodes cut off from the rest (e.g. by --top) drift far away: scale by the bulk, clip the outliers
    spread = max(float(np.percentile(np.abs(pos), 98)), 1e-9)
    pos = np.clip(pos / spread, -1.15, 1.15)
    return {node: (float(pos[i, 0]), float(pos[i, 1])) for i, node in enumerate(nodes)}


def layout(h: nx.Graph, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Return deterministic canvas positions (pixels): a force-directed layout computed in Python.

    Up to ``BIG_LAYOUT`` nodes a vectorised Fruchterman–Reingold; above, NetworkX's sparse
    (energy-based) spring layout, which scales to tens of thousands of nodes.
    """
    n = h.number_of_nodes()
    if n == 0:
        return {}
    if n == 1:
        return {next(iter(h)): (0.0, 0.0)}
    ordered = sorted_copy(h)
    if n <= BIG_LAYOUT:
        pos = _force_layout(ordered, seed)
    else:
        pos = nx.spring_layout(ordered, seed=seed, iterations=30)
    scale = 200.0 * n ** 0.35 + 200.0
    return {node: (round(x * scale, 1), round(y * scale, 1)) for node, (x, y) in pos.items()}


def payload(h: nx.Graph, score: dict[str, float] | None = None, focus: str | None = None,
            seed: int = 0) -> dict[str, Any]:
    """Return the JSON data of a page: nodes with style, positions and tooltips, edges, options."""
    if score is None:
        score = nx.pagerank(sorted_copy(h)) if h.number_of_edges() else {n: 1.0 for n in h}
    pos = layout(h, seed=seed)
    top = max((score.get(n, 0.0) for n in h), default=1.0) or 1.0
    nodes = []
    for node in sorted(h):
        data = h.nodes[node]
        colour, shape = style(data.get("type", "Other"))
        x, y = pos[node]
        item = {
            "id": node,
            "label": short_label(data),
            "fullLabel": data.get("label") or node,
            "title": node_tooltip(data),
            "type": data.get("type", "Other"),
            "color": colour,
            "shape": shape,
            "value": round(score.get(node, 0.0) / top, 5),
            "x": x,
            "y": y,
        }
        if data.get("community") is not None:
            item["community"] = data["community"]
        if node == focus:
            item["borderWidth"] = 4
            item["borderWidthSelected"] = 5
        nodes.append(item)
    edges = []
    for u, v, data in sorted(h.edges(data=True), key=lambda e: (min(e[0], e[1]), max(e[0], e[1]))):
        edges.append({"from": u, "to": v, "title": edge_tooltip(data), "color": {"color": EDGE_COLOR}})
    big = h.number_of_nodes() > 800
    options = {
        "physics": {"enabled": False},
        "layout": {"improvedLayout": False},
        "interaction": {"hover": not big, "tooltipDelay": 150, "hideEdgesOnDrag": big,
                        "hideEdgesOnZoom": big, "navigationButtons": False},
        "edges": {"smooth": False, "width": 1, "selectionWidth": 2},
        "nodes": {
            "font": {"size": 14, "strokeWidth": 3, "strokeColor": "#ffffff", "color": "#222222"},
            "scaling": {"min": 10, "max": 45, "label": {"enabled": True, "min": 11, "max": 20, "drawThreshold": 5,
                                                      "maxVisible": 30}},
        },
    }
    return {"nodes": nodes, "edges": edges, "options": options, "focus": focus, "edgeColor": EDGE_COLOR}


def render_html(h: nx.Graph, title: str, subtitle: str = "", score: dict[str, float] | None = None,
                focus: str | None = None, communities: list[Community] | None = None, seed: int = 0) -> str:
    """Return the self-contained HTML page of view ``h``."""
    from kg import __version__

    assets = _assets()
    data = payload(h, score=score, focus=focus, seed=seed)
    present = {n["type"] for n in data["nodes"]}
    count = {t: sum(1 for n in data["nodes"] if n["type"] == t) for t in present}
    legend = [{"type": t, "color": c, "symbol": SYMBOLS.get(s, "●"), "count": count[t]}
              for t, (c, s) in TYPE_STYLE.items() if t in present]
    shown = {n["community"] for n in data["nodes"] if "community" in n}
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    template = env.from_string(assets["template"])
    return template.render(
        title=title, subtitle=subtitle, version=__version__, vis_version=VIS_VERSION,
        n_nodes=h.number_of_nodes(), n_edges=h.number_of_edges(), legend=legend,
        communities=[c for c in communities or [] if c.id in shown],
        vis_js=assets["vis_js"], vis_css=assets["vis_css"], page_js=assets["page_js"],
        page_css=assets["page_css"], data_json=script_json(data),
    )


def write_html(html: str, path: str | Path) -> Path:
    """Write a page atomically and return its path."""
    from kg.store.io import atomic_write

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, html.encode("utf-8"))
    return path


def to_pyvis(h: nx.Graph, score: dict[str, float] | None = None, seed: int = 0) -> Any:
    """Return a :class:`pyvis.network.Network` of view ``h`` with the same style, for notebooks.

    Its own ``show``/``write_html`` use pyvis' template (which links a CDN); prefer
    :func:`render_html` for files that must open offline.
    """
    from pyvis.network import Network

    data = payload(h, score=score, seed=seed)
    net = Network(height="600px", width="100%", cdn_resources="in_line", notebook=False)
    for n in data["nodes"]:
        net.add_node(n["id"], label=n["label"], title=n["title"], color=n["color"], shape=n["shape"],
                     value=n["value"], x=n["x"], y=n["y"], physics=False)
    for e in data["edges"]:
        net.add_edge(e["from"], e["to"], title=e["title"])
    net.toggle_physics(False)
    return net
