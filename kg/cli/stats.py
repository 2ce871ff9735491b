"""``kg stats``: counts, central entities, components and communities of the graph."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from kg.analysis.text import cut
from kg.cli.common import graph_options, handle_errors


def format_table(summary: dict[str, Any]) -> str:
    """Render the output of :func:`kg.analysis.stats.summary` as plain-text tables."""
    c = summary["counts"]
    lines = [f"nodes {c['nodes']}, edges {c['edges']}", "", "by type:"]
    lines += [f"  {t:<10} {n:>7}" for t, n in c["by_type"].items()]
    lines += ["", "links by property:"]
    lines += [f"  {p:<14} {n:>7}" for p, n in c["links_by_property"].items()]
    lines += ["", "most central (PageRank; degree; betweenness):"]
    for t, rows in summary["central"].items():
        if rows:
            lines.append(f"  {t}:")
            lines += [f"    {cut(r['label'], 60):<60} {r['pagerank']:.4f}  {r['degree']:>5}  "
                      f"{r['betweenness']:.4f}"
                      for r in rows]
    comp = summary["components"]
    lines += ["", f"connected components: {comp['count']} (largest {comp['largest']} nodes, "
                  f"{comp['isolated_nodes']} isolated)", "", "communities (Louvain):"]
    lines += [f"  {k['id']:>3}  {k['size']:>6} nodes  {k['papers']:>6} papers  {k['label']}"
              for k in summary["communities"]]
    return "\n".join(lines)


@click.command("stats")
@graph_options
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--top", default=5, show_default=True, type=click.IntRange(min=1),
              help="Central entities listed per type.")
@click.option("--seed", default=0, show_default=True, help="Seed of Louvain and sampled betweenness.")
@handle_errors
def stats(graph_path: Path | None, store: str | None, fmt: str, top: int, seed: int) -> None:
    """Print counts by type, the most central entities, components and communities."""
    from kg.analysis.source import read_typed_graph
    from kg.analysis.stats import summary

    result = summary(read_typed_graph(graph_path, store), seed=seed, top=top)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False) if fmt == "json" else format_table(result))
