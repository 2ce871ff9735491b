"""Label geometry for the map views: how wide a label is, where vis-network draws it, and moving
labelled nodes apart so that the most important labels never overlap.

Everything here is pure arithmetic on numbers and strings (no browser), so it is tested directly.
Coordinates are canvas units; a label's size is given in screen pixels and divided by the zoom
``scale`` (vis-network draws ``font.size × scale`` pixels on screen).
"""
from __future__ import annotations

from dataclasses import dataclass
import math
from typing import Iterable

#: advance widths of DejaVu Sans (the sans-serif of Debian's Chromium, wider than Arial) per 1000 em
_WIDTHS: dict[str, int] = {
    **dict(zip("abcdefghijklmnopqrstuvwxyz",
               (613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411,
                521, 392, 634, 592, 818, 592, 592, 525))),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
               (684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695,
                635, 611, 732, 684, 989, 685, 611, 685))),
    **{d: 636 for d in "0123456789"},
    " ": 318, "-": 361, ".": 318, ",": 318, "/": 337, ":": 337, ";": 337, "(": 390, ")": 390,
    "[": 390, "]": 390, "'": 275, '"': 460, "…": 1000, "+": 838, "&": 780, "_": 500, "?": 531, "!": 400,
    "×": 838, "·": 318, "›": 500, "%": 950,
}
#: width of a character missing from the table (CJK and symbols are wide)
_DEFAULT_WIDTH = 760
#: estimates are made this much wider than the font's own metrics, so placement errs on the safe side
WIDTH_SAFETY = 1.06
#: bold text is this much wider than regular text (DejaVu Sans Bold against Book, generous)
BOLD = 1.12
#: vis-network hangs a label this many canvas units below the shape, plus half a font size
VIS_LABEL_GAP = 4.0


def text_width(text: str, px: float, bold: bool = False) -> float:
    """Return the estimated width in pixels of ``text`` in a ``px``-pixel sans-serif font (generous)."""
    width = WIDTH_SAFETY * px * sum(_WIDTHS.get(ch, _DEFAULT_WIDTH) for ch in text) / 1000.0
    return width * BOLD if bold else width


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle (``top`` < ``bottom``: canvas y grows downwards)."""

    left: float
    top: float
    right: float
    bottom: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def overlaps(self, other: "Box", pad: float = 0.0) -> bool:
        """True when the two boxes, each grown by ``pad`` on every side, intersect."""
        return (self.left - pad < other.right + pad and other.left - pad < self.right + pad
                and self.top - pad < other.bottom + pad and other.top - pad < self.bottom + pad)

    def inside(self, outer: "Box") -> bool:
        """True when this box lies within ``outer``."""
        return (self.left >= outer.left and self.right <= outer.right
                and self.top >= outer.top and self.bottom <= outer.bottom)


def label_box(x: float, y: float, radius: float, text: str, px: float, scale: float = 1.0) -> Box:
    """Return the box of the label vis-network hangs under a node at ``(x, y)`` of size ``radius``.

    The label is ``px`` pixels high on screen at zoom ``scale``; vis-network puts its top
    ``radius + font/2 + 4`` canvas units below the node's centre (``font = px / scale``).
    """
    font = px / scale
    width = text_width(text, font)
    top = y + radius + 0.5 * font + VIS_LABEL_GAP
    return Box(x - width / 2, top, x + width / 2, top + font)


@dataclass(frozen=True)
class Label:
    """A label to keep clear of the others.

    ``x``, ``y`` is its anchor (a node, or a free point such as a community's centre); ``dx``,
    ``dy`` is the offset of the box's top-left corner from the anchor and ``width``, ``height``
    its size. ``weight`` is how readily it moves: 0 never, labels of equal weight share a push.
    """

    key: str
    x: float
    y: float
    dx: float
    dy: float
    width: float
    height: float
    weight: float = 1.0

    @property
    def box(self) -> Box:
        return Box(self.x + self.dx, self.y + self.dy, self.x + self.dx + self.width, self.y + self.dy + self.height)


def node_label(key: str, x: float, y: float, radius: float, text: str, px: float, scale: float = 1.0,
               weight: float = 1.0, with_node: bool = True) -> Label:
    """Return the :class:`Label` of a node's label as vis-network draws it (see :func:`label_box`),
    with the node's own square (``with_node``) so that labels placed apart cover no labelled node.

    At a larger ``scale`` both boxes fit in the ones computed here (the label shrinks towards its
    node), so labels apart at a scale stay apart when the reader zooms in.
    """
    box = label_box(x, y, radius, text, px, scale)
    if with_node:
        box = Box(min(box.left, x - radius), y - radius, max(box.right, x + radius), box.bottom)
    return Label(key, x, y, box.left - x, box.top - y, box.width, box.height, weight)


def free_label(key: str, x: float, y: float, text: str, px: float, scale: float = 1.0,
               weight: float = 1.0, bold: bool = False) -> Label:
    """Return the :class:`Label` of a text centred on ``(x, y)`` (community names, ``bold``)."""
    font = px / scale
    width = text_width(text, font, bold)
    return Label(key, x, y, -width / 2, -font / 2, width, font, weight)


def _clamp_shift(left: float, top: float, width: float, height: float, bounds: Box | None) -> tuple[float, float]:
    """Return the shift that brings a box inside ``bounds`` (centred in it when it is too big)."""
    if bounds is None:
        return 0.0, 0.0
    if width > bounds.width:
        dx = bounds.left + bounds.width / 2 - (left + width / 2)
    else:
        dx = max(0.0, bounds.left - left) - max(0.0, left + width - bounds.right)
    if height > bounds.height:
        dy = bounds.top + bounds.height / 2 - (top + height / 2)
    else:
        dy = max(0.0, bounds.top - top) - max(0.0, top + height - bounds.bottom)
    return dx, dy


def overlapping_pairs(labels: Iterable[Label], gap: float = 0.0) -> list[tuple[str, str]]:
    """Return the keys of every pair of labels whose boxes are less than ``gap`` apart (overlap)."""
    items = list(labels)
    boxes = [lab.box for lab in items]
    return [(items[i].key, items[j].key) for i in range(len(items)) for j in range(i + 1, len(items))
            if boxes[i].overlaps(boxes[j], gap / 2)]


#: pushes leave this much more than the gap asked for, so that rounding never re-creates an overlap
_SLACK = 0.01



def resolve_overlaps(labels: Iterable[Label], pad: float = 2.0, bounds: Box | None = None,
                     max_rounds: int = 200) -> dict[str, tuple[float, float]]:
    """Return new anchor positions ``{key: (x, y)}`` such that no two label boxes come closer
    than ``pad``.

    Each round pushes every overlapping pair apart along the axis where they overlap least, the
    push shared by their weights (a weight-0 label stays put), and keeps boxes within ``bounds``.
    If overlaps remain after ``max_rounds`` (a crowd pushing back and forth), the labels are
    settled in order: each stays if it clears the ones before it, else moves to the nearest free
    point around it.
    Deterministic: the result depends only on the labels given, in their order. Stops after
    ``max_rounds`` rounds if the boxes cannot all fit (too many for ``bounds``); check with
    :func:`overlapping_pairs`.
    """
    items = list(labels)
    n = len(items)
    x = [lab.x for lab in items]
    y = [lab.y for lab in items]
    ox = [lab.dx for lab in items]
    oy = [lab.dy for lab in items]
    w = [lab.width for lab in items]
    h = [lab.height for lab in items]
    weight = [lab.weight for lab in items]

    def clamp(i: int) -> None:
        sx, sy = _clamp_shift(x[i] + ox[i], y[i] + oy[i], w[i], h[i], bounds)
        x[i] += sx
        y[i] += sy

    for i in range(n):
        clamp(i)
    for _ in range(max_rounds):
        moved = False
        for i in range(n):
            for j in range(i + 1, n):
                li, ti = x[i] + ox[i], y[i] + oy[i]
                lj, tj = x[j] + ox[j], y[j] + oy[j]
                over_x = min(li + w[i], lj + w[j]) - max(li, lj) + pad
                over_y = min(ti + h[i], tj + h[j]) - max(ti, tj) + pad
                if over_x <= 0 or over_y <= 0:
                    continue
                total = weight[i] + weight[j]
                if total == 0:
                    continue
                share_i, share_j = weight[i] / total, weight[j] / total
                if over_y <= over_x:
                    sign = -1.0 if (ti + h[i] / 2, i) < (tj + h[j] / 2, j) else 1.0
                    push = over_y + _SLACK
                    y[i] += sign * push * share_i
                    y[j] -= sign * push * share_j
                else:
                    sign = -1.0 if (li + w[i] / 2, i) < (lj + w[j] / 2, j) else 1.0
                    push = over_x + _SLACK
                    x[i] += sign * push * share_i
                    x[j] -= sign * push * share_j
                clamp(i)
                clamp(j)
                moved = True
        if not moved:
            break
    else:  # a crowd pushing back and forth: place what still overlaps in the nearest free room
        _settle(x, y, ox, oy, w, h, weight, pad, bounds)
    return {lab.key: (x[i], y[i]) for i, lab in enumerate(items)}


def _settle(x: list[float], y: list[float], ox: list[float], oy: list[float], w: list[float], h: list[float],
            weight: list[float], pad: float, bounds: Box | None, rings: int = 200) -> None:
    """Keep each label, in order (fixed ones first), where it is if it clears those kept before it,
    else move it to the nearest point of a spiral around it where it does (in place)."""
    n = len(x)
    kept: list[tuple[float, float, float, float]] = []

    def clear(i: int, px: float, py: float) -> bool:
        left, top = px + ox[i], py + oy[i]
        right, bottom = left + w[i], top + h[i]
        if bounds is not None and (left < bounds.left or top < bounds.top or right > bounds.right
                                   or bottom > bounds.bottom):
            return False
        return not any(left - pad < r and l < right + pad and top - pad < b and t < bottom + pad
                       for l, t, r, b in kept)

    order = [i for i in range(n) if weight[i] == 0] + [i for i in range(n) if weight[i] != 0]
    step = max(2.0, min(min(h), 8.0) / 2)
    for i in order:
        spot = (x[i], y[i])
        if weight[i] != 0 and not clear(i, x[i], y[i]):
            for ring in range(1, rings + 1):
                radius = ring * step
                count = max(8, int(2 * math.pi * radius / step))
                found = [(x[i] + radius * math.cos(2 * math.pi * k / count),
                          y[i] + radius * math.sin(2 * math.pi * k / count)) for k in range(count)]
                found = [p for p in found if clear(i, *p)]
                if found:
                    spot = found[0]
                    break
        x[i], y[i] = spot
        kept.append((x[i] + ox[i], y[i] + oy[i], x[i] + ox[i] + w[i], y[i] + oy[i] + h[i]))
