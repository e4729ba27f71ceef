"""``run_online``: the one entry point that runs any registered algorithm."""

from __future__ import annotations

import warnings
from contextlib import contextmanager, nullcontext

import numpy as np

from ._fingerprint import class_parts, x_part, y_part
from ._interrupt import interruptible, reporting
from ._progress import BAR_DELAY, announcing_compilation, bar
from ._sequence import check_seed, draw_seed, presentation_order, trial_draws
from ._validation import (
    Data,
    check_bool,
    check_class_labels,
    check_int,
    check_labels,
    check_X,
    distinct_labels_warning,
)
from .algorithms import available, get
from .algorithms.ovr import class_data, multiclass_mistake_trials
from .hypothesis import OneVsRestHypothesis
from .kernels import Kernel, check_norms_in_range, kernel_of
from .registry import check_params
from .run import OnlineRun

MULTICLASS = ("ovr", "native")
_BINARY_CLASSES = np.array([-1, 1])


@interruptible()
def run_online(
    algorithm: str,
    X,
    y,
    *,
    epochs: int = 1,
    shuffle: bool = False,
    seed: int | None = None,
    record_margins: bool = False,
    classes=None,
    warm_start: OnlineRun | None = None,
    multiclass: str | None = None,
    progress: bool = False,
    **params,
) -> OnlineRun:
    """Run an online algorithm over a presented sequence of (X, y) and record it.

    Parameters
    ----------
    algorithm : str
        A name from ``perceptron_bounds.algorithms.available()``.
    X : array-like of shape (n_samples, n_features) or scipy.sparse matrix
        Instances; CSR input is accepted by every form (a dual run on CSR X keeps
        its support vectors as a CSR matrix). A data file larger than memory runs
        streamed by :func:`perceptron_bounds.run_file` (the same run, chunk by chunk).
    y : array-like of shape (n_samples,)
        Labels: any two distinct values, mapped to -1/+1 in sorted order (theory §1.6),
        or any K >= 2 distinct values for a multiclass run (class k is the k-th
        in sorted order, theory §2.6).
    epochs : int, default=1
        Number of passes over the rows of X (theory §1.2).
    shuffle : bool, default=False
        Present each epoch in a fresh permutation drawn from
        ``numpy.random.default_rng(seed)``.
    seed : int or None, default=None
        Seed of the permutations and of a randomized algorithm's draws (one uniform
        per trial from a stream of its own, theory §1.2). With ``shuffle=True`` or a
        randomized algorithm and no seed, a seed is drawn from the OS and recorded in
        the run, so every run can be replayed.
    record_margins : bool, default=False
        Keep the margin of every trial in ``OnlineRun.margins``.
    classes : array-like of labels, optional
        Every label value of the stream, when ``y`` may not show them all (a
        batch of a stream): two for a binary run, K for a multiclass one.
    warm_start : OnlineRun, optional
        Continue from the final state of this run (same algorithm and parameters;
        ``form="auto"`` keeps the form it used). Trial indices of the new run
        start again at 0. A multiclass run continues a multiclass run of the
        same classes and ``multiclass``: each class run its own (one-vs-rest),
        the prototypes (native).
    multiclass : {None, "ovr", "native"}, default=None
        ``None``: a binary run for two classes and ``"ovr"`` for more (a warm
        start keeps its own). ``"ovr"``: one-vs-rest, the K binary runs "class
        k (+1) against the rest (-1)" on the same presented sequence, each
        exactly the binary run of that problem alone, kept in ``class_runs``;
        the scores s_r are the class runs' margins and a trial is a multiclass
        mistake iff s_y <= max_{r != y} s_r (a tie is one, theory §2.6).
        ``"native"``: the algorithm's own multiclass form, one prototype per
        class (``"perceptron"`` and ``"ballseptron"``, paper 004 sec. 4).
        Both are allowed on two classes.
    progress : bool, default=False
        Say what is happening on stderr: one line while Numba compiles the loops
        (a cold cache), and a progress bar over the trials once the run takes
        over a second (a line every 10 s off a terminal, under the command line).
    **params
        The algorithm's own parameters (e.g. ``r`` for the Ballseptron, the
        kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0``).

    Returns
    -------
    OnlineRun

    Warns
    -----
    UserWarning
        When ``y`` gives each of at least 10 rows a label of its own (as many classes as
        rows): every trial is then a mistake, a sign that ``y`` is not a label.

    Raises
    ------
    TypeError, ValueError
        On bad input, before any trial runs: unknown algorithm or parameter,
        X not 2-D, empty, NaN, infinite or overflowing values, length mismatch,
        a single label value, labels that are non-integer numbers (a continuous
        target, not classes), a nonzero row whose norm (in the kernel's feature
        space) is outside about [1.5e-154, 1.3e154] (``check_rows_in_range``),
        epochs < 1, a parameter out of its range (or, for
        a ``poly`` kernel, kernel values beyond 1e300 on X), a warm start of
        another algorithm, with other parameters, classes or ``multiclass``,
        ``multiclass`` not one of None, "ovr", "native", or "native" for an
        algorithm without a native multiclass form.
    KeyboardInterrupt
        On Ctrl-C (SIGINT) in the main thread: the run's loop stops within a
        few milliseconds (between trials) and no part of the run is returned.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> run = run_online("perceptron", X, [1, 1, -1, -1], epochs=2)
    >>> run.mistakes, run.mistake_trials.tolist()
    (2, [0, 1])

    Three classes: one-vs-rest, one binary run per class.

    >>> X3 = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    >>> run = run_online("perceptron", X3, ["a", "b", "c"], epochs=2)
    >>> run.multiclass, run.mistake_trials.tolist(), run.corrections
    ('ovr', [0, 1], 10)
    >>> run.decision_function(X3).shape, run.predict(X3).tolist()
    ((3, 3), ['a', 'b', 'c'])
    """
    spec = check_params(algorithm, params)
    algorithm = spec.name  # a former name (deprecated) is recorded as the current one
    epochs = check_int("epochs", epochs, low=1)
    shuffle = check_bool("shuffle", shuffle)
    seed = check_seed(seed)
    record_margins = check_bool("record_margins", record_margins)
    progress = check_bool("progress", progress)
    multiclass = _check_multiclass(multiclass, spec)
    n_features = None
    if warm_start is not None:
        if not isinstance(warm_start, OnlineRun) or warm_start.algorithm != algorithm:
            got = (f"an OnlineRun of {warm_start.algorithm!r}"
                   if isinstance(warm_start, OnlineRun) else type(warm_start).__name__)
            raise ValueError(f"warm_start must be an OnlineRun of {algorithm!r}, got {got}")
        if multiclass is None:
            multiclass = warm_start.multiclass
        elif multiclass != warm_start.multiclass:
            raise ValueError(
                f"multiclass={multiclass!r} differs from the warm start's "
                f"multiclass={warm_start.multiclass!r}"
            )
        n_features = warm_start.n_features
        classes = warm_start.classes if classes is None else classes
    X, sq_norms = check_X(X, n_features=n_features, return_sq_norms=True)
    given_classes = classes is not None
    if multiclass is None and warm_start is None:
        y_index, classes = check_class_labels(y, X.shape[0], classes)
        if classes.shape[0] > 2:
            multiclass = "ovr"
        # y checked once: the class indices, or check_labels' -1/+1 from them (classes[1]
        # maps to +1, theory §1.6)
        y_fit = y_index if multiclass else 2.0 * y_index - 1.0
    elif multiclass is None:
        y_fit, classes = check_labels(y, X.shape[0], classes)
    else:
        y_fit, classes = check_class_labels(y, X.shape[0], classes)
    if warm_start is not None and not np.array_equal(classes, warm_start.classes):
        raise ValueError(
            f"classes {classes.tolist()} differ from the warm start's {warm_start.classes.tolist()}"
        )
    alone = None if given_classes else distinct_labels_warning(classes.shape[0], X.shape[0])
    if alone is not None:
        warnings.warn(alone, UserWarning, stacklevel=3)
    data = Data(X, y_fit, classes)
    if warm_start is None:
        resolved = spec.resolve({**spec.defaults, **params}, data)
    else:
        resolved = _resolve_warm(spec, params, data, warm_start)
    check_rows_in_range(spec, resolved, X, sq_norms)
    if (shuffle or spec.randomized) and seed is None:
        seed = draw_seed()
    order = presentation_order(data.n_samples, epochs, shuffle, seed)
    if spec.randomized:
        data = Data(data.X, data.y, data.classes, trial_draws(seed, order.shape[0]))
    hx = x_part(X)
    record = {"algorithm": algorithm, "params": resolved, "n_features": data.n_features,
              "epochs": epochs, "shuffle": shuffle, "seed": seed, "sample_index": order,
              "warm_started": warm_start is not None}
    passes = (classes.shape[0] if multiclass == "ovr" and spec.fit_ovr is None else 1)
    with _progress(progress, algorithm, order.shape[0], passes) as trials_of:
        if multiclass == "ovr":
            return _one_vs_rest(spec, data, order, record, record_margins, warm_start, hx,
                                trials_of)
        n_classes = classes.shape[0]
        with trials_of(0):
            if multiclass == "native":
                margins = np.empty((order.shape[0] if record_margins else 0, n_classes))
                result = spec.fit_native(data, order, resolved, margins, warm_start)
            else:
                margins = np.empty(order.shape[0] if record_margins else 0)
                result = spec.fit(data, order, resolved, margins, warm_start)
    return OnlineRun(
        **record,
        classes=classes,
        mistake_trials=result.mistake_trials,
        margin_error_trials=result.margin_error_trials,
        margins=margins if record_margins else None,
        hypothesis=result.hypothesis,
        state=result.state,
        multiclass=multiclass,
        data_fingerprint=_chain(warm_start, hx, y_fit if multiclass else y_fit > 0),
        queried_trials=result.queried_trials,
    )


def check_rows_in_range(spec, params: dict, X, sq_norms=None) -> None:
    """The norm of every row as the algorithm sees it, checked before any trial
    (``sq_norms``: the rows' sums of squares, when ``check_X`` has them).

    A nonzero row whose norm in the kernel's feature space is outside
    ``kernels.NORM_RANGE`` (below about 1.5e-154: its square underflows) makes its
    margins underflow to 0, so a run would learn nothing from it and say nothing (issue
    31): the one-line ``ValueError`` of ``evaluate``
    (:func:`~perceptron_bounds.kernels.check_norms_in_range`), here where the data enter.
    An algorithm that scales every instance to unit norm first (``instance_map``: ALMA,
    the p-norm Perceptron; ``normalize=True``: the Higher-Order Perceptron, by an exact
    power of two, ``_linalg.lift_tiny_rows``) sees no such row.
    """
    if spec.instance_map is not None or params.get("normalize", False):
        return
    check_norms_in_range(X, kernel_of(params) if "kernel" in params else Kernel(),
                         sq_norms=sq_norms)


def _chain(warm_start: OnlineRun | None, hx: str, labels, hy: str | None = None
           ) -> tuple[str, ...]:
    """The run's ``data_fingerprint``: the warm start's chain (when it has one) and this
    run's (X, labels), X's part ``hx`` computed once (the labels' part ``hy`` too, if
    given)."""
    earlier = () if warm_start is None else warm_start.data_fingerprint or ()
    return (*earlier, hx + (y_part(labels) if hy is None else hy))


@contextmanager
def _progress(shown: bool, algorithm: str, n_trials: int, passes: int):
    """Yield ``trials_of(k)``: a context in which the loop of pass k reports its trials.

    With ``shown``, a bar over the ``passes * n_trials`` trials (the one-vs-rest
    runs without a one-pass form run a loop per class) and the compilation notice;
    else nothing.
    """
    if not shown:
        yield lambda k: nullcontext()
        return
    with announcing_compilation(), bar(passes * n_trials, algorithm, "trial",
                                       delay=BAR_DELAY) as shown_bar:
        def trials_of(k):
            return reporting(lambda t: shown_bar.update(k * n_trials + t - shown_bar.n))

        yield trials_of
        shown_bar.update(passes * n_trials - shown_bar.n)


def _check_multiclass(multiclass, spec) -> str | None:
    """``multiclass`` checked: None, "ovr", or "native" for an algorithm with a native form."""
    if multiclass is not None and (not isinstance(multiclass, str)
                                   or multiclass not in MULTICLASS):
        raise ValueError(f"multiclass must be None, 'ovr' or 'native', got {multiclass!r}")
    if multiclass == "native" and spec.fit_native is None:
        native = [name for name in available() if get(name).fit_native is not None]
        which = (f"only {', '.join(map(repr, native))} ha{'s' if len(native) == 1 else 've'} one"
                 if native else "no registered algorithm has one yet")
        raise ValueError(
            f"multiclass='native' needs a native multiclass form, which {spec.name!r} lacks "
            f"({which}); use multiclass='ovr'"
        )
    return multiclass


def _one_vs_rest(spec, data: Data, order, record: dict, record_margins: bool,
                 warm_start: OnlineRun | None, hx: str, trials_of) -> OnlineRun:
    """The K binary runs "class k against the rest" and the multiclass record over them.

    Through the algorithm's ``fit_ovr`` hook (one pass) when it has one, else
    ``fit`` on each binary problem in turn; either way class run k is exactly
    ``fit`` on y_k = +1 where y = k, -1 elsewhere, continuing
    ``warm_start.class_runs[k]``. The (T, K) margins are always filled: the
    multiclass mistakes are read from them.
    """
    n_classes = data.classes.shape[0]
    margins = np.empty((order.shape[0], n_classes))
    previous = (None,) * n_classes if warm_start is None else warm_start.class_runs
    if spec.fit_ovr is not None:
        with trials_of(0):
            results = spec.fit_ovr(data, order, record["params"], margins, warm_start)
    else:
        results = []
        column = np.empty(order.shape[0])
        for k in range(n_classes):
            with trials_of(k):
                results.append(spec.fit(class_data(data, k), order, record["params"], column,
                                        previous[k]))
            margins[:, k] = column
    parts = class_parts(data.y, n_classes)
    class_runs = tuple(
        OnlineRun(
            **record,
            classes=_BINARY_CLASSES.copy(),
            mistake_trials=result.mistake_trials,
            margin_error_trials=result.margin_error_trials,
            margins=np.ascontiguousarray(margins[:, k]) if record_margins else None,
            hypothesis=result.hypothesis,
            state=result.state,
            data_fingerprint=_chain(previous[k], hx, None, parts[k]),
            queried_trials=result.queried_trials,
        )
        for k, result in enumerate(results)
    )
    queried = [run.queried_trials for run in class_runs if run.queried_trials is not None]
    return OnlineRun(
        **record,
        classes=data.classes,
        mistake_trials=multiclass_mistakes(margins, data.y[order]),
        margins=margins if record_margins else None,
        hypothesis=OneVsRestHypothesis(tuple(run.hypothesis for run in class_runs)),
        multiclass="ovr",
        class_runs=class_runs,
        data_fingerprint=_chain(warm_start, hx, data.y),
        # a label some class run asked for (theory §2.14)
        queried_trials=np.unique(np.concatenate(queried)) if queried else None,
    )


def multiclass_mistakes(scores: np.ndarray, y_index: np.ndarray) -> np.ndarray:
    """Trials t with s_{t, y_t} <= max_{r != y_t} s_{t, r}: the multiclass mistakes (theory §2.6).

    Parameters
    ----------
    scores : ndarray of shape (T, K)
        The class scores of each trial, before its update.
    y_index : ndarray of int64, shape (T,)
        The true class of each trial.

    Returns
    -------
    ndarray of int64
        The mistaken trials, sorted; a tie with another class is a mistake.

    Examples
    --------
    >>> import numpy as np
    >>> scores = np.array([[0.0, 0.0, 0.0], [2.0, 1.0, -1.0], [1.0, 3.0, 3.0]])
    >>> multiclass_mistakes(scores, np.array([0, 0, 1])).tolist()
    [0, 2]
    """
    return multiclass_mistake_trials(scores, y_index)


def _resolve_warm(spec, given: dict, data: Data, warm_start: OnlineRun) -> dict:
    """A warm start keeps its parameters; any given explicitly must agree with them.

    They are resolved again against the new data, so that a form the new X
    cannot take (e.g. a dual form continued on sparse X) is rejected here, not
    inside a loop. ``form="auto"`` keeps the warm start's form and
    ``gamma="scale"`` or ``"auto"`` its kernel scale: both depend on the data,
    which differs from batch to batch.
    """
    data_dependent = {"form": ("auto",), "gamma": ("scale", "auto")}
    given = {name: value for name, value in given.items()
             if not (isinstance(value, str) and value in data_dependent.get(name, ()))}
    resolved = spec.resolve({**spec.defaults, **warm_start.params, **given}, data)
    for name in given:
        if resolved[name] != warm_start.params[name]:
            raise ValueError(
                f"{name}={resolved[name]!r} differs from the warm start's "
                f"{name}={warm_start.params[name]!r}"
            )
    return resolved
