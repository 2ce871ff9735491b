"""Every command that writes a file says in one line where it cannot, and exits non-zero without a
traceback or a partial file; and a graph read from elsewhere writes its pages beside that graph."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import cli

GRAPH = Path(__file__).parent / "data" / "analysis" / "graph.ttl"

#: each writing command, with ``{out}`` where the written file's path goes
WRITERS = {
    "viz": ["viz", "--graph", str(GRAPH), "-o", "{out}"],
    "viz --papers": ["viz", "--graph", str(GRAPH), "--papers", "-o", "{out}"],
    "report": ["report", "--graph", str(GRAPH), "-o", "{out}"],
    "export graphml": ["export", "--graph", str(GRAPH), "--format", "graphml", "-o", "{out}"],
    "export turtle": ["export", "--graph", str(GRAPH), "--format", "turtle", "-o", "{out}"],
    "trends --plot": ["trends", "--graph", str(GRAPH), "--plot", "{out}.png"],
    "compare": ["compare", "--graph", str(GRAPH), "--similar-to", "Swin Transformer", "--format", "html",
                "-o", "{out}"],
    "query": ["query", "--graph", str(GRAPH), "--name", "type-counts", "-o", "{out}"],
}


def run(args: list[str], out: Path) -> object:
    """Run a writing command with ``out`` as its file (``out.png`` where it needs the extension)."""
    return CliRunner().invoke(cli, [a.replace("{out}", str(out)) for a in args])


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_file_standing_where_a_directory_must_be_is_named(tmp_path: Path, command: str) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    result = run(WRITERS[command], blocker / "sub" / "out.file")
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    line, = result.stderr.strip().splitlines()
    assert f"{blocker} is a file, not a directory" in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"] and blocker.read_text() == "x"


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_each_writer_works(tmp_path: Path, command: str) -> None:
    out = tmp_path / "deep" / "out.file"
    result = run(WRITERS[command], out)
    assert result.exit_code == 0, result.output
    written = out.with_name(out.name + ".png") if "{out}.png" in WRITERS[command] else out
    assert written.stat().st_size > 0


@pytest.mark.parametrize("command, page", [("viz", "graph.html"), ("report", "report.html")])
def test_a_graph_elsewhere_gets_its_pages_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    command: str, page: str) -> None:
    graph = Path(shutil.copy(GRAPH, tmp_path / "kg.ttl"))
    cwd = tmp_path / "work"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(cli, [command, "--graph", str(graph)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / page).exists() and not (cwd / "output").exists()


def test_a_pipe_is_written_to_not_replaced(tmp_path: Path) -> None:
    """``-o /dev/stdout`` or a named pipe: the data goes into it, and it stays a pipe (a rename over it
    would put a regular file in its place)."""
    import os
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = run(WRITERS["query"], fifo)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert b"Paper" in got[0] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_link_keeps_pointing_to_the_new_file(tmp_path: Path) -> None:
    real = tmp_path / "real.tsv"
    real.write_text("old")
    link = tmp_path / "link.tsv"
    link.symlink_to(real)
    result = run(WRITERS["query"], link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and "Paper" in real.read_text()


@pytest.mark.parametrize("command", ["query", "report", "export turtle"])
def test_a_directory_is_no_output_file(tmp_path: Path, command: str) -> None:
    result = run(WRITERS[command], tmp_path)
    assert result.exit_code != 0
    assert f"cannot write {tmp_path}: it is a directory; give a file name in it" in result.stderr
