"""Render a view (a NetworkX graph with typed-graph attributes) as one self-contained HTML page.

The page embeds vis-network (the JavaScript library pyvis drives, taken from pyvis' own package
files), its CSS, our scripts and the data: nothing is fetched from the network. Positions are
precomputed in Python (:mod:`kg.viz.placement`) and physics is off, so large views draw at once.
All user text goes in JSON blocks and is displayed with ``textContent``; HTML in an abstract shows
as text.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

import jinja2
import networkx as nx

from kg.analysis.stats import Community, sorted_copy
from kg.viz import placement
from kg.viz.layout import BIG_LAYOUT, layout  # noqa: F401  (re-exported: kg.viz.render.layout)
from kg.viz.palette import community_colour
from kg.viz.style import TYPE_STYLE, edge_tooltip, node_tooltip, style

HERE = Path(__file__).parent
VIS_VERSION = "9.1.2"
SYMBOLS = {"dot": "●", "diamond": "◆", "square": "■", "triangle": "▲", "star": "★", "triangleDown": "▼"}
EDGE_COLOR = "rgba(110,110,110,0.35)"
#: links of views of more than DENSE nodes are lighter, so the nodes and labels stay readable
EDGE_COLOR_DENSE = "rgba(110,110,110,0.16)"
DENSE = 800
#: the page's scripts, concatenated in this order into one <script>
SCRIPTS = ("labels.js", "overlay.js", "navigate.js", "page.js")
#: names of the colourings a page may offer (the colour select shows them in this order)
COLOURINGS = {"community": "community", "type": "type", "year": "year"}


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
        "page_js": "\n".join((HERE / name).read_text(encoding="utf-8") for name in SCRIPTS),
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


def label_settings() -> dict[str, Any]:
    """Return the label constants the page's script needs (the same as :mod:`kg.viz.placement`)."""
    return {"top": placement.TOP_LABELS, "topPx": list(placement.TOP_PX), "smallPx": placement.SMALL_PX,
            "communityPx": placement.COMMUNITY_PX, "pad": placement.LABEL_PAD}


def edge_colour_of(n_nodes: int) -> str:
    """Return the colour of the links of a view of ``n_nodes`` nodes."""
    return EDGE_COLOR if n_nodes <= DENSE else EDGE_COLOR_DENSE


def vis_options(n_nodes: int) -> dict[str, Any]:
    """Return the vis-network options of a view of ``n_nodes`` nodes."""
    big = n_nodes > DENSE
    return {
        "physics": {"enabled": False},
        "layout": {"improvedLayout": False},
        "interaction": {"hover": not big, "tooltipDelay": 150, "hideEdgesOnDrag": big,
                        "hideEdgesOnZoom": big, "navigationButtons": False},
        "edges": {"smooth": False, "width": 1, "selectionWidth": 2},
        "nodes": {
            "font": {"size": placement.SMALL_PX, "strokeWidth": 3, "strokeColor": "#ffffff", "color": "#222222"},
            "scaling": {"label": {"enabled": False, "drawThreshold": 5, "maxVisible": 48}},
        },
    }


def payload(h: nx.Graph, score: dict[str, float] | None = None, focus: str | None = None,
            seed: int = 0, community: Mapping[str, int] | None = None,
            community_names: Mapping[int, str] | None = None,
            colourings: Mapping[str, Mapping[str, str]] | None = None, colour_by: str | None = None,
            pos: Mapping[str, tuple[float, float]] | None = None, with_type: bool = True,
            radius: tuple[float, float] = placement.RADIUS, apart: int = placement.TOP_LABELS) -> dict[str, Any]:
    """Return the JSON data of a page: nodes with style, positions and tooltips, edges, options.

    ``community`` (node -> Louvain id) colours nodes by community (the default then) and names the
    largest communities on the map (``community_names``); ``colourings`` adds other colourings
    (name -> node -> colour), ``colour_by`` picks the first one shown; ``with_type=False`` leaves
    out the colouring by type. ``pos`` (about [-1, 1]) replaces the layout; ``radius`` is the range
    of node radii (least to most central); the ``apart`` most central nodes get labels that never
    overlap (see :func:`kg.viz.placement.map_layout`).
    """
    if score is None:
        score = nx.pagerank(sorted_copy(h)) if h.number_of_edges() else {n: 1.0 for n in h}
    community = community or {}
    m = placement.map_layout(h, score, community=community, community_names=community_names, seed=seed, pos=pos,
                             radius=radius, apart=apart)
    names = ["community"] if community or "community" in (colourings or {}) else []
    names += [name for name in (colourings or {}) if name != "community"]
    if with_type or not names:
        names.append("type")
    colour_by = colour_by if colour_by in names else names[0]
    nodes = []
    for node in sorted(h, key=lambda n: m.rank[n]):
        data = h.nodes[node]
        node_type = data.get("type", "Other")
        type_colour, shape = style(node_type)
        colours = {"type": type_colour}
        if community:
            colours["community"] = community_colour(community.get(node))
        for name, by_node in (colourings or {}).items():
            colours[name] = by_node.get(node, type_colour)
        x, y = m.pos[node]
        item = {
            "id": node,
            "label": m.text[node],
            "fullLabel": data.get("label") or node,
            "title": data.get("tooltip") or node_tooltip(data),
            "type": node_type,
            "color": colours[colour_by],
            "shape": shape,
            "size": m.radius[node],
            "rank": m.rank[node],
            "labelPx": m.px[node],
            "x": x,
            "y": y,
        }
        if len(names) > 1:
            item["colors"] = colours
        if community.get(node) is not None:
            item["community"] = community[node]
        if node == focus:
            item["borderWidth"] = 4
            item["borderWidthSelected"] = 5
        nodes.append(item)
    edges = []
    edge_colour = edge_colour_of(h.number_of_nodes())
    top_weight = max((w for _, _, w in h.edges(data="weight", default=0.0)), default=0.0) or 1.0
    for u, v, data in sorted(h.edges(data=True), key=lambda e: (min(e[0], e[1]), max(e[0], e[1]))):
        edge = {"from": u, "to": v, "title": data.get("tooltip") or edge_tooltip(data), "color": {"color": edge_colour}}
        if data.get("weight"):
            edge["width"] = round(0.6 + 4.4 * (data["weight"] / top_weight) ** 0.7, 2)
        edges.append(edge)
    for c in m.communities:
        c["color"] = community_colour(int(c["id"]))  # type: ignore[arg-type]
    return {"kind": "nodes", "nodes": nodes, "edges": edges, "options": vis_options(h.number_of_nodes()),
            "focus": focus, "edgeColor": edge_colour, "colorings": names, "colorBy": colour_by,
            "communities": m.communities, "labels": label_settings()}


@dataclass
class Page:
    """What a page shows besides its data: the header, legend and optional JSON blocks."""

    title: str
    data: dict[str, Any]
    subtitle: str = ""
    n_nodes: int = 0
    n_edges: int = 0
    legend: list[dict[str, Any]] = field(default_factory=list)
    communities: list[Any] = field(default_factory=list)
    years: list[dict[str, Any]] = field(default_factory=list)
    blocks: dict[str, Any] = field(default_factory=dict)
    breadcrumb: bool = False


def type_legend(counts: Mapping[str, int]) -> list[dict[str, Any]]:
    """Return the legend entries (type, colour, symbol, count) of the node types in ``counts``."""
    return [{"type": t, "color": c, "symbol": SYMBOLS.get(s, "●"), "count": counts[t]}
            for t, (c, s) in TYPE_STYLE.items() if counts.get(t)]


def render_page(page: Page) -> str:
    """Return the self-contained HTML of ``page``."""
    from kg import __version__

    assets = _assets()
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    template = env.from_string(assets["template"])
    colourings = [COLOURINGS[c] for c in page.data.get("colorings", []) if c in COLOURINGS]
    return template.render(
        title=page.title, subtitle=page.subtitle, version=__version__, vis_version=VIS_VERSION,
        n_nodes=page.n_nodes, n_edges=page.n_edges, legend=page.legend, communities=page.communities,
        colourings=colourings, colour_by=page.data.get("colorBy", ""), years=page.years,
        breadcrumb=page.breadcrumb,
        blocks=[{"id": key, "json": script_json(value)} for key, value in page.blocks.items()],
        vis_js=assets["vis_js"], vis_css=assets["vis_css"], page_js=assets["page_js"],
        page_css=assets["page_css"], data_json=script_json(page.data),
    )


def render_html(h: nx.Graph, title: str, subtitle: str = "", score: dict[str, float] | None = None,
                focus: str | None = None, communities: list[Community] | None = None, seed: int = 0,
                community: Mapping[str, int] | None = None, colourings: Mapping[str, Mapping[str, str]] | None = None,
                colour_by: str | None = None, years: list[dict[str, Any]] | None = None,
                radius: tuple[float, float] = placement.RADIUS) -> str:
    """Return the self-contained HTML page of view ``h``.

    ``communities`` fills the community filter; with ``community`` (node -> id) the map is coloured
    by community and names its largest ones (see :func:`payload` for the other arguments).
    """
    names = {c.id: c.label for c in communities or []}
    data = payload(h, score=score, focus=focus, seed=seed, community=community, community_names=names,
                   colourings=colourings, colour_by=colour_by, radius=radius)
    count: dict[str, int] = {}
    for n in data["nodes"]:
        count[n["type"]] = count.get(n["type"], 0) + 1
    shown = {n["community"] for n in data["nodes"] if "community" in n}
    return render_page(Page(title, data, subtitle=subtitle, n_nodes=h.number_of_nodes(), n_edges=h.number_of_edges(),
                            legend=type_legend(count), communities=[c for c in communities or [] if c.id in shown],
                            years=years or []))


def write_html(html: str, path: str | Path) -> Path:
    """Write a page atomically and return its path."""
    from kg.store.io import atomic_write

    path = Path(path)
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
                     size=n["size"], x=n["x"], y=n["y"], physics=False)
    for e in data["edges"]:
        net.add_edge(e["from"], e["to"], title=e["title"])
    net.toggle_physics(False)
    return net
