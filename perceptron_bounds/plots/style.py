"""What every figure of the toolkit shares: the marker cycle and the caption under a figure."""

from __future__ import annotations

import textwrap

#: Marker of the i-th curve (or bound) of a figure: ``MARKERS[i % len(MARKERS)]``.
MARKERS = ("o", "s", "^", "v", "D", "*", "P", "X", "<", ">")

#: The caption's font size in points; small and grey, under the panels.
CAPTION_FONTSIZE = 7.0


def add_caption(fig, *lines: str):
    """Write a small grey caption under a figure's panels and return the Text.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        A figure with constrained layout (as every plot of this package): the
        caption is laid out with the panels, so it never overlaps them.
    *lines : str
        The caption's lines (e.g. what the data are, then the provenance
        ``"perceptron_bounds 0.1.0 · seeds=5 · quick"``); each is wrapped to
        the figure's width.

    Returns
    -------
    matplotlib.text.Text
        The caption (the figure's ``supxlabel``, gid ``"caption"``).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(4, 3), layout="constrained")
    >>> ax = fig.subplots()
    >>> add_caption(fig, "perceptron_bounds 0.1.0 · seeds=5 · quick").get_text()
    'perceptron_bounds 0.1.0 · seeds=5 · quick'
    """
    # A character of the default sans-serif averages about 0.55 em: wrap to the width.
    width = max(20, int(fig.get_figwidth() * 72 / (0.55 * CAPTION_FONTSIZE)) - 4)
    text = "\n".join(textwrap.fill(line, width) for line in lines)
    caption = fig.supxlabel(
        text, x=0.01, ha="left", fontsize=CAPTION_FONTSIZE, color="0.35", linespacing=1.4
    )
    caption.set_gid("caption")
    return caption


#: The colour of a bound family (the module of ``perceptron_bounds.bounds`` that declares
#: it, one per paper or derivation); black stays the mistakes' colour in every figure.
FAMILY_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown",
                  "tab:pink", "tab:olive", "tab:cyan", "navy", "goldenrod", "teal", "maroon",
                  "darkviolet", "slategray", "lime")


def _families() -> dict[str, list[str]]:
    """The declared bounds by family, both in sorted order."""
    from ..bounds import declared, declared_bounds

    families: dict[str, list[str]] = {}
    for name in sorted(declared_bounds()):
        families.setdefault(declared(name).value.__module__.rsplit(".", 1)[-1], []).append(name)
    return dict(sorted(families.items()))


def bound_family(name: str) -> str:
    """The family of a declared bound (its declaring module, e.g. ``"alma"``); else ``name``."""
    return next((family for family, names in _families().items() if name in names), name)


def bound_style(name: str) -> dict:
    """The colour and marker that draw bound ``name`` in every figure.

    A colour per family (:data:`FAMILY_COLOURS`, never black) and, within a
    family, a marker per bound, so that no two declared bounds share both and a
    figure may show all of them; the stated and tightened forms share the style
    and differ by the marker's fill (filled: stated, hollow: tightened).

    Examples
    --------
    >>> bound_style("alma_d2") != bound_style("alma_separable")
    True
    >>> bound_style("novikoff")["color"] == bound_style("freund_schapire")["color"]
    True
    """
    families = _families()
    family = bound_family(name)
    if family not in families:  # not declared: a colour and marker of its own past the rest
        index = sum(map(ord, name))
        return {"color": FAMILY_COLOURS[index % len(FAMILY_COLOURS)],
                "marker": MARKERS[index % len(MARKERS)]}
    f = list(families).index(family)
    i = families[family].index(name)
    return {"color": FAMILY_COLOURS[f % len(FAMILY_COLOURS)],
            "marker": MARKERS[(f + i) % len(MARKERS)]}


def bound_handles(names, *, linestyle="none"):
    """Legend proxies for the bounds ``names``, one each (filled), grouped by family."""
    from matplotlib.lines import Line2D

    order = sorted(dict.fromkeys(names), key=lambda n: (bound_family(n), n))
    return [Line2D([], [], linestyle=linestyle, markersize=6, label=name, **bound_style(name))
            for name in order]


def variant_handles(*, lines=False):
    """Legend proxies that say how the stated and tightened forms differ."""
    from matplotlib.lines import Line2D

    if lines:
        return [Line2D([], [], color="0.3", linestyle="-", label="stated (solid)"),
                Line2D([], [], color="0.3", linestyle="--", label="tightened (dashed)")]
    return [Line2D([], [], color="0.3", marker="o", linestyle="none", label="stated (filled)"),
            Line2D([], [], color="0.3", marker="o", markerfacecolor="none", linestyle="none",
                   label="tightened (hollow)")]


def figure_legend(fig, handles, *, max_rows: int = 18, fontsize: float = 7.0, title=None):
    """One legend for the whole figure, right of its panels, in as many columns as keep it
    at most ``max_rows`` rows (constrained layout makes room for it: never clipped, never
    over the caption below the panels)."""
    ncol = max(1, -(-len(handles) // max_rows))
    return fig.legend(handles=handles, loc="outside right upper", ncol=ncol,
                      fontsize=fontsize, title=title, title_fontsize=fontsize,
                      alignment="left", columnspacing=1.0, handletextpad=0.4)


def series_style(i: int) -> dict:
    """The colour and marker of the i-th series of a figure (an algorithm, a curve): no two of
    the first 80 share both (16 colours, none black, against 10 markers)."""
    return {"color": FAMILY_COLOURS[i % len(FAMILY_COLOURS)], "marker": MARKERS[i % len(MARKERS)]}


#: Where :func:`label_points` tries a label, in points from its point: below left first.
LABEL_OFFSETS = ((-5, -5, "right", "top"), (5, -5, "left", "top"), (-5, 5, "right", "bottom"),
                 (5, 5, "left", "bottom"), (0, -9, "center", "top"), (0, 9, "center", "bottom"))


def label_points(ax, labels, *, fontsize: float = 7.0, color=None):
    """Write short labels beside points, each where it crosses no line of ``ax`` drawn so far.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        With its curves drawn and its limits set (labels are placed in its current frame).
    labels : iterable of (str, float, float)
        The text and the point (data coordinates).
    fontsize : float, default=7.0
    color : optional
        The labels' colour.

    Returns
    -------
    list of matplotlib.text.Annotation
        Each at the first of :data:`LABEL_OFFSETS` whose box (estimated from the text's
        length) lies inside the axes, no drawn line enters and no earlier label covers; the first offset when
        none is free.
    """
    from matplotlib.transforms import Bbox

    ax.figure.draw_without_rendering()  # the layout and limits the labels will be drawn in
    scale = ax.figure.dpi / 72.0
    taken, notes = [], []
    lines = [line for line in ax.lines
             if line.get_linestyle() not in ("None", "none", "", " ")]
    for text, x, y in labels:
        px, py = ax.transData.transform((x, y))
        width, height = (0.6 * len(text) + 0.6) * fontsize * scale, 1.3 * fontsize * scale
        chosen = LABEL_OFFSETS[0]
        for dx, dy, ha, va in LABEL_OFFSETS:
            x0 = px + dx * scale - {"right": width, "left": 0.0, "center": width / 2}[ha]
            y0 = py + dy * scale - {"top": height, "bottom": 0.0}[va]
            box = Bbox.from_bounds(x0, y0, width, height)
            crossed = any(_enters(line, box) for line in lines) or any(
                box.overlaps(other) for other in taken) or not (
                ax.bbox.x0 <= box.x0 and box.x1 <= ax.bbox.x1 and ax.bbox.y0 <= box.y0
                and box.y1 <= ax.bbox.y1)
            if not crossed:
                chosen = (dx, dy, ha, va)
                taken.append(box)
                break
        dx, dy, ha, va = chosen
        notes.append(ax.annotate(text, (x, y), textcoords="offset points", xytext=(dx, dy),
                                 ha=ha, va=va, fontsize=fontsize, color=color, zorder=5))
    return notes


def _enters(line, box) -> bool:
    """Whether the drawn segments of ``line`` enter ``box`` (display coordinates)."""
    import numpy as np

    xy = np.column_stack(line.get_data()).astype(float)
    xy = line.get_transform().transform(xy)
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    if len(xy) < 2:
        return False
    t = np.linspace(0.0, 1.0, 50)[:, None, None]
    points = (xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2)
    return bool(np.any((points[:, 0] > box.x0) & (points[:, 0] < box.x1)
                       & (points[:, 1] > box.y0) & (points[:, 1] < box.y1)))
