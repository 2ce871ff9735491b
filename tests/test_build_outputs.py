"""A build's outputs are all old or all new, whenever it is interrupted or killed; clean errors for bad outputs.

Each interruption test runs a real ``kg build`` process paused at a named point (``KG_PAUSE_AT``, see
:mod:`kg.build.checkpoints`), sends it SIGINT, SIGTERM or SIGKILL there, and compares the output directory with
the outputs of the previous build and of the same build left to finish.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.build.checkpoints import POINTS
from kg.build.outputs import OutputSet, deferred_signals, remove_stale, staging_name
from kg.cli import cli
from kg.errors import InterruptSignal, raise_interrupt

OUTPUTS = ("kg.ttl", "graph.html", "report.html", "manifest.json")
ABSTRACTS = [
    "We propose TinyNet, a small transformer for EEG classification, pretrained on TUAB.",
    "We study graph neural networks for molecule property prediction on QM9 and report the MAE.",
]


def outputs(directory: Path) -> dict[str, bytes]:
    """The four outputs' bytes (a missing one is absent)."""
    return {name: (directory / name).read_bytes() for name in OUTPUTS if (directory / name).exists()}


def leftovers(directory: Path) -> list[str]:
    """Staging files and scratch directories in ``directory``."""
    return sorted(p.name for p in directory.iterdir() if ".tmp" in p.name)


def write_input(path: Path, version: str) -> Path:
    records = [{"id": f"p{i}", "title": f"Paper {version} number {i}", "abstract": a} for i, a in enumerate(ABSTRACTS)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def kg_build(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kg", "build", *args], env={**os.environ, **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """An output directory holding an old build, and the outputs the new build writes when left alone."""
    root = tmp_path_factory.mktemp("interrupt")
    source = write_input(root / "in.jsonl", "one")
    old = root / "old"
    proc = kg_build(str(source), "-o", str(old), cwd=root)
    assert proc.wait(timeout=300) == 0, proc.stderr.read()  # type: ignore[union-attr]
    old_outputs = outputs(old)
    source = write_input(root / "in-two.jsonl", "two")  # another file: the manifest differs too
    reference = root / "reference"
    shutil.copytree(old, reference)
    proc = kg_build(str(source), "-o", str(reference), cwd=root)
    assert proc.wait(timeout=300) == 0, proc.stderr.read()  # type: ignore[union-attr]
    new_outputs = outputs(reference)
    assert set(old_outputs) == set(new_outputs) == set(OUTPUTS)
    assert all(old_outputs[n] != new_outputs[n] for n in OUTPUTS), "the two builds must differ in every output"
    return {"root": root, "source": source, "old": old, "old_outputs": old_outputs, "new_outputs": new_outputs}


def paused_build(builds: dict, name: str, point: str) -> tuple[subprocess.Popen, Path]:
    """A copy of the old build directory and a new build into it, paused at ``point`` (for long enough to
    be signalled; inside the commit step, where signals wait, for 3 s)."""
    root: Path = builds["root"]  # type: ignore[assignment]
    out = root / name
    shutil.copytree(builds["old"], out)  # type: ignore[arg-type]
    marker = root / f"{name}.paused"
    proc = kg_build(str(builds["source"]), "-o", str(out), cwd=root,
                    env={"KG_PAUSE_AT": point, "KG_PAUSE_FILE": str(marker), "KG_PAUSE_SECONDS": "3" if point == "commit" else "120"})
    deadline = time.monotonic() + 240
    while not marker.exists():
        assert proc.poll() is None, f"the build ended before {point}: {proc.stderr.read()}"  # type: ignore[union-attr]
        assert time.monotonic() < deadline, f"the build never reached {point}"
        time.sleep(0.05)
    return proc, out


@pytest.mark.parametrize("point", POINTS)
def test_sigint_at_each_point_leaves_all_old_or_all_new(builds: dict, point: str) -> None:
    proc, out = paused_build(builds, f"int-{point}", point)
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=120)
    stderr = proc.stderr.read()  # type: ignore[union-attr]
    assert code == 130, stderr
    assert "Traceback" not in stderr
    got = outputs(out)
    if point == "commit":  # the signal waits for the commit step, which completes
        assert got == builds["new_outputs"]
        assert "they are complete" in stderr
    else:
        assert got == builds["old_outputs"], f"interrupted at {point}, the previous outputs changed"
        assert "left untouched" in stderr
    assert leftovers(out) == [], "an interrupted build removes its staging files"


@pytest.mark.parametrize("point", ["extracted", "staged-views", "staged"])
def test_sigterm_is_handled_like_ctrl_c(builds: dict, point: str) -> None:
    proc, out = paused_build(builds, f"term-{point}", point)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == 130
    assert outputs(out) == builds["old_outputs"]
    assert leftovers(out) == []


@pytest.mark.parametrize("point", ["staged-graph", "staged", "commit"])
def test_sigkill_never_shows_a_new_kg_ttl_beside_old_outputs(builds: dict, point: str) -> None:
    """A killed build cannot clean up, but kg.ttl is renamed last: a new kg.ttl means new everything.
    The next build removes the staging files it left and writes all new outputs."""
    proc, out = paused_build(builds, f"kill-{point}", point)
    proc.kill()
    proc.wait(timeout=60)
    got = outputs(out)
    if got["kg.ttl"] == builds["new_outputs"]["kg.ttl"]:  # type: ignore[index]
        assert got == builds["new_outputs"]
    if point != "commit":
        assert got == builds["old_outputs"]
    assert leftovers(out), "a killed build leaves its staging files behind"
    again = kg_build(str(builds["source"]), "-o", str(out), cwd=builds["root"])
    assert again.wait(timeout=300) == 0, again.stderr.read()  # type: ignore[union-attr]
    assert outputs(out) == builds["new_outputs"]
    assert leftovers(out) == [], "the next build removes what the killed one left"


def test_ctrl_c_during_start_up_exits_130_without_a_traceback(builds: dict) -> None:
    proc = kg_build(str(builds["source"]), "-o", str(builds["root"] / "startup"), cwd=builds["root"])
    time.sleep(0.4)  # importing the command line and the pipeline
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=120)
    stderr = proc.stderr.read()  # type: ignore[union-attr]
    assert code == 130, stderr
    assert "Traceback" not in stderr and "interrupted" in stderr


def test_the_interrupt_handler_raises_a_keyboardinterrupt_subclass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``except KeyboardInterrupt`` catches it, but it is not the bare class CPython remembers when it
    ends a nested ``PyRun_*`` call (a Cython import) and then turns into death by SIGINT at exit (-2)."""
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    with pytest.raises(KeyboardInterrupt) as caught:
        raise_interrupt(signal.SIGINT, None)
    assert type(caught.value) is InterruptSignal


# --------------------------------------------------------------------------- the commit step in-process


def test_commit_renames_kg_ttl_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    renamed: list[str] = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (renamed.append(Path(b).name), real(a, b)))
    outputs_ = OutputSet(tmp_path)
    for name in ("kg.ttl", "graph.html", "manifest.json"):
        outputs_.stage(name).write_text(name)
    assert [p.name for p in outputs_.commit()] == ["graph.html", "manifest.json", "kg.ttl"]
    assert renamed == ["graph.html", "manifest.json", "kg.ttl"]
    assert leftovers(tmp_path) == []


def test_discard_removes_the_staged_files(tmp_path: Path) -> None:
    (tmp_path / "kg.ttl").write_text("old")
    with pytest.raises(RuntimeError), OutputSet(tmp_path) as staged:
        staged.stage("kg.ttl").write_text("new")
        raise RuntimeError("the build failed")
    assert (tmp_path / "kg.ttl").read_text() == "old"
    assert leftovers(tmp_path) == []


def test_deferred_signal_is_delivered_after_the_block() -> None:
    events: list[str] = []
    previous = signal.signal(signal.SIGUSR1, lambda *_: events.append("handled"))
    try:
        with deferred_signals((signal.SIGUSR1,)) as received:
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(0.01)
            events.append("block ends")
            assert received == [signal.SIGUSR1]
        assert events == ["block ends", "handled"]
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_remove_stale_keeps_live_processes_files(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = [tmp_path / staging_name("kg.ttl", dead.pid), tmp_path / f".graph.html.{dead.pid}.x1y2z3.tmp"]
    scratch = tmp_path / f".kg-build-{dead.pid}-abc123.tmp"
    live = tmp_path / staging_name("kg.ttl")  # this process's
    other = tmp_path / ".notes.tmp"  # not paperkg's
    for path in [*stale, live, other]:
        path.write_text("x")
    scratch.mkdir()
    (scratch / "store").write_text("x")
    removed = remove_stale(tmp_path)
    assert sorted(removed) == sorted([*stale, scratch])
    assert live.exists() and other.exists()


# --------------------------------------------------------------------------- clean errors


def run_build(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["build", *args])
    return result.exit_code, result.stderr


@pytest.fixture()
def small_input(tmp_path: Path) -> Path:
    return write_input(tmp_path / "in.jsonl", "one")


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"), reason="root ignores permissions")
@pytest.mark.parametrize("cache", [True, False], ids=["with-cache", "no-cache"])
def test_read_only_output_directory(small_input: Path, cache: bool) -> None:
    shared = Path(tempfile.mkdtemp(prefix="kg-readonly-"))  # a directory another user can reach
    try:
        shared.chmod(0o755)
        source = Path(shutil.copy(small_input, shared / "in.jsonl"))
        source.chmod(0o644)
        out = shared / "ro"
        out.mkdir()
        out.chmod(0o555)
        args = [sys.executable, "-m", "kg", "build", str(source), "-o", str(out), *([] if cache else ["--no-cache"])]
        if os.geteuid() == 0:  # root writes anywhere: run the build as nobody
            args = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *args]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd="/",
                              env={**os.environ, "HOME": str(shared)})
        listing = list(out.iterdir())
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    assert proc.returncode == 2, proc.stderr
    line, = proc.stderr.strip().splitlines()
    assert str(out) in line and "read-only" in line
    assert "Traceback" not in proc.stderr
    assert listing == []


def test_output_under_an_existing_file(tmp_path: Path, small_input: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    code, stderr = run_build([str(small_input), "-o", str(blocker / "out")])
    assert code == 2
    assert f"is under {blocker}, which is a file" in stderr
    code, stderr = run_build([str(small_input), "-o", str(blocker)])
    assert code == 2 and f"the output {blocker} is a file" in stderr
    assert blocker.read_text() == "x"


def test_full_disk_during_the_turtle_write(tmp_path: Path, small_input: Path) -> None:
    """A file-size limit (ulimit -f) stands in for a full disk: the write fails with EFBIG."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "kg.ttl").write_text("previous\n")
    source = tmp_path / "many.jsonl"
    source.write_text("".join(json.dumps({"abstract": f"{ABSTRACTS[i % 2]} We study setting {i}."}) + "\n"
                              for i in range(24)), encoding="utf-8")

    def limit() -> None:  # 32 KiB a file (without a cache, nothing else is written before the Turtle)
        resource.setrlimit(resource.RLIMIT_FSIZE, (32 << 10, 32 << 10))

    proc = subprocess.run([sys.executable, "-m", "kg", "build", str(source), "-o", str(out), "--no-cache", "--no-views"],
                          capture_output=True, text=True, timeout=300, preexec_fn=limit)
    assert proc.returncode == 2, proc.stderr
    line, = proc.stderr.strip().splitlines()
    assert "cannot write" in line and str(out / "kg.ttl") in line and "free some space" in line
    assert (out / "kg.ttl").read_text() == "previous\n"
    assert leftovers(out) == []
    unlimited = subprocess.run([sys.executable, "-m", "kg", "build", str(source), "-o", str(out), "--no-cache",
                                "--no-views"], capture_output=True, text=True, timeout=300)
    assert unlimited.returncode == 0 and (out / "kg.ttl").stat().st_size > 32 << 10, "the Turtle must pass the limit"


def test_a_build_that_reads_no_paper_fails_and_keeps_the_previous_outputs(tmp_path: Path, small_input: Path) -> None:
    out = tmp_path / "out"
    assert run_build([str(small_input), "-o", str(out), "--no-views"])[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    broken = tmp_path / "broken.csv"
    broken.write_text('id,title,abstract\n"1,"unclosed\n', encoding="utf-8")
    code, stderr = run_build([str(broken), "-o", str(out), "-q"])
    assert code == 1  # an input error
    assert f"no paper was read from {broken}" in stderr and "1 malformed CSV" in stderr
    assert f"the previous outputs in {out} are untouched" in stderr
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before


@pytest.mark.parametrize("cache", [[], ["--cache"]], ids=["own-cache", "cache-elsewhere"])
def test_a_failed_first_build_leaves_no_directory_behind(tmp_path: Path, cache: list[str]) -> None:
    broken = tmp_path / "broken.csv"
    broken.write_text('id,title,abstract\n"1,"unclosed\n', encoding="utf-8")
    out, cache_dir = tmp_path / "new" / "out", tmp_path / "caches" / "kg"
    code, stderr = run_build([str(broken), "-o", str(out), *cache, *([str(cache_dir)] if cache else [])])
    assert code == 1 and "no paper was read" in stderr and "previous outputs" not in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.csv"]


def test_a_bad_metadata_value_costs_its_field_not_the_paper(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in [
        {"abstract": ABSTRACTS[0], "year": "in press", "title": "First"},
        {"abstract": ABSTRACTS[1], "year": 2021, "title": "Second"}]), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", str(source), "-o", str(out), "--no-views", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert f"warning: {source}: line 1: `year` must be a four-digit year like 2024, got 'in press'; the field " \
           "is left out, the record read" in result.stderr
    assert "read 2 records: 2 papers, 0 duplicates merged, 0 skipped, 1 field left out" in result.stdout
    graph = (out / "kg.ttl").read_text(encoding="utf-8")
    assert graph.count("a kg:Paper") == 2 and '"2021"^^xsd:gYear' in graph


def test_append_to_nothing_leaves_no_directory_behind(tmp_path: Path, small_input: Path) -> None:
    code, stderr = run_build([str(small_input), "--append", "-o", str(tmp_path / "fresh")])
    assert code != 0 and "manifest" in stderr
    assert not (tmp_path / "fresh").exists()


def test_a_build_failing_after_extraction_keeps_its_cache(tmp_path: Path, small_input: Path) -> None:
    """The next build reads what was extracted from the cache instead of extracting it again."""
    not_a_store = tmp_path / "notes"
    not_a_store.mkdir()
    (not_a_store / "keep.txt").write_text("x")
    out = tmp_path / "out"
    code, stderr = run_build([str(small_input), "-o", str(out), "--no-views", "--store", str(not_a_store)])
    assert code != 0 and "not an Oxigraph store" in stderr
    assert (out / ".cache").is_dir() and not (out / "kg.ttl").exists()
    result = CliRunner().invoke(cli, ["build", str(small_input), "-o", str(out), "--no-views"])
    assert result.exit_code == 0 and "extracted 0 abstracts, 2 from the cache" in result.output


def test_symlink_loop_is_reported_as_a_loop(tmp_path: Path) -> None:
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(loop)
    code, stderr = run_build([str(loop), "-o", str(tmp_path / "out")])
    assert code != 0
    assert "symlink loop" in stderr and "loop.jsonl" in stderr


# --------------------------------------------------------------------------- the cache commits often


def test_extraction_cache_commits_every_few_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A killed build loses seconds of extraction, not a batch of 256: rows are committed after 2 s too."""
    import sqlite3

    from kg.build.cache import ExtractionCache
    from kg.extract.types import PaperExtraction
    import kg.store.sqlite

    clock = [1000.0]
    monkeypatch.setattr(kg.store.sqlite.time, "monotonic", lambda: clock[0])
    path = tmp_path / "extractions.sqlite"
    cache = ExtractionCache(path, "fp")

    def committed() -> int:
        with sqlite3.connect(path) as other:  # what a later process would find after a SIGKILL now
            return other.execute("SELECT COUNT(*) FROM extractions").fetchone()[0]

    cache.put("a", PaperExtraction())
    assert committed() == 0, "one row and no time passed: still pending"
    clock[0] += ExtractionCache.commit_seconds + 0.1
    cache.put("b", PaperExtraction())
    assert committed() == 2
    cache.close()
