"""A line chart of the scores over the hands, drawn with Braille dots in the terminal.

Each character cell holds 2 x 4 dots, so a chart of ``width`` x ``height``
cells has ``2*width`` x ``4*height`` points of resolution.  One line per
player, in the player's colour; the y axis is labelled with scores, the x
axis with hand numbers.

>>> text = line_chart([[0, 10, 21], [0, 0, 12]], ["Ann", "Bob"], width=30, height=6)
>>> lines = text.plain.splitlines()
>>> len(lines), lines[0].strip().startswith("21")
(9, True)
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text

from .render import PLAYER_COLORS

__all__ = ["line_chart"]

# Braille dot bits by (x within cell 0..1, y within cell 0..3, top first).
_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def _line(x0: int, y0: int, x1: int, y1: int):
    """The points of a straight line (Bresenham), both ends included."""
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    while True:
        yield x0, y0
        if x0 == x1 and y0 == y1:
            return
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def line_chart(series: Sequence[Sequence[float]], names: Sequence[str], *, width: int = 60,
               height: int = 12, colors: "Sequence[str] | None" = None, x_label: str = "hand") -> Text:
    """Draw ``series`` (one list of y values per player, the same length) as text.

    Point ``i`` of every series is plotted at x = ``i`` (point 0 is the start
    of the game, so point ``i`` is "after hand ``i``").  Returns Rich text of
    ``height + 3`` lines: the plot with its y labels, the x axis, its labels,
    and a legend with each player's last value.
    """
    colors = list(colors or PLAYER_COLORS)
    count = max((len(s) for s in series), default=0)
    lo = min((min(s) for s in series if len(s)), default=0)
    hi = max((max(s) for s in series if len(s)), default=0)
    lo = min(lo, 0)
    if hi == lo:
        hi = lo + 1
    labels = [f"{hi:g}", f"{(hi + lo) / 2:g}" if height > 2 else "", f"{lo:g}"]
    label_w = max(len(x) for x in labels)
    suffix = f"  ({x_label})"
    plot_w = max(4, width - label_w - 2 - len(suffix))
    height = max(2, height)
    px_w, px_h = plot_w * 2, height * 4
    cells = [[0] * plot_w for _ in range(height)]
    owner = [[-1] * plot_w for _ in range(height)]

    def px(i: int) -> int:
        return 0 if count <= 1 else round(i * (px_w - 1) / (count - 1))

    def py(v: float) -> int:
        return round((hi - v) * (px_h - 1) / (hi - lo))

    for k, s in enumerate(series):
        pts = [(px(i), py(v)) for i, v in enumerate(s)]
        if len(pts) == 1:
            pts = pts * 2
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            for x, y in _line(x0, y0, x1, y1):
                cx, cy = x // 2, y // 4
                cells[cy][cx] |= _DOTS[x % 2][y % 4]
                owner[cy][cx] = k
    out = Text()
    mid_row = height // 2
    for r in range(height):
        label = labels[0] if r == 0 else labels[2] if r == height - 1 else labels[1] if r == mid_row else ""
        out.append(label.rjust(label_w) + " ┤" if label else " " * label_w + " │", style="dim")
        for c in range(plot_w):
            bits = cells[r][c]
            if bits:
                out.append(chr(0x2800 + bits), style=colors[owner[r][c] % len(colors)])
            else:
                out.append(" ")
        out.append("\n")
    out.append(" " * label_w + " └" + "─" * plot_w + "\n", style="dim")
    # x labels: the first and last hand numbers, and a few in between when there is room.
    axis = [" "] * plot_w
    hands = count - 1
    if hands >= 1:
        step = max(1, hands // max(1, plot_w // 8))
        for i in list(range(0, hands + 1, step)) + [hands]:
            text = str(i)
            x = px(i) // 2
            x = min(x, plot_w - len(text))
            if all(a == " " for a in axis[max(0, x - 1):x + len(text) + 1]):
                axis[x:x + len(text)] = list(text)
    out.append(" " * (label_w + 2) + "".join(axis) + suffix + "\n", style="dim")
    for k, name in enumerate(names):
        if k:
            out.append("   ")
        out.append("━━ ", style=colors[k % len(colors)])
        last = series[k][-1] if series[k] else 0
        out.append(f"{name} {last:g}", style=colors[k % len(colors)])
    return out
