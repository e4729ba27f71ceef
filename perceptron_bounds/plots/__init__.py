"""Figure helpers: they take results, return a matplotlib Figure (``mistakes_vs_bounds``: its
Axes) and never call plt.show()."""

from .bounds import mistakes_vs_bounds  # noqa: F401
from .curves import plot_epochs_curve, plot_noise_curve, plot_radius_curve, plot_sop_toy  # noqa: F401
