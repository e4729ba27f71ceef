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
