"""The papers' figures and tables, reproduced: one module per paper, one registry.

- :mod:`.freund_schapire`: paper 001 sec. 5 on MNIST (``fs-mnist``);
- :mod:`.higher_order`: paper 000, Figure 2 (``hop-fig2``), Tables 3 and 2
  (``hop-ocr``, ``hop-rcv1``);
- :mod:`.hop_dna`: paper 000, Table 1 on the user's DNA microarray files (``hop-dna``);
- :mod:`.second_order`: paper 003 sec. 5 (``sop-toy``);
- :mod:`.ballseptron`: paper 004, Fig. 3 (``ballseptron-noise``, ``ballseptron-radius``,
  on synthetic data, a data file, MNIST or USPS);
- :mod:`.bounds_mnist`: every algorithm's mistakes against every bound, on MNIST
  (``bounds-mnist``);
- :mod:`.selective`: selective sampling (CGZ06), labels queried against mistakes
  (``selective-sampling``, on synthetic data, a data file or a real binary task);
- :mod:`.budget_mnist`: the budget Perceptrons' test error, mistakes and bounds
  against the budget B, on MNIST (``budget-mnist``);
- :mod:`.tracking`: drifting data, mistakes and fixed and shifting bounds against the
  number of shifts (``tracking``), and on MNIST made to drift (``tracking-mnist``).

Each reproduction is a :class:`~.common.Reproduction`: its experiment returns the
tidy records (``perceptron_bounds.experiments`` does the runs), its drawing the
figure, its report (real data) the Markdown that sets the paper's numbers beside
ours; calling it returns them together, and :func:`~.writer.save_figure` writes
them (PNG, PDF, CSV and the report), as ``perceptron-bounds figure`` and ``table``
do, both reading :data:`REPRODUCTIONS`.
"""

from . import (
    ballseptron,
    bounds_mnist,
    budget_mnist,
    freund_schapire,
    higher_order,
    hop_dna,
    second_order,
    selective,
    tracking,
)
from .common import Reproduction, provenance, provenance_line
from .writer import save_figure

#: Every reproduction by name (``ballseptron-radius --data mnist|usps``:
#: ``ballseptron-radius-real``), in the order the commands list them.
REPRODUCTIONS = {
    "hop-fig2": higher_order.hop_fig2,
    "ballseptron-noise": ballseptron.ballseptron_noise,
    "ballseptron-radius": ballseptron.ballseptron_radius,
    "sop-toy": second_order.sop_toy_figure,
    "selective-sampling": selective.selective_sampling,
    "tracking": tracking.tracking,
    "fs-mnist": freund_schapire.fs_mnist,
    "bounds-mnist": bounds_mnist.bounds_mnist,
    "budget-mnist": budget_mnist.budget_mnist,
    "tracking-mnist": tracking.tracking_mnist,
    "ballseptron-radius-real": ballseptron.ballseptron_radius_real,
    "selective-sampling-real": selective.selective_sampling_real,
    "hop-ocr": higher_order.hop_ocr,
    "hop-rcv1": higher_order.hop_rcv1,
    "hop-dna": hop_dna.hop_dna,
}

#: The figures on synthetic data (``perceptron-bounds figure all``).
FIGURES = {name: rep for name, rep in REPRODUCTIONS.items()
           if rep.kind == "figure" and not rep.real}

__all__ = ["FIGURES", "REPRODUCTIONS", "Reproduction", "provenance", "provenance_line",
           "save_figure"]
