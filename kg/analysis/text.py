"""Labels cut to the width a table or a legend gives them."""
from __future__ import annotations


def cut(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` characters, else its first ``width - 1`` and "…" (a long word is cut
    too, never dropped)."""
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"
