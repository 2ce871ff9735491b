"""Execute notebooks/explore.ipynb top to bottom so it never rots."""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "explore.ipynb"


def test_explore_notebook_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # the kernel imports this checkout's kg, whichever one the environment has installed
    root = str(NOTEBOOK.parent.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "papers" in text and "similar to:" in text and "triples" in text
    iframe = [o for o in outputs if "text/html" in o.get("data", {})]
    assert iframe and "<iframe srcdoc=" in iframe[-1]["data"]["text/html"]
