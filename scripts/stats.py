"""Pure match statistics for the Rookery tournament tools.

Everything here is side-effect free so it can be unit-tested
(see ``test_stats.py``) and reused by ``match.py``.

Conventions
-----------
* Scores are fractions in ``[0, 1]`` from engine1's point of view
  (win = 1, draw = 0.5, loss = 0).
* Elo is *logistic* Elo: ``score = 1 / (1 + 10 ** (-elo / 400))``.
* A game pair is the same opening played twice with colours swapped.
  Its pentanomial bucket is engine1's points over the two games:
  index 0..4 <=> 0, 0.5, 1, 1.5, 2 points (LL, LD, DD/WL, WD, WW).
* The SPRT is the generalized SPRT (GSPRT) on pentanomial pair data with
  logistic-Elo hypotheses, computed with the exact multinomial maximum
  likelihood estimates (as Fishtest does). For large samples this agrees
  with the familiar normal approximation
  ``LLR ~= N * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)``, but unlike
  that approximation it does not produce huge LLRs from a handful of
  pairs with (near) zero variance.
"""

from __future__ import annotations

import math
from typing import Sequence

#: Normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054

#: Per-game score of each pentanomial bucket (pair points / 2).
PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)

#: Pseudo-count given to empty pentanomial buckets before the SPRT so the
#: likelihood maximisation is well defined (same value as Fishtest).
REGULARIZATION = 1e-3


def elo_from_score(score: float) -> float:
    """Return the logistic Elo difference implied by an expected score.

    ``score`` is clamped to the open interval (0, 1); 0 and 1 map to
    -inf / +inf.
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_from_elo(elo: float) -> float:
    """Return the expected score for a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _mean_var(counts: Sequence[float], values: Sequence[float]) -> tuple[float, float, float]:
    """Return ``(n, mean, variance)`` of a discrete sample given as bucket counts."""
    n = float(sum(counts))
    if n <= 0:
        return 0.0, 0.5, 0.0
    mean = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    return n, mean, var


def _elo_interval(n: float, mean: float, var: float) -> tuple[float, float]:
    """Return ``(elo, half_width)`` of a 95% interval for a mean score.

    The interval is computed on the score scale (mean +- z * stderr) and
    mapped through :func:`elo_from_score`; the half-width is half the
    width of the resulting (asymmetric) Elo interval. With no data or a
    0% / 100% score the half-width is infinite.
    """
    elo = elo_from_score(mean)
    if n <= 0 or math.isinf(elo):
        return elo, math.inf
    stderr = math.sqrt(var / n)
    lo = elo_from_score(mean - Z95 * stderr)
    hi = elo_from_score(mean + Z95 * stderr)
    return elo, (hi - lo) / 2.0


def elo_trinomial(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Return ``(elo, 95% half-width)`` from per-game W/D/L counts."""
    n, mean, var = _mean_var((losses, draws, wins), (0.0, 0.5, 1.0))
    return _elo_interval(n, mean, var)


def elo_pentanomial(penta: Sequence[int]) -> tuple[float, float]:
    """Return ``(elo, 95% half-width)`` from pentanomial pair counts.

    The variance is that of the per-pair mean score, so correlation
    between the two games of a pair (same opening) is accounted for.
    """
    n, mean, var = _mean_var(penta, PENTA_SCORES)
    return _elo_interval(n, mean, var)


def pentanomial_bucket(points_game1: float, points_game2: float) -> int:
    """Return the pentanomial index (0..4) for engine1's points in a pair."""
    return int(round(2 * (points_game1 + points_game2)))


def _mle_log_weights(probs: Sequence[float], values: Sequence[float], target: float) -> list[float]:
    """Return ``log(p_hat_i / p_i)`` for the MLE distribution with mean ``target``.

    Among all distributions on ``values`` with mean ``target``, the one
    maximising the likelihood of the empirical distribution ``probs`` is
    ``p_i = p_hat_i / (1 + lam * (v_i - target))`` where ``lam`` solves
    ``sum p_hat_i (v_i - target) / (1 + lam (v_i - target)) = 0``. That
    function is strictly decreasing in ``lam`` on the interval where all
    denominators are positive, so plain bisection finds the root.
    """
    lo = -1.0 / (max(values) - target)
    hi = 1.0 / (target - min(values))

    def slope(lam: float) -> float:
        return sum(p * (v - target) / (1.0 + lam * (v - target)) for p, v in zip(probs, values))

    eps = 1e-12
    lo, hi = lo + eps * (hi - lo), hi - eps * (hi - lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if slope(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    return [math.log1p(lam * (v - target)) for v in values]


def sprt_llr(penta: Sequence[int], elo0: float, elo1: float) -> float:
    """Return the GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0).

    ``penta`` are pentanomial pair counts; ``elo0``/``elo1`` are logistic
    Elo bounds. Empty buckets get :data:`REGULARIZATION` pseudo-counts.
    Returns 0.0 when there is no data.
    """
    if sum(penta) == 0:
        return 0.0
    counts = [c if c > 0 else REGULARIZATION for c in penta]
    n = sum(counts)
    probs = [c / n for c in counts]
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    log_w0 = _mle_log_weights(probs, PENTA_SCORES, s0)
    log_w1 = _mle_log_weights(probs, PENTA_SCORES, s1)
    # log(p1_i / p0_i) = log(1 + lam0 (v - s0)) - log(1 + lam1 (v - s1))
    return sum(c * (a - b) for c, a, b in zip(counts, log_w0, log_w1))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Return the (lower, upper) LLR stopping bounds for error rates alpha/beta."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_verdict(llr: float, alpha: float, beta: float) -> str:
    """Return ``'H0 accepted'``, ``'H1 accepted'`` or ``'continue'`` for an LLR."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr <= lower:
        return "H0 accepted"
    if llr >= upper:
        return "H1 accepted"
    return "continue"
