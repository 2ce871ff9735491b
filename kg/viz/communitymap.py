"""The community map of a big graph: one node per Louvain community, sized by its papers, named by
its characteristic entities and linked to the communities it shares entities with; each
community's own view is embedded in the page as compact JSON and opened in place by a click.

Compact community views (``block``): ``{"prefix": common IRI start, "types": [[name, colour,
shape]], "props": [link names], "n": [[id, map label or 0, label, type, x, y, size, tooltip]],
"e": [[i, j, prop]]}``, nodes most central first (their rank is their index).
"""
from __future__ import annotations

import os
from collections import Counter, defaultdict
from typing import Any, Iterable

import networkx as nx

from kg.analysis.stats import Community, community_index, sorted_copy
from kg.viz import placement
from kg.viz.labels import text_width
from kg.viz.palette import community_colour
from kg.viz.style import TYPE_STYLE, style

#: graphs with more nodes than this open on the community map
MAP_NODES = 3000
#: the map shows the largest communities, at most MAX_COMMUNITIES of them and none smaller than
#: MIN_MAP_SIZE nodes; the others are gathered in one map node ("small communities")
MAX_COMMUNITIES = 60
MIN_MAP_SIZE = 5
#: a community's view shows at most this many of its nodes (the most central)
COMMUNITY_TOP = 1500
#: each community keeps its strongest links on the map, at most this many
MAX_LINKS = 3
#: tooltips of papers in the embedded views keep this much of the abstract
ABSTRACT_CHARS = 160
SMALL = "small"
#: radius of the community nodes (canvas units at zoom 1), the fewest to the most papers
MAP_RADIUS = (4.0, 24.0)


def map_key(cid: int | str) -> str:
    """Return the map node id of community ``cid`` (``"small"`` for the small communities)."""
    return f"c{cid}" if cid != SMALL else SMALL


def shown_on_map(comms: list[Community], min_size: int = MIN_MAP_SIZE, limit: int = MAX_COMMUNITIES) -> set[int]:
    """Return the ids of the communities the map shows on their own: the ``limit`` largest of at
    least ``min_size`` nodes."""
    big = sorted((c for c in comms if c.size >= min_size), key=lambda c: (-c.size, c.id))
    own = {c.id for c in big[:limit]}
    if len(comms) - len(own) == 1:  # a single small community is shown on its own
        own.update(c.id for c in comms)
    return own


def groups(comms: list[Community], min_size: int = MIN_MAP_SIZE,
           limit: int = MAX_COMMUNITIES) -> list[tuple[str, str, list[str], int]]:
    """Return the map's groups ``(key, label, members, papers)``: each community of
    :func:`shown_on_map`, then the others together."""
    own = shown_on_map(comms, min_size, limit)
    out = [(map_key(c.id), c.label, c.members, len(c.papers)) for c in comms if c.id in own]
    small = [c for c in comms if c.id not in own]
    if small:
        members = sorted(m for c in small for m in c.members)
        out.append((SMALL, f"{len(small)} small communities", members, sum(len(c.papers) for c in small)))
    return out


def community_graph(g: nx.Graph, comms: list[Community], min_size: int = MIN_MAP_SIZE,
                    max_links: int = MAX_LINKS) -> nx.Graph:
    """Return the graph of communities: a node per group of :func:`groups`; an edge where papers
    of one community link to entities of another, ``weight`` = such links, ``shared`` = the
    entities involved (most linked first). Each node keeps its ``max_links`` strongest edges."""
    index = community_index(comms)
    parts = groups(comms, min_size)
    own = shown_on_map(comms, min_size)
    key_of = {c.id: (map_key(c.id) if c.id in own else SMALL) for c in comms}
    m = nx.Graph(name="community map")
    for key, label, members, n_papers in parts:
        cid = int(key[1:]) if key != SMALL else None
        m.add_node(key, label=label, type="Community", community=cid, size=len(members), papers=n_papers)
    weight: Counter[tuple[str, str]] = Counter()
    shared: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for u, v in g.edges():
        a, b = key_of[index[u]], key_of[index[v]]
        if a == b:
            continue
        pair = (min(a, b), max(a, b))
        weight[pair] += 1
        for x in (u, v):
            if g.nodes[x]["type"] != "Paper":
                shared[pair][x] += 1
    keep: set[tuple[str, str]] = set()
    by_node: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for pair in weight:
        by_node[pair[0]].append(pair)
        by_node[pair[1]].append(pair)
    for key, pairs in by_node.items():
        pairs.sort(key=lambda p: (-weight[p], p))
        keep.update(pairs[:max_links])
    for a, b in sorted(keep):
        entities = [e for e, _ in sorted(shared[(a, b)].items(), key=lambda kv: (-kv[1], g.nodes[kv[0]]["label"]))]
        m.add_edge(a, b, weight=weight[(a, b)], shared=entities)
    for key in m:
        data = m.nodes[key]
        data["tooltip"] = _community_tooltip(data)
    for a, b, data in m.edges(data=True):
        names = [g.nodes[e]["label"] for e in data["shared"][:8]]
        more = len(data["shared"]) - len(names)
        data["tooltip"] = (f"{data['weight']} links across · {len(data['shared'])} shared entities"
                           + (": " + ", ".join(names) if names else "") + (f" and {more} more" if more > 0 else ""))
    return m


def _community_tooltip(data: dict[str, Any]) -> str:
    head = f"community {data['community']}: {data['label']}" if data.get("community") else data["label"]
    return f"{head}\n{data['papers']} papers, {data['size']} nodes\nclick to open it"


def _tooltip(data: dict[str, Any]) -> str:
    lines = [f"{data.get('type', 'Other')}: {data.get('label', '')}"]
    if data.get("aliases"):
        lines.append("Also: " + ", ".join(data["aliases"][:5]))
    if data.get("type") == "Paper":
        if data.get("title") and data["title"] != data.get("label"):
            lines.append(data["title"])
        if data.get("year"):
            lines.append(f"Year: {data['year']}")
        if data.get("proposes"):
            lines.append("Proposes: " + ", ".join(data["proposes"]))
        abstract = " ".join((data.get("abstract") or "").split())
        if abstract:
            if len(abstract) > ABSTRACT_CHARS:
                abstract = abstract[:ABSTRACT_CHARS].rsplit(" ", 1)[0] + " …"
            lines += ["", abstract]
    return "\n".join(lines)


def _prefix(ids: Iterable[str]) -> str:
    common = os.path.commonprefix(list(ids))
    return common[: common.rfind("/") + 1] if "/" in common else ""


def block(g: nx.Graph, members: list[str], score: dict[str, float], seed: int = 0,
          top: int = COMMUNITY_TOP) -> dict[str, Any]:
    """Return the compact view (see the module docstring) of the subgraph of ``members``: its
    ``top`` most central nodes, laid out as a map (by sub-community when large)."""
    keep = placement.ranked(g.subgraph(members), score)[:top]
    h = g.subgraph(keep)
    sub: dict[str, int] = {}
    if h.number_of_nodes() >= 100 and h.number_of_edges():
        parts = nx.community.louvain_communities(sorted_copy(h), seed=seed)
        for i, part in enumerate(sorted((sorted(p) for p in parts), key=lambda p: (-len(p), p[0])), start=1):
            for n in part:
                sub[n] = i
    m = placement.map_layout(h, score, community=sub or None, seed=seed)
    order = sorted(h, key=lambda n: m.rank[n])
    prefix = _prefix(order)
    types = [t for t in TYPE_STYLE if any(h.nodes[n]["type"] == t for n in order)]
    types += sorted({h.nodes[n]["type"] for n in order} - set(types))
    type_index = {t: i for i, t in enumerate(types)}
    props: list[str] = []
    prop_index: dict[str, int] = {}
    index = {n: i for i, n in enumerate(order)}
    rows = []
    for n in order:
        data = h.nodes[n]
        full = data.get("label") or n
        x, y = m.pos[n]
        rows.append([n[len(prefix):], m.text[n] if m.text[n] != full else 0, full, type_index[data["type"]],
                     round(x), round(y), m.radius[n], _tooltip(data)])
    edges = []
    for u, v, data in sorted(h.edges(data=True), key=lambda e: sorted((index[e[0]], index[e[1]]))):
        label = ", ".join(data.get("properties") or [data.get("property", "")])
        if label not in prop_index:
            prop_index[label] = len(props)
            props.append(label)
        i, j = sorted((index[u], index[v]))
        edges.append([i, j, prop_index[label]])
    from kg.viz.render import edge_colour_of

    return {"prefix": prefix, "types": [[t, *style(t)] for t in types], "props": props, "n": rows, "e": edges,
            "size": len(members), "edgeColor": edge_colour_of(len(rows))}


def map_positions(m: nx.Graph, seed: int = 0) -> dict[str, tuple[float, float]]:
    """Return positions (about [-1, 1]) of the community map: a force layout of the communities
    (stronger links pull harder), then spread so that their labels have room."""
    from kg.viz.layout import pack_discs, unit_layout

    top = max((w for _, _, w in m.edges(data="weight")), default=1) or 1
    weight = {(a, b): 0.2 + 0.8 * (w / top) ** 0.5 for a, b, w in m.edges(data="weight")}
    pos = unit_layout(m, seed, weight=weight)
    most = max((d["papers"] for _, d in m.nodes(data=True)), default=1) or 1
    # discs as wide as the label under them (in units of the unit layout, about 1/600 of the map)
    radii = {k: max(0.03, text_width(placement.community_name(m.nodes[k]["label"]), 13) / 1200,
                    0.09 * (m.nodes[k]["papers"] / most) ** 0.5) for k in m}
    return pack_discs(pos, radii, aspect=placement.MAP_WIDTH / placement.MAP_HEIGHT, gap=0.01)


def render_community_map(g: nx.Graph, seed: int = 0, title: str = "paperkg community map",
                         min_size: int = MIN_MAP_SIZE, top: int = COMMUNITY_TOP) -> str:
    """Return the self-contained page of the community map of ``g``, every community's view embedded."""
    from kg.analysis.stats import communities
    from kg.viz import render
    from kg.viz.views import rank

    comms = communities(g, seed=seed)
    score = rank(g)
    m = community_graph(g, comms, min_size)
    for key in m:
        m.nodes[key]["map_label"] = placement.community_name(m.nodes[key]["label"])
    data = render.payload(m, score={k: float(d["papers"] or 0.5) for k, d in m.nodes(data=True)},
                          pos=map_positions(m, seed), with_type=False, radius=MAP_RADIUS,
                          colourings={"community": {k: community_colour(d["community"]) for k, d in m.nodes(data=True)}})
    data["kind"] = "communities"
    data["groups"] = {}
    blocks: dict[str, Any] = {}
    for key, label, members, n_papers in groups(comms, min_size):
        b = block(g, members, score, seed=seed, top=top)
        b["options"] = render.vis_options(len(b["n"]))
        blocks[f"kg-{key}"] = b
        head = f"community {key[1:]}: {label}" if key != SMALL else label
        data["groups"][key] = {"block": f"kg-{key}", "title": head, "size": len(members), "papers": n_papers,
                               "shown": len(b["n"]), "links": len(b["e"])}
    count = Counter(t for _, t in g.nodes(data="type"))
    page = render.Page(title, data, subtitle=f"{len(comms)} communities", n_nodes=g.number_of_nodes(),
                       n_edges=g.number_of_edges(), legend=render.type_legend(count), breadcrumb=True, blocks=blocks)
    return render.render_page(page)
