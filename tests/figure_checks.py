"""What makes a figure unreadable, found on the rendered figure (issue 35).

:func:`problems` lists, for a matplotlib Figure drawn at the saved 150 dpi:

- a legend (of an axes or of the figure) that leaves the figure: it is clipped;
- a legend longer than :data:`MAX_ENTRIES` in one column;
- two series of the figure's legends drawn alike: same colour, marker, marker fill
  and line style (the stated and tightened forms of a bound differ by the fill);
- tick labels smaller than :data:`MIN_TICK_POINTS`;
- annotations that overlap one another or a drawn line (a curve, a bound).
"""

from __future__ import annotations

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D

MAX_ENTRIES = 24
MIN_TICK_POINTS = 6.5


def _legends(fig):
    return [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]


def _look(handle):
    """How a legend handle is drawn: (colour, marker, filled, line style), or None."""
    if isinstance(handle, Line2D):
        line = handle
    elif hasattr(handle, "lines") and handle.lines and isinstance(handle.lines[0], Line2D):
        line = handle.lines[0]  # an errorbar container
    else:
        return None
    marker = line.get_marker()
    marker = None if marker in ("None", "none", "", " ", None) else marker
    style = line.get_linestyle()
    style = None if style in ("None", "none", "", " ") else style
    face = line.get_markerfacecolor()
    filled = face not in ("none", "None") and to_rgba(face)[3] > 0
    return (tuple(round(c, 3) for c in to_rgba(line.get_color())), marker,
            filled if marker else None, style)


def problems(fig) -> list[str]:
    """Everything :mod:`figure_checks` finds wrong with ``fig`` (empty: readable)."""
    fig.set_dpi(150)
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    found = []
    seen = {}
    for legend in _legends(fig):
        extent = legend.get_window_extent(renderer)
        if (extent.x0 < box.x0 - 1 or extent.y0 < box.y0 - 1 or extent.x1 > box.x1 + 1
                or extent.y1 > box.y1 + 1):
            found.append(f"legend clipped: {extent.bounds} outside {box.bounds}")
        texts = [t.get_text() for t in legend.get_texts()]
        if len(texts) / max(1, legend._ncols) > MAX_ENTRIES:
            found.append(f"legend of {len(texts)} entries in {legend._ncols} column(s)")
        for handle, text in zip(legend.legend_handles, texts, strict=True):
            look = _look(handle)
            if look is None:
                continue
            if look in seen and seen[look] != text:
                found.append(f"{text!r} drawn as {seen[look]!r}: {look}")
            seen.setdefault(look, text)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for label in [*ax.get_xticklabels(), *ax.get_yticklabels()]:
            if label.get_text() and label.get_visible() and label.get_fontsize() < MIN_TICK_POINTS:
                found.append(f"tick label {label.get_text()!r} at {label.get_fontsize()} pt")
                break
        notes = [t for t in ax.texts if isinstance(t, matplotlib.text.Annotation)]
        boxes = [t.get_window_extent(renderer) for t in notes]
        for i, first in enumerate(boxes):
            for j in range(i + 1, len(boxes)):
                if first.overlaps(boxes[j]):
                    found.append(f"annotations {notes[i].get_text()!r} and "
                                 f"{notes[j].get_text()!r} overlap")
        for note, extent in zip(notes, boxes, strict=True):
            for line in ax.lines:
                if line.get_linestyle() in ("None", "none", "", " ") or not line.get_visible():
                    continue
                if _crosses(line, extent):
                    found.append(f"annotation {note.get_text()!r} on the line "
                                 f"{line.get_label()!r}")
                    break
    return found


def _crosses(line, extent) -> bool:
    """Whether the drawn segments of ``line`` pass through the box ``extent`` (pixels)."""
    xy = line.get_transform().transform(np.column_stack(line.get_data()).astype(float))
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    if len(xy) < 2:
        return False
    t = np.linspace(0.0, 1.0, 50)[:, None, None]
    points = (xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2)
    inside = ((points[:, 0] > extent.x0) & (points[:, 0] < extent.x1)
              & (points[:, 1] > extent.y0) & (points[:, 1] < extent.y1))
    return bool(inside.any())
