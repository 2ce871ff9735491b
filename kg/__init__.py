"""paperkg: knowledge graphs of research-paper abstracts.

The public Python API is imported lazily so that ``import kg`` stays cheap and has no side effects.
Building is ``kg.build.pipeline.build`` (``kg.build`` is the build stage's package).
"""
from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_API = {
    "load_graph": "kg.store.load",
    "run_query": "kg.sparql.run",
}

__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'kg' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
