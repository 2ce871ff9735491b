"""Where paperkg's data files live: the ontology, shapes and vocabularies."""
from __future__ import annotations

import os
from pathlib import Path

from kg.errors import OntologyError


def ontology_dir() -> Path:
    """The ``ontology/`` directory (``$PAPERKG_ONTOLOGY`` overrides; default: next to the package)."""
    override = os.environ.get("PAPERKG_ONTOLOGY")
    path = Path(override) if override else Path(__file__).resolve().parent.parent / "ontology"
    if not (path / "kg.ttl").is_file():
        raise OntologyError(
            f"ontology not found at {path} (expected {path / 'kg.ttl'}); run kg from a checkout of paperkg "
            "or set PAPERKG_ONTOLOGY to the ontology directory"
        )
    return path


def ontology_files() -> list[Path]:
    """The ontology and every vocabulary file, sorted (shapes excluded)."""
    root = ontology_dir()
    files = [p for p in root.glob("*.ttl") if p.name != "shapes.ttl"] + list((root / "vocab").glob("*.ttl"))
    return sorted(files)


def shapes_file() -> Path:
    """The SHACL shapes every built graph conforms to."""
    path = ontology_dir() / "shapes.ttl"
    if not path.is_file():
        raise OntologyError(f"SHACL shapes not found at {path}; restore ontology/shapes.ttl from the repository")
    return path
