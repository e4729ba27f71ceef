"""Paper 001 (Freund, Schapire, the voted Perceptron), sec. 5: Table 1 and Figure 2 on MNIST.

- ``fs-mnist``: the voted Perceptron with polynomial kernels, test error against
  epochs for the seven predictions, SupVec and Mistake, with a report that checks
  the paper's claims on our numbers.
"""

from __future__ import annotations

from .._validation import check_bool
from ..experiments import voted_epochs_curve
from ..experiments._cells import check_n_jobs
from ..experiments.voted_epochs import VOTE_PREDICTIONS, prediction_label
from ..plots import plot_voted_epochs
from ..plots.style import add_caption
from .common import (
    Reproduction,
    load_real,
    markdown_table,
    mean_of,
    percent,
    provenance,
    provenance_line,
    seed_range,
    size_line,
    subsample,
)

#: Paper 001 sec. 5 at the size the machine allows (the paper: 10 permutations, T up to
#: 30), and the quick sizes.
FS_FULL = {"n_train": None, "n_test": None, "degrees": (1, 2, 3, 4, 5, 6),
           "epochs": (0.1, 1, 2), "seeds": 1}

FS_QUICK = {"n_train": 2000, "n_test": 1000, "degrees": (1, 2, 3, 4, 5, 6),
            "epochs": (0.1, 1, 2), "seeds": 1}


def fs_mnist_records(*, seeds=None, quick=False, n_jobs=None, progress=False, cache=None,
                     data_home=None, download=False, degrees=None,
                     epochs=None) -> list[dict]:
    """Paper 001 sec. 5 on MNIST: voted Perceptron, polynomial kernels, test error vs epochs.

    Raw pixels 0..255 and the kernel (1 + x . z)^d, as paper 001 (see
    :func:`~perceptron_bounds.datasets.load_mnist`); one-vs-rest over the 10 digits;
    the seven predictions of
    :data:`~perceptron_bounds.experiments.voted_epochs.VOTE_PREDICTIONS`; SupVec and Mistake. Sizes: :data:`FS_FULL` (60,000 + 10,000 examples, d = 1..6, T = 0.1, 1, 2,
    one permutation) or :data:`FS_QUICK`; ``seeds`` sets the number of permutations,
    ``degrees`` and ``epochs`` override the sizes' own.
    """
    check_n_jobs(n_jobs)
    quick = check_bool("quick", quick)
    size = FS_QUICK if quick else FS_FULL
    degrees = size["degrees"] if degrees is None else tuple(degrees)
    epochs = size["epochs"] if epochs is None else tuple(epochs)
    seed_list = list(seed_range(seeds, size["seeds"]))
    train, test = load_real("mnist", data_home, download)
    X, y = subsample(train.X, train.y, size["n_train"])
    X_test, y_test = subsample(test.X, test.y, size["n_test"])
    meta = provenance("fs-mnist", quick=quick, n_seeds=len(seed_list), data="mnist",
                      n_train=X.shape[0], n_test=X_test.shape[0])
    rows = voted_epochs_curve((X, y), (X_test, y_test), degrees=degrees, epochs=epochs,
                              seeds=seed_list, n_jobs=n_jobs, progress=progress, cache=cache)
    return [{**meta, **row} for row in rows]


def draw_fs_mnist(records, **options):
    """The figure of :func:`fs_mnist_records`: paper 001's Figure 2, a panel per degree."""
    meta = records[0]
    fig = plot_voted_epochs(records)
    add_caption(
        fig,
        f"Data: MNIST, {meta['n_train']} training and {meta['n_test']} test images, raw pixels "
        "0..255; kernel (1 + x·z)^d; one voted Perceptron per digit (one-vs-rest), the "
        "training set in a random permutation per seed, cycled. SupVec: training instances "
        "on which any digit's run erred; Mistake: the ten runs' mistakes summed. Lines: mean "
        "over permutations.",
        provenance_line(meta),
    )
    return fig


def fs_claims(records) -> list[str]:
    """Paper 001's qualitative claims (sec. 5), each checked on our numbers, one line each."""
    cells = sorted({(row["degree"], row["epochs"]) for row in records})
    error = {(d, e, p): mean_of(records, "test_error", degree=d, epochs=e, prediction=p)
             for d, e in cells for p in {row["prediction"] for row in records}}
    lines = []
    for name in ("vote", "average (unnorm)"):
        wins = [(d, e) for d, e in cells if error[d, e, name] < error[d, e, "last (unnorm)"]]
        early = [(d, e) for d, e in cells if e <= 1]
        early_wins = [cell for cell in wins if cell in early]
        lines.append(
            f"- *{name} beats last (unnorm)*, \"especially prior to convergence\": in "
            f"{len(wins)} of {len(cells)} (d, T) cells; with T <= 1 in {len(early_wins)} of "
            f"{len(early)}."
        )
    worst = [(d, e) for d, e in cells
             if max(error[d, e, p] for p in ("vote", "average (unnorm)", "last (unnorm)",
                                             "random (unnorm)")) == error[d, e, "random (unnorm)"]]
    lines.append(f"- *random performs the worst*: random (unnorm) has the largest error of the "
                 f"four plotted predictions in {len(worst)} of {len(cells)} cells.")
    last = max(e for _, e in cells)
    by_degree = {d: error[d, last, "vote"] for d, e in cells if e == last}
    if 1 in by_degree and 2 in by_degree:
        degrees = sorted(by_degree)
        steps = [f"d = {d}: {100 * by_degree[d]:.2f}%" + (
            "" if i == 0 else f" ({100 * (by_degree[d] - by_degree[degrees[i - 1]]):+.2f})")
            for i, d in enumerate(degrees)]
        drops = {d: by_degree[d] - by_degree[d + 1] for d in degrees if d + 1 in by_degree}
        biggest = max(drops, key=drops.get)
        lines.append(f"- *the big step is d = 1 -> 2*: vote's test error at T = {last:g}: "
                     f"{', '.join(steps)} points; the largest drop is d = {biggest} -> "
                     f"{biggest + 1}.")
    return lines


def fs_markdown(records) -> str:
    """The report of :func:`fs_mnist_records`: Table 1 with our numbers, the paper's claims."""
    meta = records[0]
    degrees = sorted({row["degree"] for row in records})
    epochs = sorted({row["epochs"] for row in records})
    parts = [
        "# Freund & Schapire (paper 001, sec. 5): voted Perceptron on MNIST",
        "",
        size_line(meta) + f" {meta['n_train']} training and {meta['n_test']} test images, "
        f"{meta['n_seeds']} permutation(s); test error in percent, mean over permutations.",
        "",
        "Paper 001's Table 1 is compared by its claims: they are set beside "
        "ours (below).",
    ]
    for degree in degrees:
        rows = []
        for method, normalize in VOTE_PREDICTIONS:
            name = prediction_label(method, normalize)
            rows.append([name] + [percent(mean_of(records, "test_error", degree=degree, epochs=e,
                                                 prediction=name)) for e in epochs])
        for key, name in (("supvec", "SupVec"), ("mistakes", "Mistake")):
            rows.append([name] + [f"{mean_of(records, key, degree=degree, epochs=e):,.0f}"
                                  for e in epochs])
        parts += ["", f"## d = {degree}", "",
                  markdown_table(["T"] + [f"{e:g}" for e in epochs], rows)]
    parts += ["", "## The paper's claims, on our numbers", "", *fs_claims(records),
              "", f"_{provenance_line(meta)}_"]
    return "\n".join(parts)


#: The declaration; calling it returns ``(records, figure, markdown)``.
fs_mnist = Reproduction("fs-mnist", "figure", "paper 001, sec. 5, Table 1 and Figure 2",
                        fs_mnist_records, draw_fs_mnist, fs_markdown, real=True, quick=FS_QUICK)
