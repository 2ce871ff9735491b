"""Counts, depths and type names the commands cannot use are refused before any work, with the option named."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import cli

GRAPH = str(Path(__file__).parent / "data" / "analysis" / "graph.ttl")


@pytest.mark.parametrize("args, option", [
    (["similar", "Swin Transformer", "-n", "0"], "'-n'"),
    (["similar", "Swin Transformer", "-n", "-3"], "'-n'"),
    (["stats", "--top", "-1"], "'--top'"),
    (["viz", "--top", "-5"], "'--top'"),
    (["viz", "--focus", "Swin Transformer", "--depth", "-1"], "'--depth'"),
    (["compare", "--similar-to", "Swin Transformer", "--top", "0"], "'--top'"),
    (["viz", "--types", "Paper,Foo"], "--types"),
])
def test_unusable_values_are_refused(tmp_path: Path, args: list[str], option: str) -> None:
    result = CliRunner().invoke(cli, [*args, "--graph", GRAPH], catch_exceptions=False)
    assert result.exit_code == 2
    assert option in result.stderr and "Traceback" not in result.stderr


def test_type_names_are_case_blind(tmp_path: Path) -> None:
    out = tmp_path / "g.html"
    result = CliRunner().invoke(cli, ["viz", "--graph", GRAPH, "--types", "paper,METHOD", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert set(re.findall(r'"type":"(\w+)"', out.read_text(encoding="utf-8"))) == {"Paper", "Method"}
