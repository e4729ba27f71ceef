"""Runs over data files larger than memory, and their bounds: :func:`run_file`,
:func:`evaluate_file`.

A run over a file streamed in chunks (:class:`~perceptron_bounds.datasets.chunks.FileChunks`)
is the chain of :func:`~perceptron_bounds.run_online` runs on its chunks, each a warm start
of the one before (the algorithm's state carried whole from chunk to chunk), gathered into
one :class:`~perceptron_bounds.OnlineRun`: the same mistaken trials, margins and final
state as the run on the file read whole, trial for trial, and the same data fingerprint.

:func:`evaluate_file` reads the file again for the bounds of a run at a given comparator
u (:mod:`perceptron_bounds.bounds.streamed`): the report of ``evaluate`` on the file read
whole; a bound that needs the rows at once (the pseudoinverse Second-Order bound, the
Higher-Order bounds on the transformed mistaken rows) is refused in one line.

What streaming supports, and why:

* rows in file order, ``epochs`` passes over the file (each pass reads it again): the
  presented sequence of ``run_online(..., shuffle=False)``. ``shuffle`` needs every row at
  hand to draw a permutation, so it needs the data in memory;
* the linear primal forms (a weight vector, or the Second-Order / AROW / Higher-Order
  matrices of ``n_features``): their state does not grow with the data. A kernel or dual
  form keeps support vectors, i.e. the data, so it is refused; ``form`` is set to
  ``"primal"`` when the algorithm has one (the Higher-Order Perceptron's ``"implicit"``
  form, for p > 2, streams too). Two keep a record that grows with the mistakes, not with
  the trials: the voted Perceptron its vectors, as the mistaken rows (up to the data, on
  noisy data), and the Higher-Order Perceptron the factors of its matrix, one n_features
  vector per matrix update;
* binary data (two labels): the multiclass runs read all labels first, and one-vs-rest
  keeps one run per class; read such a file whole;
* deterministic algorithms: a randomized one draws its uniforms for the whole presented
  sequence at once;
* the algorithms whose chain of warm starts is bit-identical to one run
  (:data:`STREAMED`; checked by ``tests/test_streaming.py`` against every registered
  algorithm), each warm start carrying the state its loop keeps. ROMMA, the shifting and
  the projected Perceptron, the Ballseptron and ALMA_2 keep w as a scale times a vector
  (``state["v"]``, ``state["scale"]``), the last two also a running ||w||^2
  (``state["norm_sq"]``), and ALMA_p (p > 2) its w projected after the link: their warm
  starts continue these as the loop kept them, not w multiplied out, w @ w or g(theta),
  which round differently. The Higher-Order Perceptron carries its w as its loop updated
  it (not A v) and whether a change of A is pending (the next product is then the sweep
  that applies it), the pseudoinverse Second-Order Perceptron its w (not Q^T wc), the
  voted Perceptron its running sum of the norms (not restarted from the last, clamped
  norm). The adaptive Second-Order Perceptron's a_k = c R^2 k takes R over every row
  before the first trial: each chunk's run is given the file's largest squared norm from
  its scan (:data:`FROM_SCAN`). The per-update records that each chunk's run keeps for
  its own updates (AROW's ``state["m"]``, ``state["chi"]``, the Higher-Order
  Perceptron's ``rho``, ``y_v_x``, ``r``, the Second-Order Perceptron's ``a_k`` and
  ``rank_growth``) are joined by the run over the file (:data:`JOINED_STATE`).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import scipy.sparse as sp

from ._fingerprint import SAMPLED_ROWS, x_part, y_part
from ._interrupt import interruptible
from ._validation import check_real
from .algorithms._common import check_memory_budget
from .datasets.chunks import FileChunks
from .registry import check_params
from .registry import get as get_algorithm
from .run import OnlineRun

#: The algorithms a file can be streamed to: a chain of their warm starts is one run, bit
#: for bit (state, margins, mistakes).
STREAMED = ("perceptron", "passive_aggressive", "pnorm", "second_order", "arow",
            "romma", "shifting_perceptron", "projected_perceptron", "ballseptron", "alma",
            "higher_order", "voted_perceptron")
#: Parameters that a chunk's run takes from the file's scan when the run is not given them
#: (the rows before the first trial): (algorithm, name, value) -> (parameter, FileChunks
#: attribute found by ``scan(norms=True)``). The run over the file reports them as given.
FROM_SCAN = {("second_order", "variant", "adaptive"): ("R2", "max_norm_sq")}
#: Records of the state that each chunk's run keeps of its own updates, joined over the
#: chunks: concatenated, or as :data:`_JOINS` says.
JOINED_STATE = {"arow": ("m", "chi"),
                "higher_order": ("rho", "y_v_x", "r", "matrix_updates", "pending"),
                "second_order": ("a_k", "rank_growth")}
#: The default ``memory_budget`` of :func:`run_file`: 256 MiB.
DEFAULT_BUDGET = 256 * 1024 ** 2


def run_file(algorithm: str, path, *, memory_budget: float = DEFAULT_BUDGET, epochs: int = 1,
             shuffle: bool = False, record_margins: bool = False, label_column=None,
             delimiter=None, zero_based="auto", n_features=None, progress: bool = False,
             **params) -> OnlineRun:
    """Run ``algorithm`` over the rows of a data file streamed in chunks, in file order.

    Parameters
    ----------
    algorithm : str
        One of :data:`STREAMED`, in its linear primal form (see the module docstring).
    path : str, os.PathLike or FileChunks
        An svmlight/LIBSVM or CSV/TSV file (labels numbers or unquoted text), plain,
        ``.gz`` or ``.bz2``; or its :class:`~perceptron_bounds.datasets.chunks.FileChunks`
        (scanned once for several runs and evaluations: ``memory_budget`` and the reader
        options are then its own).
    memory_budget : float, default=256 MiB
        Bytes for one chunk's text and arrays (:mod:`perceptron_bounds.datasets.chunks`).
        Not the algorithm's own ``memory_budget`` (the Second-Order Perceptron's, for its
        n x n matrices), which keeps its default unless given in ``params``.
    epochs : int, default=1
        Passes over the file, each a new read of it.
    shuffle : bool, default=False
        Must be False: a permutation of the rows needs them in memory.
    record_margins : bool, default=False
        As :func:`~perceptron_bounds.run_online`.
    label_column, delimiter, zero_based, n_features
        As :func:`~perceptron_bounds.datasets.load_data` takes them.
    progress : bool, default=False
        As :func:`~perceptron_bounds.run_online` (per chunk).
    **params
        The algorithm's parameters.

    Returns
    -------
    OnlineRun
        Equal to ``run_online(algorithm, *load_data(path)[:2], epochs=epochs, ...)``: the
        same mistake trials, margin errors, margins, final state and data fingerprint.

    Raises
    ------
    ValueError
        Before any trial: a bad file (one line naming the line), more than two labels,
        ``shuffle=True``, a randomized algorithm, a kernel or dual form.
    """
    spec = check_params(algorithm, params)
    if spec.name not in STREAMED:
        why = ("it is randomized: its draws are made for the whole presented sequence at once"
               if spec.randomized else "it has no linear primal form: its state keeps support "
               "vectors, i.e. the data")
        raise ValueError(f"{spec.name!r} cannot be streamed: {why}; streamed: "
                         f"{', '.join(STREAMED)}; or read the file with load_data")
    if shuffle:
        raise ValueError("shuffle=True needs the rows in memory (a permutation of them); a "
                         "streamed file is presented in file order: read it with load_data "
                         "to shuffle")
    if spec.randomized:
        raise ValueError(f"{spec.name!r} is randomized: its draws are made for the whole "
                         "presented sequence at once; read the file with load_data")
    if params.get("kernel", "linear") != "linear" or params.get("form") == "dual":
        raise ValueError(f"streaming runs the linear primal forms (a state of n_features "
                         f"numbers), got {params}; a kernel or dual form keeps the data")
    if "form" in spec.defaults:
        params.setdefault("form", "primal")
    wanted = {name: attribute for (algorithm, key, value), (name, attribute) in FROM_SCAN.items()
              if spec.name == algorithm and params.get(key, spec.defaults.get(key)) == value
              and params.get(name) is None}
    chunks = open_chunks(path, memory_budget, label_column, delimiter, zero_based, n_features)
    if chunks.n_rows is None or any(getattr(chunks, name) is None for name in wanted.values()):
        chunks.scan(norms=bool(wanted))
    if chunks.labels.shape[0] != 2:
        raise ValueError(f"{chunks.path}: {chunks.labels.shape[0]} label value(s); streaming "
                         "runs binary data (two labels): read the file with load_data")
    from . import run_online

    n = chunks.n_rows
    scanned = {name: getattr(chunks, attribute) or None for name, attribute in wanted.items()}
    fingerprint = FileFingerprint(chunks)
    records, previous = [], None
    for epoch in range(epochs):
        for X, y, first in chunks:
            run = run_online(spec.name, X, y, classes=chunks.labels, warm_start=previous,
                             record_margins=record_margins, progress=progress,
                             **({**params, **scanned} if previous is None else {}))
            if previous is None and (run.params.get("kernel", "linear") != "linear"
                                     or run.params.get("form") == "dual"):
                raise ValueError(f"{spec.name!r} has no linear primal form to stream")
            if epoch == 0:
                fingerprint.add(X, y, first)
            # what the gathered run needs of each chunk's run; its state only of the last
            records.append({name: getattr(run, name) for name in _JOINED})
            records[-1]["state"] = {name: run.state.get(name)
                                    for name in JOINED_STATE.get(spec.name, ())}
            records[-1]["offset"] = epoch * n + first
            if previous is None:
                resolved = {**run.params, **dict.fromkeys(scanned)}
            previous = run
    return _gathered(previous, resolved, records, fingerprint.text(), n, epochs,
                     record_margins)


@interruptible()
def evaluate_file(run: OnlineRun, path, *, u, gamma=None, memory_budget: float = DEFAULT_BUDGET,
                  label_column=None, delimiter=None, zero_based="auto", n_features=None):
    """:func:`~perceptron_bounds.bounds.evaluate` of ``run`` at a given comparator ``u``, over
    its data file streamed in chunks (the file a :func:`run_file` run, or any run, was made on).

    R, D1, D2, the margins, the p-norms and the spectra of the Second-Order family
    accumulate chunk by chunk (:mod:`perceptron_bounds.bounds.streamed`): the report is the
    in-memory report, its per-row quantities bit for bit, a spectrum summed over chunks
    (more update rows than features) to rounding.

    Parameters
    ----------
    run : OnlineRun
        A binary linear-kernel run made on the file's rows (checked by its data fingerprint).
    path : str, os.PathLike or FileChunks
        The data file, or its chunks, as :func:`run_file` reads them.
    u : ndarray of shape (n_features,)
        The comparator, scaled as ``evaluate`` scales it. Required: the SVM comparator
        search fits on all rows at once.
    gamma : float, optional
        As ``evaluate``: searched per bound when None.
    memory_budget : float, default=256 MiB
        Bytes for one chunk (:mod:`perceptron_bounds.datasets.chunks`), and the most the
        bounds' dense matrices may take (as ``evaluate``'s ``memory_budget``).
    label_column, delimiter, zero_based, n_features
        As :func:`~perceptron_bounds.datasets.load_data` takes them.

    Returns
    -------
    BoundReport

    Raises
    ------
    ValueError
        One line, before the bounds are computed: no ``u`` (or a sequence of them), a
        multiclass or kernel run, a file other than the run's data, dense matrices over the
        budget, a bound that needs the rows at once (the pseudoinverse Second-Order bound,
        which projects every row on the mistakes' span; the Higher-Order bounds, which
        transform the mistaken rows in the order of the mistakes: before the file is read).
    """
    from .bounds.declaration import bounds_of
    from .bounds.evaluate import binary_report, check_memory
    from .bounds.streamed import NEEDS_ROWS, streamed_run_data

    if not isinstance(run, OnlineRun):
        raise TypeError(f"run must be an OnlineRun, got {type(run).__name__}")
    if u is None:
        raise ValueError("evaluating over a streamed file needs a given comparator u: the SVM "
                         "comparator search fits on all rows at once; pass u (e.g. a known "
                         "target, or an SVM fitted on a sample), or read the file with "
                         "load_data and call evaluate")
    if np.ndim(u) != 1:
        raise ValueError(f"u must be one comparator, shape ({run.n_features},), got shape "
                         f"{np.shape(u)}: a comparator sequence (the tracking bounds) has a row "
                         "per trial, as large as the data; evaluate it in memory")
    if run.multiclass is not None or run.params.get("kernel", "linear") != "linear":
        raise ValueError("a streamed file is evaluated for a binary linear-kernel run; read the "
                         "file with load_data and call evaluate")
    if get_algorithm(run.algorithm).transformed_sequence:
        raise ValueError(f"the bounds of a {run.algorithm} run measure u on the transformed "
                         "instances y_t B_(k-1) x_t of its mistakes, which read the mistaken "
                         f"rows in the order of the mistakes: that {NEEDS_ROWS}")
    if gamma is not None:
        gamma = check_real("gamma", gamma, low=0.0, include_low=False)
    chunks = open_chunks(path, memory_budget, label_column, delimiter, zero_based, n_features)
    if chunks.n_rows is None:
        chunks.scan()
    budget, name = chunks.budget, chunks.path
    n = run.n_trials // run.epochs
    if chunks.n_rows != n or chunks.n_features != run.n_features:
        raise ValueError(f"{name}: {chunks.n_rows} rows x {chunks.n_features} features, but "
                         f"the run was made on {n} x {run.n_features}: pass the run's own file")
    check_memory(run, True, budget)  # the mistaken rows are not held dense: summed or kept
    fingerprint = FileFingerprint(chunks)

    def read():
        for X, y, first in chunks:
            fingerprint.add(X, y, first)
            yield X, y, first

    data = streamed_run_data(run, read(), n, u)
    if run.data_fingerprint is not None and fingerprint.text() != run.data_fingerprint[-1]:
        raise ValueError(f"{name} is not the data of this run (its rows or labels differ from "
                         "the run's): pass the run's own file")
    try:
        return binary_report(data, u=u, gamma=gamma)
    except ValueError as exc:
        if NEEDS_ROWS not in str(exc):
            raise
        names = ", ".join(bound.name for bound in bounds_of(run))
        raise ValueError(f"{name}: the bounds of this {run.algorithm} run ({names}) read rows "
                         f"beyond those of its update trials: {NEEDS_ROWS}") from None


def open_chunks(path, memory_budget, label_column=None, delimiter=None, zero_based="auto",
                n_features=None) -> FileChunks:
    """``path`` itself when it is a :class:`FileChunks`, else the file's chunks (not scanned
    yet) within ``memory_budget``."""
    if isinstance(path, FileChunks):
        return path
    return FileChunks(path, check_memory_budget(memory_budget), label_column=label_column,
                      delimiter=delimiter, zero_based=zero_based, n_features=n_features)


#: The per-trial records of the chunk runs, joined into the run over the file.
_JOINED = ("mistake_trials", "margin_error_trials", "margins", "queried_trials")
#: The state records (:data:`JOINED_STATE`) not concatenated, from the chunk runs' ``parts``
#: and their ``mistakes``: a count is summed, indices among a run's mistakes are offset, a_k
#: (the a in force at the start, then after each mistake) continues the last, and what a run
#: without a mistake keeps of its warm start's (``pending``) is left out (None) once the
#: records joined hold a mistake.
_JOINS = {
    "matrix_updates": lambda parts, mistakes: sum(parts),
    "rank_growth": lambda parts, mistakes: np.concatenate(
        [part + offset for part, offset in zip(parts, np.cumsum([0, *mistakes[:-1]]),
                                                strict=True)]),
    "a_k": lambda parts, mistakes: np.concatenate([parts[0], *(part[1:] for part in parts[1:])]),
    "pending": lambda parts, mistakes: None if sum(mistakes) else parts[-1],
}


def _gathered(last: OnlineRun, params: dict, records: list, fingerprint: str, n: int,
              epochs: int, record_margins: bool) -> OnlineRun:
    """The chunk runs' ``records`` as one run, as if made on the file whole."""
    def joined(name):
        parts = [record[name] + record["offset"] for record in records
                 if record[name] is not None]
        return np.concatenate(parts) if parts else None

    state = dict(last.state)
    mistakes = [record["mistake_trials"].shape[0] for record in records]
    for name in records[-1]["state"]:
        parts = [record["state"][name] for record in records]
        if any(part is not None for part in parts):
            state[name] = _JOINS.get(name, lambda parts, mistakes: np.concatenate(parts))(
                parts, mistakes)
            if state[name] is None:
                del state[name]
    return dataclasses.replace(
        last,
        state=state,
        params=params,
        epochs=epochs,
        sample_index=np.tile(np.arange(n, dtype=np.int64), epochs),
        warm_started=False,
        mistake_trials=joined("mistake_trials"),
        margin_error_trials=joined("margin_error_trials"),
        margins=(np.concatenate([record["margins"] for record in records]) if record_margins
                 else None),
        queried_trials=joined("queried_trials"),
        data_fingerprint=(fingerprint,),
    )


class FileFingerprint:
    """The data fingerprint of a streamed file (:mod:`perceptron_bounds._fingerprint`), from
    its chunks: the rows it samples are kept (at most ``SAMPLED_ROWS``), and every label."""

    def __init__(self, chunks: FileChunks):
        self.n, self.n_features, self.labels = chunks.n_rows, chunks.n_features, chunks.labels
        self.step = max(1, -(-self.n // SAMPLED_ROWS))
        self.sampled, self.positive = [], np.empty(self.n, dtype=np.int64)

    def add(self, X, y, first: int) -> None:
        """The chunk of rows ``first, first + 1, ...``."""
        self.positive[first:first + y.shape[0]] = y == self.labels[1]
        rows = np.arange(-first % self.step, X.shape[0], self.step)
        self.sampled.append((first + rows, sp.csr_matrix(X[rows])))

    def text(self) -> str:
        """The fingerprint, once every chunk was added: that of the file read whole (an
        n x n_features CSR matrix holding the sampled rows and no other has the file's
        ``x_part``, since only the sampled rows enter it)."""
        counts = np.zeros(self.n, dtype=np.int64)
        data, indices = [], []
        for rows, X in self.sampled:
            counts[rows] = np.diff(X.indptr)
            data.append(X.data)
            indices.append(X.indices.astype(np.int64))
        indptr = np.concatenate(([0], np.cumsum(counts)))
        sampled = sp.csr_matrix((np.concatenate(data), np.concatenate(indices), indptr),
                                shape=(self.n, self.n_features))
        return x_part(sampled) + y_part(self.positive)
