"""The build manifest (``manifest.json`` in the output directory): what a build read, for ``kg build --append``.

``--append`` does not patch the previous graph: it rebuilds from the inputs of the manifest plus the
new ones, taking every known abstract's extraction from the cache, so entities are resolved across
old and new papers together (a new paper mentioning an existing entity links to the same IRI).
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kg.errors import InputError
from kg.store.io import atomic_write

MANIFEST = "manifest.json"


@dataclass
class Manifest:
    """The inputs (as given, in order), the directory they were given from, and the reading options."""

    inputs: list[str] = field(default_factory=list)
    cwd: str = ""
    format: str | None = None
    max_chars: int | None = None
    papers: int = 0
    triples: int = 0
    version: int = 1


def read_manifest(output_dir: str | Path) -> Manifest:
    """The manifest of the build in ``output_dir``; InputError saying what to do when there is none."""
    path = Path(output_dir) / MANIFEST
    if not path.is_file():
        raise InputError(f"{path} does not exist: --append needs a previous build in {output_dir}; "
                         "run `kg build INPUTS -o DIR` first (or drop --append)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Manifest(**{k: v for k, v in data.items() if k in Manifest.__dataclass_fields__})
    except (ValueError, TypeError) as exc:
        raise InputError(f"{path} is not a valid build manifest ({exc}); rebuild without --append") from exc


def write_manifest(output_dir: str | Path, manifest: Manifest, path: str | Path | None = None) -> Path:
    """Write ``manifest`` atomically into ``output_dir`` (or to ``path``, a build's staging file)."""
    path = Path(path) if path is not None else Path(output_dir) / MANIFEST
    atomic_write(path, (json.dumps(asdict(manifest), indent=1) + "\n").encode())
    return path


def manifest_inputs(manifest: Manifest) -> list[str]:
    """The manifest's inputs as paths usable from the current directory.

    From the directory of the original build they are the paths as given (so source file names in the
    graph stay the same); from elsewhere they are made absolute.
    """
    if not manifest.cwd or os.path.realpath(manifest.cwd) == os.path.realpath(os.getcwd()):
        return list(manifest.inputs)
    return [os.path.join(manifest.cwd, p) for p in manifest.inputs]


def merge_inputs(old: list[str], new: list[str | Path]) -> list[str]:
    """``old`` then the ``new`` inputs not already among them (same real path), in order."""
    seen = {os.path.realpath(p) for p in old}
    merged = list(old)
    for given in new:
        real = os.path.realpath(given)
        if real not in seen:
            seen.add(real)
            merged.append(str(given))
    return merged
