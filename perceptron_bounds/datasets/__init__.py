"""Synthetic generators of the papers, loaders for data files and for the papers' real data
sets (MNIST, Fashion-MNIST, USPS, RCV1), the papers' preprocessing, and ``add_bias``."""

from .features import add_bias
from .loaders import load_data
from .preprocessing import CenterScale, center_and_scale, normalize_rows
from .real import (
    RealData,
    get_data_home,
    load_fashion_mnist,
    load_mnist,
    load_rcv1_tasks,
    load_usps,
)
from .synthetic import (
    Dataset,
    DriftingDataset,
    TrainTest,
    make_dominant_eigen,
    make_drifting,
    make_hop_artificial,
    make_separable,
    make_unit_circle,
)

__all__ = [
    "CenterScale",
    "Dataset",
    "DriftingDataset",
    "RealData",
    "TrainTest",
    "add_bias",
    "center_and_scale",
    "get_data_home",
    "load_data",
    "load_fashion_mnist",
    "load_mnist",
    "load_rcv1_tasks",
    "load_usps",
    "make_dominant_eigen",
    "make_drifting",
    "make_hop_artificial",
    "make_separable",
    "make_unit_circle",
    "normalize_rows",
]
