"""Named points of a build where a test can pause it, to interrupt or kill it exactly there.

With ``KG_PAUSE_AT=NAME`` in the environment, the build stops at the point ``NAME``: it creates the file
``KG_PAUSE_FILE`` (when set), then sleeps ``KG_PAUSE_SECONDS`` (default 60) so the test can send SIGINT
or SIGKILL. The points, in build order: ``read`` (inputs read and merged), ``extracted`` (the extraction
cache holds every abstract), ``staged-graph`` (kg.ttl staged), ``staged-views`` (graph.html and
report.html staged), ``staged`` (manifest staged, before the commit), ``commit`` (between two renames
of the commit step). Without the variable a checkpoint does nothing.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

POINTS = ("read", "extracted", "staged-graph", "staged-views", "staged", "commit")


def checkpoint(name: str) -> None:
    """Pause here if ``KG_PAUSE_AT`` names this point (see the module's docstring)."""
    if os.environ.get("KG_PAUSE_AT") != name:
        return
    marker = os.environ.get("KG_PAUSE_FILE")
    if marker:
        Path(marker).write_text(f"{os.getpid()}\n", encoding="utf-8")
    time.sleep(float(os.environ.get("KG_PAUSE_SECONDS", "60")))
