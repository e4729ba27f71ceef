"""Compiled parsers of svmlight/LIBSVM and CSV text: the bytes of a file in, arrays out.

Why compiled code of our own and not a library: NumPy's ``loadtxt`` and scikit-learn's
svmlight reader spend nearly all of a run's time (4.7 s and 7.7 s on 100,000 x 100 dense
rows, against 8.8 ms for the run); pyarrow's CSV reader is fast but would be a new
dependency of over 100 MB that reads no svmlight; Numba is already the package's compiler.
The parsers here read valid files in one pass at the speed of parsing and *decline* on
anything unusual (a quote, a NaN, a short row, a bad token, indices out of order): the
caller then reads the file with the library reader of before, whose one-line errors name
the row and the column. So every error and every odd file keeps today's answer, and the
fast path only has to be right on what it accepts.

Numbers are converted exactly as ``float()`` (correctly rounded, round half to even) by
the Eisel-Lemire algorithm (D. Lemire, "Number parsing at a gigabyte per second",
Software: Practice and Experience 51(8), 2021; N. Mushtak and D. Lemire, "Fast number
parsing without fallback", 2023, which proves that a 128-bit product of a 19-digit
mantissa and a truncated power of five always decides the rounding): a mantissa of up to
19 significant digits times a 128-bit power of five. A token with more digits, or one
whose result would be subnormal, is marked and converted by ``float()`` afterwards.
"""

from __future__ import annotations

import functools

import numpy as np
import scipy.sparse as sp

from .._jit import jit

_SMALLEST_POWER = -342
_LARGEST_POWER = 308


@functools.cache
def powers_of_five() -> np.ndarray:
    """The 128-bit truncated powers of five 5^q, q = -342..308, as (high, low) uint64 pairs,
    normalised so that the high bit is set (Lemire 2021, sec. 5; fast_float's table);
    computed on first use (about 20 ms), not at import."""
    rows = []
    for q in range(_SMALLEST_POWER, _LARGEST_POWER + 1):
        if q < 0:
            power = 5 ** -q
            z = power.bit_length() - (1 if power & (power - 1) == 0 else 0)
            c = (2 ** (z + 127) if q >= -27 else 2 ** (2 * z + 128)) // power + 1
            while c >= 1 << 128:
                c >>= 1
        else:
            c = 5 ** q
            while c < 1 << 127:
                c <<= 1
            while c >= 1 << 128:
                c >>= 1
        rows.append((c >> 64, c & (2 ** 64 - 1)))
    return np.array(rows, dtype=np.uint64).reshape(-1)


def csr(data, indices, indptr, shape) -> sp.csr_matrix:
    """The CSR matrix of these arrays, kept as they are: scipy's constructor would shrink
    int64 index arrays to int32 (a copy; the loops take both kinds)."""
    X = sp.csr_matrix(shape, dtype=np.float64)
    X.data, X.indices, X.indptr = data, indices, indptr
    return X


_U32 = np.uint64(0xFFFFFFFF)  # the low 32 bits
_FALLBACK = np.uint64(0x7FF8DEADBEEF0001)  # a NaN payload: this token is converted later


@jit
def _multiply(a, b):
    """The 128-bit product of two uint64: (high, low)."""
    a_lo = a & _U32
    a_hi = a >> np.uint64(32)
    b_lo = b & _U32
    b_hi = b >> np.uint64(32)
    p0 = a_lo * b_lo
    p1 = a_lo * b_hi
    p2 = a_hi * b_lo
    p3 = a_hi * b_hi
    middle = (p0 >> np.uint64(32)) + (p1 & _U32) + (p2 & _U32)
    low = (p0 & _U32) | (middle << np.uint64(32))
    high = p3 + (p1 >> np.uint64(32)) + (p2 >> np.uint64(32)) + (middle >> np.uint64(32))
    return high, low


@jit
def _leading_zeros(w):
    """The number of leading zero bits of a nonzero uint64 (a binary search in 6 steps)."""
    n = 0
    for width in (32, 16, 8, 4, 2, 1):
        if w < (np.uint64(1) << np.uint64(64 - width)):
            n += width
            w = w << np.uint64(width)
    return n


@jit
def _to_bits(w, q, negative, powers):
    """The IEEE bits of (-1)^negative * w * 10^q correctly rounded, w < 10^19 (Eisel-Lemire);
    ``_FALLBACK`` for a subnormal result (left to ``float()``)."""
    sign = np.uint64(1) << np.uint64(63) if negative else np.uint64(0)
    if w == np.uint64(0) or q < _SMALLEST_POWER:
        return sign
    if q > _LARGEST_POWER:
        return sign | (np.uint64(0x7FF) << np.uint64(52))
    lz = _leading_zeros(w)
    w = w << np.uint64(lz)
    index = 2 * (q - _SMALLEST_POWER)
    high, low = _multiply(w, powers[index])
    if (high & np.uint64(0x1FF)) == np.uint64(0x1FF):
        second_high, _ = _multiply(w, powers[index + 1])
        low = low + second_high
        if second_high > low:
            high = high + np.uint64(1)
    upper = int(high >> np.uint64(63))
    shift = np.uint64(upper + 64 - 52 - 3)
    mantissa = high >> shift
    power2 = (((152170 + 65536) * q) >> 16) + 63 + upper - lz + 1023
    if power2 <= 0:
        return _FALLBACK
    if (low <= np.uint64(1) and -4 <= q <= 23 and (mantissa & np.uint64(3)) == np.uint64(1)
            and (mantissa << shift) == high):
        mantissa = mantissa & ~np.uint64(1)
    mantissa = mantissa + (mantissa & np.uint64(1))
    mantissa = mantissa >> np.uint64(1)
    if mantissa >= (np.uint64(2) << np.uint64(52)):
        mantissa = np.uint64(1) << np.uint64(52)
        power2 += 1
    mantissa = mantissa & ~(np.uint64(1) << np.uint64(52))
    if power2 >= 0x7FF:
        return sign | (np.uint64(0x7FF) << np.uint64(52))
    return sign | (np.uint64(power2) << np.uint64(52)) | mantissa


@jit
def _number(buf, i, end, powers):
    """Parse the decimal number starting at ``buf[i]``: ``(bits, next index)``; the index is
    -1 when no number starts there or it is followed by a character that cannot end it
    (the caller declines the file); bits ``_FALLBACK`` for a number left to ``float()``."""
    negative = False
    if i < end and (buf[i] == 45 or buf[i] == 43):  # - +
        negative = buf[i] == 45
        i += 1
    begin = i
    while i < end and buf[i] == 48:  # leading zeros
        i += 1
    w = np.uint64(0)
    first = i
    while i < end and 48 <= buf[i] <= 57:
        w = w * np.uint64(10) + np.uint64(buf[i] - 48)
        i += 1
    significant = i - first
    exponent = 0
    if i < end and buf[i] == 46:  # .
        i += 1
        if significant == 0:
            fraction = i
            while i < end and buf[i] == 48:
                i += 1
            exponent = fraction - i
        fraction = i
        while i < end and 48 <= buf[i] <= 57:
            w = w * np.uint64(10) + np.uint64(buf[i] - 48)
            i += 1
        significant += i - fraction
        exponent -= i - fraction
        digits = i - begin - 1
    else:
        digits = i - begin
    if digits == 0:
        return np.uint64(0), -1
    if i < end and (buf[i] == 101 or buf[i] == 69):  # e E
        i += 1
        minus = False
        if i < end and (buf[i] == 45 or buf[i] == 43):
            minus = buf[i] == 45
            i += 1
        if i >= end or not 48 <= buf[i] <= 57:
            return np.uint64(0), -1
        e = 0
        while i < end and 48 <= buf[i] <= 57:
            if e < 100000:
                e = e * 10 + (buf[i] - 48)
            i += 1
        exponent += -e if minus else e
    if significant > 19:  # w overflowed: float() decides
        return _FALLBACK, i
    return _to_bits(w, exponent, negative, powers), i


@jit
def _note(fallback, n, position, start, end):
    """``fallback`` with row ``n`` set to (position, start, end) of a token left to
    ``float()``; doubled first when full."""
    if n == fallback.shape[0]:
        fallback = np.concatenate((fallback, np.empty_like(fallback)))
    fallback[n, 0] = position
    fallback[n, 1] = start
    fallback[n, 2] = end
    return fallback


@jit
def _counts(buf):
    """The numbers of newlines and of colons in ``buf``: bounds on its rows and values."""
    lines = 0
    colons = 0
    for i in range(buf.shape[0]):
        lines += buf[i] == 10
        colons += buf[i] == 58
    return lines, colons


@jit
def _skip_blanks(buf, i, end):
    """The index of the first byte from ``i`` on that is not a space or a tab."""
    while i < end and (buf[i] == 32 or buf[i] == 9):
        i += 1
    return i


@jit
def _skip_cell_blanks(buf, i, end, tab):
    """:func:`_skip_blanks` in a table: tabs too only if ``tab`` (a tab-separated table's
    tabs are its delimiters)."""
    if tab:
        return _skip_blanks(buf, i, end)
    while i < end and buf[i] == 32:
        i += 1
    return i


@jit
def _line_end(buf, i, end):
    """The index of the next newline (or ``end``), i.e. the end of a comment."""
    while i < end and buf[i] != 10:
        i += 1
    return i


@jit
def _ends_line(buf, i, end):
    return i >= end or buf[i] == 10 or buf[i] == 13 or buf[i] == 35  # \n \r #


@jit
def svmlight(buf, powers):
    """Parse svmlight/LIBSVM bytes ``label [qid:N] index:value ... [# comment]`` per line,
    read zero-based (column j holds index j); blank and comment lines skipped.

    Returns ``(ok, labels, indptr, indices, bits, fallback, line)``: the labels and the CSR
    arrays (values as float64 bits; ``fallback`` lists the positions in ``bits`` then in
    ``labels`` (offset by the number of values) to convert with ``float()``, as
    (position, start byte, end byte) rows); ``ok`` False when a line is not of that form
    or its indices do not increase (``line``: its 1-based number), for the caller to let
    the library reader name the problem.
    """
    end = buf.shape[0]
    n_lines, n_values = _counts(buf)
    n_lines += 1
    labels = np.empty(n_lines, dtype=np.uint64)
    indptr = np.zeros(n_lines + 1, dtype=np.int64)
    indices = np.empty(n_values, dtype=np.int64)
    bits = np.empty(n_values, dtype=np.uint64)
    fallback = np.empty((16, 3), dtype=np.int64)
    n_fallback = np.int64(0)
    row = np.int64(0)
    k = np.int64(0)
    line = np.int64(0)
    i = np.int64(0)
    while i < end:
        line += 1
        i = _skip_blanks(buf, i, end)
        if _ends_line(buf, i, end):  # blank or comment line
            i = _line_end(buf, i, end) + 1
            continue
        start = i
        label, i = _number(buf, i, end, powers)
        if i < 0 or not (_ends_line(buf, i, end) or buf[i] == 32 or buf[i] == 9):
            return False, labels, indptr, indices, bits, fallback[:n_fallback], line
        if label == _FALLBACK:
            fallback = _note(fallback, n_fallback, n_values + row, start, i)
            n_fallback += 1
        labels[row] = label
        previous = -1
        while True:
            i = _skip_blanks(buf, i, end)
            if _ends_line(buf, i, end):
                break
            if (i + 3 < end and buf[i] == 113 and buf[i + 1] == 105 and buf[i + 2] == 100
                    and buf[i + 3] == 58):  # qid:N, skipped
                i += 4
                if i >= end or not 48 <= buf[i] <= 57:
                    return False, labels, indptr, indices, bits, fallback[:n_fallback], line
                while i < end and 48 <= buf[i] <= 57:
                    i += 1
                continue
            if not 48 <= buf[i] <= 57:
                return False, labels, indptr, indices, bits, fallback[:n_fallback], line
            index = 0
            while i < end and 48 <= buf[i] <= 57:
                if index < 1 << 40:
                    index = index * 10 + (buf[i] - 48)
                i += 1
            if i >= end or buf[i] != 58 or index <= previous or index >= 1 << 40:
                return False, labels, indptr, indices, bits, fallback[:n_fallback], line
            i += 1
            start = i
            value, i = _number(buf, i, end, powers)
            if i < 0 or not (_ends_line(buf, i, end) or buf[i] == 32 or buf[i] == 9):
                return False, labels, indptr, indices, bits, fallback[:n_fallback], line
            if value == _FALLBACK:
                fallback = _note(fallback, n_fallback, k, start, i)
                n_fallback += 1
            indices[k] = index
            bits[k] = value
            k += 1
            previous = index
        row += 1
        indptr[row] = k
        if i < end and buf[i] == 13:
            i += 1
            if i < end and buf[i] != 10:
                return False, labels, indptr, indices, bits, fallback[:n_fallback], line
        i = _line_end(buf, i, end) + 1
    for j in range(n_fallback):  # labels' positions after the values'
        if fallback[j, 0] >= n_values:
            fallback[j, 0] += k - n_values
    return (True, labels[:row], indptr[:row + 1], indices[:k], bits[:k],
            fallback[:n_fallback], line)


@jit
def csv(buf, skip, delimiter, n_columns, label, powers, text_labels):
    """Parse a numeric CSV table: ``skip`` leading lines skipped, then each line not blank
    or a ``#`` comment is ``n_columns`` numbers separated by the byte ``delimiter`` (0: any
    run of spaces and tabs), blanks around a number allowed, ``label`` the label column;
    with ``text_labels`` the label cells are any text (no quote or delimiter, up to a ``#``;
    blanks around it dropped, not empty), kept as (start, stop) byte spans.

    Returns ``(ok, X bits (rows, n_columns - 1), labels bits, label spans (rows, 2),
    fallback, line)`` as :func:`svmlight` does (a fallback position counts the cells of X
    row by row, then the labels; the spans are empty without ``text_labels``, the label
    bits unset with it); ``ok`` False at a quote, a cell that is not a number, or a row
    with another number of cells, which the library reader then names.
    """
    end = buf.shape[0]
    n_lines = _counts(buf)[0] + 1
    X = np.empty((n_lines, n_columns - 1), dtype=np.uint64)
    labels = np.empty(n_lines, dtype=np.uint64)
    spans = np.empty((n_lines if text_labels else 0, 2), dtype=np.int64)
    fallback = np.empty((16, 3), dtype=np.int64)
    n_fallback = np.int64(0)
    row = np.int64(0)
    line = np.int64(0)
    i = np.int64(0)
    tab = delimiter != 9
    while i < end and line < skip:
        i = _line_end(buf, i, end) + 1
        line += 1
    while i < end:
        line += 1
        i = _skip_cell_blanks(buf, i, end, tab)
        if _ends_line(buf, i, end):
            i = _line_end(buf, i, end) + 1
            continue
        for column in range(n_columns):
            if column > 0 and delimiter != 0:  # (whitespace: skipped after the number)
                if buf[i] != delimiter:
                    return False, X, labels, spans, fallback[:n_fallback], line
                i = _skip_cell_blanks(buf, i + 1, end, tab)
            start = i
            if text_labels and column == label:
                i = _text_cell(buf, i, end, delimiter)
                stop = i
                while stop > start and (buf[stop - 1] == 32 or buf[stop - 1] == 9):
                    stop -= 1
                if i < 0 or stop == start:
                    return False, X, labels, spans, fallback[:n_fallback], line
                spans[row, 0] = start
                spans[row, 1] = stop
                value = np.uint64(0)
            else:
                value, i = _number(buf, i, end, powers)
                if i < 0:
                    return False, X, labels, spans, fallback[:n_fallback], line
                stop = i
            i = _skip_cell_blanks(buf, i, end, tab)
            if column == n_columns - 1:
                if not _ends_line(buf, i, end):
                    return False, X, labels, spans, fallback[:n_fallback], line
            elif i >= end or _ends_line(buf, i, end):
                return False, X, labels, spans, fallback[:n_fallback], line
            if delimiter == 0 and column < n_columns - 1 and stop == i:
                return False, X, labels, spans, fallback[:n_fallback], line
            feature = column - (column > label)
            if value == _FALLBACK:
                fallback = _note(fallback, n_fallback, X.shape[0] * X.shape[1] + row
                                 if column == label else row * X.shape[1] + feature, start, stop)
                n_fallback += 1
            if column == label:
                labels[row] = value
            else:
                X[row, feature] = value
        row += 1
        if i < end and buf[i] == 13:
            i += 1
            if i < end and buf[i] != 10:
                return False, X, labels, spans, fallback[:n_fallback], line
        i = _line_end(buf, i, end) + 1
    for j in range(n_fallback):  # labels' positions right after X's rows
        if fallback[j, 0] >= X.shape[0] * X.shape[1]:
            fallback[j, 0] -= (X.shape[0] - row) * X.shape[1]
    return True, X[:row], labels[:row], spans[:row], fallback[:n_fallback], line


@jit
def _text_cell(buf, i, end, delimiter):
    """The end of a text cell from ``i``: the next delimiter (a space or tab when
    ``delimiter`` is 0), line end or ``#`` (a comment, as the library reader reads it); -1
    at a quote (the library reader's case)."""
    while i < end:
        c = buf[i]
        if (c == 10 or c == 13 or c == 35 or c == delimiter
                or (delimiter == 0 and (c == 32 or c == 9))):
            return i
        if c == 34:
            return -1
        i += 1
    return i


@jit
def _span_bytes(buf, spans, width):
    """The bytes of each span, one row of ``width`` (zero-padded) per span."""
    out = np.zeros((spans.shape[0], width), dtype=np.uint8)
    for r in range(spans.shape[0]):
        for k in range(spans[r, 1] - spans[r, 0]):
            out[r, k] = buf[spans[r, 0] + k]
    return out


def span_texts(buf, spans) -> np.ndarray | None:
    """The UTF-8 texts of the label spans of :func:`csv`, a str array (the distinct ones
    decoded once); None when one is not UTF-8."""
    if spans.shape[0] == 0:
        return np.zeros(0, dtype=str)
    width = max(1, int(np.max(spans[:, 1] - spans[:, 0])))
    raw = _span_bytes(buf, spans, width).view(f"S{width}").ravel()
    distinct, inverse = np.unique(raw, return_inverse=True)
    try:
        names = np.array([text.decode("utf-8") for text in distinct.tolist()])
    except UnicodeDecodeError:
        return None
    return names[inverse]
