"""Synthetic generators of the papers, loaders for data files, and ``add_bias``."""

from .features import add_bias
from .loaders import load_data
from .synthetic import (
    Dataset,
    TrainTest,
    make_dominant_eigen,
    make_hop_artificial,
    make_separable,
    make_unit_circle,
)

__all__ = [
    "Dataset",
    "TrainTest",
    "add_bias",
    "load_data",
    "make_dominant_eigen",
    "make_hop_artificial",
    "make_separable",
    "make_unit_circle",
]
