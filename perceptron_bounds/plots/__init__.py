"""Figure helpers: they take results (or a run and its data), return a matplotlib Figure
(``mistakes_vs_bounds`` and the teaching plots: their Axes; ``animate_run``: a FuncAnimation)
and never call plt.show(). How figures name and decorate an algorithm's runs is its
:class:`~.presentation.Presentation`, attached beside its registration."""

from .atlas import (  # noqa: F401
    plot_atlas_drift,
    plot_atlas_heatmap,
    plot_atlas_noise,
    plot_atlas_ratios,
    plot_atlas_winners,
)
from .bounds import mistakes_vs_bounds  # noqa: F401
from .budget import plot_budget_curves  # noqa: F401
from .curves import plot_epochs_curve, plot_noise_curve, plot_radius_curve, plot_sop_toy  # noqa: F401
from .real import (  # noqa: F401
    plot_bound_ratios,
    plot_corrections,
    plot_radius_panels,
    plot_voted_epochs,
)
from .selective import plot_selective_sampling  # noqa: F401
from .animation import save_animation  # noqa: F401
from .presentation import (  # noqa: F401
    LegendEntry,
    Presentation,
    Teaching,
    presentation,
    register_presentation,
)
from .teaching import animate_run, plot_mistakes_over_time, plot_run_2d  # noqa: F401
