"""The Ballseptron's update cases (paper 004, Fig. 2; theory §2.3), shared by its loops.

The binary loops (:mod:`.ballseptron`), the one-vs-rest loops (:mod:`.ovr`)
and the native multiclass loops (:mod:`.native`) name a trial's case with
these codes; the binary and one-vs-rest loops decide it with :func:`ball_case`
and keep their scale factors within :func:`scale_in_range` (:func:`rescaled`,
also ROMMA's, :mod:`.romma`).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

NO_UPDATE, MISTAKE, MARGIN_ERROR = 0, 1, 2

# A scale factor w = scale * v is folded into v (or the coefficients) when it leaves
# [TINY, 1/TINY] in absolute value (this includes scale = 0, when 1 - r/||w|| = 0), so that
# neither it nor the coefficients y/scale overflow.
TINY = 1e-100


@jit
def ball_case(signed_margin, norm_sq, r):
    """Fig. 2's case for y_t w.x_t = ``signed_margin``, and the factor a of w <- a w + y_t x_t.

    A mistake (y_t w.x_t <= 0) has a = 1; a margin error
    (y_t w.x_t / ||w|| <= r) has a = 1 - r/||w||, which may be <= 0.
    """
    if signed_margin <= 0.0:
        return MISTAKE, 1.0
    norm = np.sqrt(norm_sq)
    if signed_margin / norm > r:
        return NO_UPDATE, 1.0
    return MARGIN_ERROR, 1.0 - r / norm


@jit
def scale_in_range(scale):
    """True when a scale factor may stay unfolded: TINY <= |scale| <= 1/TINY."""
    return TINY <= abs(scale) <= 1.0 / TINY


@jit
def rescaled(scale, a, coef, k):
    """``scale * a``, or 1 after folding ``scale * a`` into coef[:k] when it is tiny or huge."""
    scale *= a
    if scale_in_range(scale):
        return scale
    for j in range(k):
        coef[j] *= scale
    return 1.0
