"""Sums whose rounded results do not depend on the BLAS, the CPU or the numpy
version, so the fixture is the same bytes on every machine.

A matrix product or a reduction adds its terms in whatever order the library
picks (blocking, SIMD width, threads), and each order rounds differently: the
committed fixture's float32 similarities, written at 6 decimals, changed in
their last digit with another OpenBLAS kernel (`OPENBLAS_CORETYPE=Prescott`
against the default one). Each number the bundle writes is therefore defined
as the exact sum of its terms, rounded once:

- similarities: the products of two float32 vectors are exact in float64
  (24 + 24 significant bits fit in 53), their sum is rounded to float64 by
  `math.fsum` (exactly rounded, whatever the order of its input), then to
  float32. numpy's float64 product is used where its worst-case error, over
  every summation order, cannot change that float32; `math.fsum` decides the
  rest (`dot_f32`): summing every entry with it would take minutes at the
  release's size.
- norms: `math.fsum` of the squares, then one square root (`row_norms`,
  and `row_norms_f32`, which keeps numpy's sums where they decide it).
- means and bootstrap intervals: exact rationals (`fractions.Fraction` and
  integer counts), rounded once to the printed decimals (`exact_mean`,
  `bootstrap_interval`).

`exp` and `log` are the C library's (`math.exp`, `math.log`): numpy's
vectorised float64 ones run Intel's SVML code on AVX-512 CPUs and the C
library's elsewhere. What is left to the platform: numpy's seeded generators
(the same streams across numpy releases so far, though NEP 19 does not
promise it), the C library's `exp`, `log` and `log2`, and scipy's p-values.
"""

import math
from fractions import Fraction

import numpy as np


_U = 2.0 ** -53  # unit roundoff of float64


def row_norms(x):
    """Euclidean norm of each row of a float64 array: math.fsum of the squares
    (each rounded once), then math.sqrt."""
    x64 = np.asarray(x, dtype=np.float64)
    return np.array([math.sqrt(math.fsum(row)) for row in (x64 * x64).tolist()])


def _decided(s, slack, to_f32):
    """Where numpy's float64 sums s decide the float32 result: to_f32 (a
    monotone map to float32) gives the same value at s - slack and s + slack,
    between which the exactly rounded sum lies."""
    return to_f32(s - slack) == to_f32(s + slack)


def _slack(d, abs_sums):
    """A bound on the error of numpy's float64 sums of d exact terms, in any
    summation order: (d - 1) u sum|terms| / (1 - (d - 1) u) (Higham, Accuracy
    and Stability of Numerical Algorithms, 2nd ed., sec. 4.2), where
    sum|terms| is itself such a float64 sum; 2 (d + 1) u times it covers both
    and the rounding of s +- slack."""
    return (2 * (d + 1) * _U) * abs_sums


def row_norms_f32(x):
    """Euclidean norm of each row of a float32 array, as float32: the squares
    are exact in float64, math.fsum sums them exactly rounded, then math.sqrt
    and float32. numpy's row sums stand where they decide that float32
    (_decided); math.fsum decides the other rows."""
    x64 = np.asarray(x, dtype=np.float32).astype(np.float64)
    squares = x64 * x64
    s = squares.sum(axis=1)
    out = np.sqrt(s).astype(np.float32)
    to_f32 = lambda v: np.sqrt(v).astype(np.float32)
    for i in np.nonzero(~_decided(s, _slack(x64.shape[1], s), to_f32))[0]:
        out[i] = np.float32(math.sqrt(math.fsum(squares[i].tolist())))
    return out


def dot_f32(a, b):
    """a (m x d) @ b (n x d).T for float32 matrices, as float32: each entry is
    the exact sum of its d products (exact in float64: 24 + 24 significant
    bits fit in 53), rounded to float64 (math.fsum), then to float32. numpy's
    float64 product stands where it decides that float32 (_decided, with
    sum|products| from the product of the absolute values); math.fsum decides
    the other entries."""
    a64 = np.asarray(a, dtype=np.float32).astype(np.float64)
    b64 = np.asarray(b, dtype=np.float32).astype(np.float64)
    s = a64 @ b64.T
    out = s.astype(np.float32)
    slack = _slack(a64.shape[1], np.abs(a64) @ np.abs(b64).T)
    to_f32 = lambda v: v.astype(np.float32)
    for i, j in zip(*np.nonzero(~_decided(s, slack, to_f32))):
        out[i, j] = np.float32(math.fsum((a64[i] * b64[j]).tolist()))
    return out


def exact_mean(values):
    """The mean of float values as an exact Fraction."""
    numerators, denominator = _common_numerators(values)
    return Fraction(sum(numerators), denominator * len(numerators))


def rounded(value, digits):
    """An exact value rounded once to `digits` decimals (ties to even, as
    Python's round), as the float JSON writes."""
    return float(round(Fraction(value), digits))


def _common_numerators(values):
    """Integers N and a power of two D with values[i] == N[i] / D exactly."""
    ratios = [float(v).as_integer_ratio() for v in values]
    denominator = max(d for _n, d in ratios)  # every float's is a power of two
    return [n * (denominator // d) for n, d in ratios], denominator


def resample_sums(counts, values):
    """The exact sum of each bootstrap resample, as integers over a common
    denominator D: sums[r] / D == sum_j counts[r, j] * values[j].

    counts (resamples x n) holds how often each value is drawn. Values repeat
    (a metric takes few distinct values), so the counts are first added per
    distinct value: integer sums below 2**53, exact in float64 in any order.
    The rest is integer arithmetic on Python ints."""
    distinct = sorted(set(values))
    group = {v: g for g, v in enumerate(distinct)}
    onehot = np.zeros((len(values), len(distinct)))
    onehot[np.arange(len(values)), [group[v] for v in values]] = 1.0
    per_value = (counts @ onehot).astype(np.int64)
    numerators, denominator = _common_numerators(distinct)
    sums = per_value.astype(object) @ np.array(numerators, dtype=object)
    return [int(x) for x in sums], denominator


def percentile_linear(sorted_values, q):
    """numpy's default ("linear") percentile of sorted exact values, q a
    Fraction in [0, 1]: the values at floor(h) and floor(h) + 1 for
    h = (N - 1) q, interpolated, exactly."""
    h = (len(sorted_values) - 1) * Fraction(q)
    i = math.floor(h)
    if i + 1 >= len(sorted_values):
        return Fraction(sorted_values[-1])
    lo, hi = Fraction(sorted_values[i]), Fraction(sorted_values[i + 1])
    return lo + (h - i) * (hi - lo)


def bootstrap_interval(counts, values):
    """The 2.5th and 97.5th percentiles (linear) of the resample means, as
    exact Fractions."""
    sums, denominator = resample_sums(counts, values)
    ordered = sorted(sums)
    scale = Fraction(1, denominator * len(values))
    return tuple(percentile_linear(ordered, q) * scale
                 for q in (Fraction(25, 1000), Fraction(975, 1000)))
