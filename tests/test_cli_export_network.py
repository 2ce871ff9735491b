"""``kg export --format graphml|gexf``: the typed network, read back with NetworkX."""
from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from kg.cli import cli

GOLDEN = Path(__file__).parent / "data" / "golden" / "graph.ttl"


@pytest.mark.parametrize("fmt, reader", [("graphml", nx.read_graphml), ("gexf", nx.read_gexf)])
def test_export_network_formats_read_back(tmp_path, fmt, reader):
    out = tmp_path / f"kg.{fmt}"
    result = CliRunner().invoke(cli, ["export", "--graph", str(GOLDEN), "--format", fmt, "--output", str(out)])
    assert result.exit_code == 0, result.output
    g = reader(out)
    types = {data.get("type") for _, data in g.nodes(data=True)}
    assert {"Paper", "Method", "Dataset"} <= types
    labels = {data.get("label") for _, data in g.nodes(data=True)}
    assert all(labels) and g.number_of_edges() > 0


def test_export_network_format_from_extension(tmp_path):
    out = tmp_path / "net.gexf"
    result = CliRunner().invoke(cli, ["export", "--graph", str(GOLDEN), "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert nx.read_gexf(out).number_of_nodes() > 0
