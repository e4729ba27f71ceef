"""The presented sequence of an online run (theory §1.2, 1.3).

An online run shows the rows of X one at a time. ``epochs=E`` shows rows
0..n-1 E times; ``shuffle=True`` shows each epoch in a fresh permutation drawn
from ``numpy.random.default_rng(seed)``. The result is the int64 array of the
row shown at each trial; trial indices are positions in it.
"""

from __future__ import annotations

import numpy as np

from ._validation import check_int


def check_seed(seed) -> int | None:
    """Accept None or a non-negative integer seed."""
    if seed is None:
        return None
    return check_int("seed", seed, low=0)


def presentation_order(n_samples: int, epochs: int, shuffle: bool, seed: int | None) -> np.ndarray:
    """Return the row of X shown at each trial, as an int64 array of length epochs * n_samples.

    Parameters
    ----------
    n_samples : int
        Number of rows of X.
    epochs : int
        Number of passes, >= 1.
    shuffle : bool
        False: rows in order every epoch. True: each epoch is
        ``rng.permutation(n_samples)`` with ``rng = numpy.random.default_rng(seed)``.
    seed : int or None
        Seed of the generator (only used with ``shuffle=True``).

    The arguments are trusted: ``run_online`` has validated them.
    """
    if not shuffle:
        rows = np.arange(n_samples, dtype=np.int64)
        return rows if epochs == 1 else np.tile(rows, epochs)  # tile(rows, 1) is a slow copy
    rng = np.random.default_rng(seed)
    return np.concatenate(
        [rng.permutation(n_samples).astype(np.int64, copy=False) for _ in range(epochs)]
    )


def trial_draws(seed: int, n_trials: int) -> np.ndarray:
    """The uniform draws in [0, 1) of a randomized algorithm, one per trial (theory §1.2).

    They come from their own stream of ``seed``, ``SeedSequence(seed, spawn_key=(1,))``,
    independent of the permutations of ``presentation_order`` (which use ``seed`` itself),
    so that shuffling or not leaves an algorithm's draws unchanged, and the run's recorded
    seed replays them.
    """
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,))).random(n_trials)


def draw_seed() -> int:
    """A fresh seed from the operating system's entropy, recorded so a run can be replayed."""
    return int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])

