"""What every figure of the toolkit shares: the marker cycle."""

#: Marker of the i-th curve (or bound) of a figure: ``MARKERS[i % len(MARKERS)]``.
MARKERS = ("o", "s", "^", "v", "D", "*", "P", "X", "<", ">")
