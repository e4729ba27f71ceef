"""Synthetic generators of the papers and loaders for data files."""

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
    "load_data",
    "make_dominant_eigen",
    "make_hop_artificial",
    "make_separable",
    "make_unit_circle",
]
