"""Benchmark the interactive views on a built graph: HTML size and time until the page is usable.

Usage::

    python bench/viz_bench.py output/kg.ttl [--top 1500] [--egos 3] [--out DIR] [--screenshot FILE]

For each view (the overview, ego views around the most central entities, the largest
community) it prints the build time in Python, the HTML size and, in headless Chromium
(/usr/bin/chromium via Playwright), the time from navigation to the network's first drawing
(``afterDrawing``, the page's ``window.kgReady``) and the time a click-highlight takes.
Targets (issue 4): overview <= 15 MB and usable in <= 10 s; ego views < 1 MB.
Speed depends on the machine, so the figures are reported, never asserted by the test suite.
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


def browser_times(browser: object, path: Path, screenshot: Path | None = None) -> dict[str, float]:
    """Open ``path``; return seconds to first drawing, highlight time and the node count."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    started = time.perf_counter()
    page.goto(path.as_uri(), timeout=120_000)
    page.wait_for_function("window.kgReady === true", timeout=120_000, polling=50)
    ready = time.perf_counter() - started
    nodes = page.evaluate("network.body.data.nodes.length")
    node = page.evaluate("network.body.data.nodes.getIds()[0]")
    t0 = time.perf_counter()
    page.evaluate("(id) => { window.kgHighlight(id); return true; }", node)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(true)))")
    highlight = time.perf_counter() - t0
    if screenshot is not None:
        page.evaluate("() => window.kgHighlight(null)")
        page.screenshot(path=str(screenshot))
    page.close()
    if errors:
        print(f"  page errors in {path.name}: {errors[:3]}", file=sys.stderr)
    return {"ready_s": ready, "highlight_s": highlight, "nodes": nodes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("graph", type=Path, help="built graph (kg.ttl, .nt, ... or a store directory)")
    parser.add_argument("--top", type=int, default=None, help="overview size (default: the kg viz default)")
    parser.add_argument("--egos", type=int, default=3, help="ego views around the most central entities")
    parser.add_argument("--out", type=Path, default=None, help="directory for the pages (default: a temp dir)")
    parser.add_argument("--screenshot", type=Path, default=None, help="save a screenshot of the overview")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)

    from kg.analysis.convert import typed_graph
    from kg.analysis.stats import communities
    from kg.store.load import load_graph
    import kg.viz as viz
    from kg.viz import views

    out = args.out or Path(tempfile.mkdtemp(prefix="viz-bench-"))
    t = time.perf_counter()
    rdf = load_graph(args.graph)
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    g = typed_graph(rdf)
    convert_s = time.perf_counter() - t
    print(f"graph {args.graph}: {len(rdf)} triples loaded in {load_s:.1f}s; typed graph {g.number_of_nodes()} nodes, "
          f"{g.number_of_edges()} edges in {convert_s:.1f}s")

    pages: list[tuple[str, Path, float]] = []
    t = time.perf_counter()
    pages.append(("overview", viz.write_overview(g, out / "graph.html", top=args.top), time.perf_counter() - t))
    score = views.rank(g)
    entities = sorted((n for n, d in g.nodes(data="type") if d != "Paper"), key=lambda n: (-score[n], n))
    for i, node in enumerate(entities[: args.egos]):
        t = time.perf_counter()
        pages.append((f"ego {g.nodes[node]['label'][:24]}", viz.write_ego(g, node, out / f"ego-{i}.html"),
                      time.perf_counter() - t))
    t = time.perf_counter()
    comms = communities(g, seed=0)
    community_s = time.perf_counter() - t
    t = time.perf_counter()
    pages.append((f"community 1/{len(comms)}", viz.write_community(g, 1, out / "community-1.html"),
                  time.perf_counter() - t + community_s))

    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        for name, path, build_s in pages:
            shot = args.screenshot if name == "overview" else None
            times = browser_times(browser, path, shot)
            rows.append((name, path, build_s, path.stat().st_size / 1e6, times))
        browser.close()

    print(f"\n{'view':<28} {'nodes':>6} {'build s':>8} {'MB':>7} {'ready s':>8} {'click s':>8}  target")
    ok = True
    for name, path, build_s, mb, times in rows:
        if name == "overview":
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
    print(f"\npages in {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
