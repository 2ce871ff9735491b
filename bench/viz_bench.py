"""Benchmark the interactive views on a built graph: HTML size and time until the page is usable.

Usage::

    python bench/viz_bench.py output/kg.ttl [--top 1500] [--egos 3] [--views overview,nodes,egos,community,papers]
                              [--out DIR] [--shots DIR --name NAME]

For each view it prints the build time in Python, the HTML size and, in headless Chromium
(/usr/bin/chromium via Playwright), the time from navigation until the network is drawn with its
labels placed (the page's ``window.kgReady``, set on vis-network's first ``afterDrawing`` after
the map is fitted) and the time a click-highlight takes. The views: the overview as ``kg build``
writes it (the community map above 3,000 nodes, else the labelled map of the nodes), on big graphs
also the map of the top nodes (``kg viz --overview nodes``) and the time to open the largest
community in the community map; ego views around the most central entities; the largest
community's own page (``kg viz --community 1``); with ``--views ...,papers`` the paper map.
Targets (issues 4 and 21): overview <= 15 MB and usable in <= 10 s; ego views < 1 MB.
Speed depends on the machine, so the figures are reported, never asserted by the test suite.

``--shots DIR --name NAME`` saves the first view of the overview as DIR/map-NAME.png (labelled map)
or DIR/community-map-NAME.png (community map), 1280 x 860 like the browser tests.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
OVERVIEW_MAX_MB = 15.0
OVERVIEW_MAX_S = 10.0
EGO_MAX_MB = 1.0
VIEWPORT = {"width": 1280, "height": 860}


def browser_times(browser: object, path: Path, screenshot: Path | None = None,
                  open_community: str | None = None) -> dict[str, float]:
    """Open ``path``; return seconds to a usable page, highlight time, the node count and (community
    maps) the seconds to open community ``open_community``."""
    page = browser.new_page(viewport=VIEWPORT)  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    started = time.perf_counter()
    page.goto(path.as_uri(), timeout=120_000)
    page.wait_for_function("window.kgReady === true", timeout=120_000, polling=50)
    ready = time.perf_counter() - started
    nodes = page.evaluate("network.body.data.nodes.length")
    if screenshot is not None:
        page.wait_for_timeout(300)
        page.screenshot(path=str(screenshot))
    node = page.evaluate("network.body.data.nodes.getIds()[0]")
    t0 = time.perf_counter()
    page.evaluate("(id) => { window.kgHighlight(id); return true; }", node)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(true)))")
    highlight = time.perf_counter() - t0
    page.evaluate("() => window.kgHighlight(null)")
    result = {"ready_s": ready, "highlight_s": highlight, "nodes": nodes}
    if open_community is not None:
        t0 = time.perf_counter()
        page.evaluate("(key) => kgMap.openCommunity(key)", open_community)
        page.wait_for_function(f"document.body.getAttribute('data-view') === 'community-{open_community}' "
                               "&& window.kgReady === true", timeout=120_000, polling=50)
        result["open_s"] = time.perf_counter() - t0
        result["open_nodes"] = page.evaluate("network.body.data.nodes.length")
    page.close()
    if errors:
        print(f"  page errors in {path.name}: {errors[:3]}", file=sys.stderr)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", type=Path, help="built graph (kg.ttl, .nt, ... or a store directory)")
    parser.add_argument("--top", type=int, default=None, help="size of the map of the top nodes (default 1500)")
    parser.add_argument("--egos", type=int, default=3, help="ego views around the most central entities")
    parser.add_argument("--out", type=Path, default=None, help="directory for the pages (default: a temp dir)")
    parser.add_argument("--shots", type=Path, default=None, help="directory for a screenshot of the overview")
    parser.add_argument("--name", default="graph", help="name of the screenshot (map-NAME.png, community-map-NAME.png)")
    parser.add_argument("--views", default="overview,nodes,egos,community",
                        help="views to measure, among overview,nodes,egos,community,papers (nodes: on big graphs "
                             "or with --top)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)

    from kg.analysis.convert import typed_graph
    from kg.analysis.stats import communities
    import kg.viz as viz
    from kg.store.load import load_graph
    from kg.viz import communitymap, views

    out = args.out or Path(tempfile.mkdtemp(prefix="viz-bench-"))
    t = time.perf_counter()
    rdf = load_graph(args.graph)
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    g = typed_graph(rdf)
    convert_s = time.perf_counter() - t
    print(f"graph {args.graph}: {len(rdf)} triples loaded in {load_s:.1f}s; typed graph {g.number_of_nodes()} nodes, "
          f"{g.number_of_edges()} edges in {convert_s:.1f}s")
    del rdf
    big = g.number_of_nodes() > communitymap.MAP_NODES

    wanted = {v.strip() for v in args.views.split(",") if v.strip()}
    pages: list[tuple[str, Path, float]] = []
    if "overview" in wanted:
        t = time.perf_counter()
        pages.append(("overview (community map)" if big else "overview (map)",
                      viz.write_overview(g, out / "graph.html"), time.perf_counter() - t))
    if "nodes" in wanted and (big or args.top):
        t = time.perf_counter()
        path = viz.write_overview(g, out / "nodes.html", top=args.top or views.OVERVIEW_TOP, kind="nodes")
        pages.append(("map of the top nodes", path, time.perf_counter() - t))
    if "egos" in wanted:
        score = views.rank(g)
        entities = sorted((n for n, d in g.nodes(data="type") if d != "Paper"), key=lambda n: (-score[n], n))
        for i, node in enumerate(entities[: args.egos]):
            t = time.perf_counter()
            pages.append((f"ego {g.nodes[node]['label'][:24]}", viz.write_ego(g, node, out / f"ego-{i}.html"),
                          time.perf_counter() - t))
    if "community" in wanted:
        t = time.perf_counter()
        comms = communities(g, seed=0)
        community_s = time.perf_counter() - t
        t = time.perf_counter()
        pages.append((f"community 1/{len(comms)}", viz.write_community(g, 1, out / "community-1.html"),
                      time.perf_counter() - t + community_s))
    if "papers" in wanted:
        t = time.perf_counter()
        pages.append(("paper map", viz.write_paper_map(g, out / "papers.html"), time.perf_counter() - t))

    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        for name, path, build_s in pages:
            shot = None
            if name.startswith("overview") and args.shots is not None:
                args.shots.mkdir(parents=True, exist_ok=True)
                shot = args.shots / (f"community-map-{args.name}.png" if big else f"map-{args.name}.png")
            opened = "c1" if name == "overview (community map)" else None
            times = browser_times(browser, path, shot, open_community=opened)
            rows.append((name, path, build_s, path.stat().st_size / 1e6, times))
            if shot is not None:
                print(f"screenshot {shot}")
        browser.close()

    print(f"\n{'view':<28} {'nodes':>6} {'build s':>8} {'MB':>7} {'ready s':>8} {'click s':>8}  target")
    ok = True
    for name, path, build_s, mb, times in rows:
        if name.startswith("overview"):
            good = mb <= OVERVIEW_MAX_MB and times["ready_s"] <= OVERVIEW_MAX_S
            target = f"<= {OVERVIEW_MAX_MB:.0f} MB, <= {OVERVIEW_MAX_S:.0f} s"
        elif name.startswith("ego"):
            good = mb < EGO_MAX_MB
            target = f"< {EGO_MAX_MB:.0f} MB"
        else:
            good, target = True, ""
        ok &= good
        flag = ("ok" if good else "MISSED") if target else ""
        print(f"{name:<28} {times['nodes']:>6} {build_s:>8.2f} {mb:>7.2f} {times['ready_s']:>8.2f} "
              f"{times['highlight_s']:>8.3f}  {target} {flag}")
        if "open_s" in times:
            print(f"{'  opening community 1':<28} {times['open_nodes']:>6} {'':>8} {'':>7} {times['open_s']:>8.2f}")
    print(f"\npages in {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
