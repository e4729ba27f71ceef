"""``run_online``: the one entry point that runs any registered algorithm."""

from __future__ import annotations

import numpy as np

from ._sequence import check_seed, draw_seed, presentation_order
from ._validation import Data, check_bool, check_int, check_labels, check_X
from .algorithms import get
from .run import OnlineRun


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
    **params,
) -> OnlineRun:
    """Run an online algorithm over a presented sequence of (X, y) and record it.

    Parameters
    ----------
    algorithm : str
        A name from ``perceptron_bounds.algorithms.available()``.
    X : array-like of shape (n_samples, n_features) or scipy.sparse matrix
        Instances; sparse input is accepted by the linear (primal) forms.
    y : array-like of shape (n_samples,)
        Labels: any two distinct values, mapped to -1/+1 in sorted order (theory §1.6).
    epochs : int, default=1
        Number of passes over the rows of X (theory §1.2).
    shuffle : bool, default=False
        Present each epoch in a fresh permutation drawn from
        ``numpy.random.default_rng(seed)``.
    seed : int or None, default=None
        Seed of the permutations. With ``shuffle=True`` and no seed, a seed is
        drawn from the OS and recorded in the run, so every run can be replayed.
    record_margins : bool, default=False
        Keep the margin of every trial in ``OnlineRun.margins``.
    classes : array-like of two labels, optional
        The two label values, when ``y`` may show only one of them (a batch of a stream).
    warm_start : OnlineRun, optional
        Continue from the final state of this run (same algorithm and parameters;
        ``form="auto"`` keeps the form it used). Trial indices of the new run
        start again at 0.
    **params
        The algorithm's own parameters (e.g. ``r`` for the Ballseptron, the
        kernel parameters ``kernel``, ``degree``, ``gamma``, ``coef0``).

    Returns
    -------
    OnlineRun

    Raises
    ------
    TypeError, ValueError
        On bad input, before any trial runs: unknown algorithm or parameter,
        X not 2-D, empty, NaN, infinite or overflowing values, length mismatch,
        one or more than two label values, epochs < 1, a parameter out of its
        range (or, for a ``poly`` kernel, kernel values beyond 1e300 on X), a
        warm start of another algorithm or with other parameters.

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_bounds import run_online
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> run = run_online("perceptron", X, [1, 1, -1, -1], epochs=2)
    >>> run.mistakes, run.mistake_trials.tolist()
    (2, [0, 1])
    """
    spec = get(algorithm)
    unknown = sorted(set(params) - set(spec.defaults))
    if unknown:
        raise TypeError(
            f"{algorithm!r} got unexpected parameter(s) {', '.join(unknown)}; "
            f"it takes: {', '.join(spec.defaults) or 'none'}"
        )
    epochs = check_int("epochs", epochs, low=1)
    shuffle = check_bool("shuffle", shuffle)
    seed = check_seed(seed)
    record_margins = check_bool("record_margins", record_margins)
    n_features = None
    if warm_start is not None:
        if not isinstance(warm_start, OnlineRun) or warm_start.algorithm != algorithm:
            got = (f"an OnlineRun of {warm_start.algorithm!r}"
                   if isinstance(warm_start, OnlineRun) else type(warm_start).__name__)
            raise ValueError(f"warm_start must be an OnlineRun of {algorithm!r}, got {got}")
        n_features = warm_start.n_features
        classes = warm_start.classes if classes is None else classes
    X = check_X(X, n_features=n_features)
    y_pm, classes = check_labels(y, X.shape[0], classes)
    if warm_start is not None and not np.array_equal(classes, warm_start.classes):
        raise ValueError(
            f"classes {classes.tolist()} differ from the warm start's {warm_start.classes.tolist()}"
        )
    data = Data(X, y_pm, classes)
    if warm_start is None:
        resolved = spec.resolve({**spec.defaults, **params}, data)
    else:
        resolved = _resolve_warm(spec, params, data, warm_start)
    if shuffle and seed is None:
        seed = draw_seed()
    order = presentation_order(data.n_samples, epochs, shuffle, seed)
    margins = np.empty(order.shape[0] if record_margins else 0)
    result = spec.fit(data, order, resolved, margins, warm_start)
    return OnlineRun(
        algorithm=algorithm,
        params=resolved,
        n_features=data.n_features,
        classes=classes,
        epochs=epochs,
        shuffle=shuffle,
        seed=seed,
        sample_index=order,
        mistake_trials=result.mistake_trials,
        margin_error_trials=result.margin_error_trials,
        margins=margins if record_margins else None,
        hypothesis=result.hypothesis,
        state=result.state,
        warm_started=warm_start is not None,
    )


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
