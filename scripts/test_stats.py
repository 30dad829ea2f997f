"""Unit tests for scripts/stats.py; run with ``python3 -m pytest scripts/test_stats.py``."""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import stats  # noqa: E402


def test_even_score_is_zero_elo():
    assert stats.elo_from_score(0.5) == 0.0


def test_elo_known_values_and_symmetry():
    # 75% score is the textbook +190.85 Elo.
    assert math.isclose(stats.elo_from_score(0.75), 190.848, abs_tol=1e-3)
    assert math.isclose(stats.elo_from_score(0.25), -stats.elo_from_score(0.75))
    assert stats.elo_from_score(1.0) == math.inf
    assert stats.elo_from_score(0.0) == -math.inf


def test_score_elo_roundtrip():
    for elo in (-300.0, -5.0, 0.0, 12.5, 400.0):
        assert math.isclose(stats.elo_from_score(stats.score_from_elo(elo)), elo, abs_tol=1e-9)


def test_trinomial_interval():
    elo, err = stats.elo_trinomial(30, 40, 30)
    assert elo == 0.0
    assert 40 < err < 60  # ~ +-49 Elo for 100 games with 40% draws
    assert stats.elo_trinomial(0, 0, 0)[1] == math.inf
    assert stats.elo_trinomial(0, 0, 6) == (-math.inf, math.inf)


def test_pentanomial_interval_narrows_with_data():
    small = stats.elo_pentanomial([5, 20, 50, 20, 5])
    large = stats.elo_pentanomial([50, 200, 500, 200, 50])
    assert small[0] == 0.0 and large[0] == 0.0
    assert math.isclose(small[1] / large[1], math.sqrt(10), rel_tol=0.02)


def test_pentanomial_bucket():
    assert stats.pentanomial_bucket(0, 0) == 0
    assert stats.pentanomial_bucket(0.5, 0) == 1
    assert stats.pentanomial_bucket(1, 0) == 2
    assert stats.pentanomial_bucket(0.5, 0.5) == 2
    assert stats.pentanomial_bucket(1, 0.5) == 3
    assert stats.pentanomial_bucket(1, 1) == 4


def test_sprt_bounds():
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert math.isclose(lower, -2.944, abs_tol=1e-3)
    assert math.isclose(upper, 2.944, abs_tol=1e-3)


def test_llr_sign():
    even = [100, 400, 1000, 400, 100]  # exactly 50%
    strong = [50, 300, 1000, 500, 150]  # ~ +35 Elo
    assert stats.sprt_llr([0] * 5, 0, 10) == 0.0
    assert stats.sprt_llr(even, 0, 10) < 0  # favours H0 (elo0 = 0)
    assert stats.sprt_llr(strong, 0, 10) > 0  # favours H1 (elo1 = 10)
    assert stats.sprt_llr(strong, -10, 0) > 0
    # Swapping hypotheses flips the sign.
    assert math.isclose(stats.sprt_llr(strong, 0, 10), -stats.sprt_llr(strong, 10, 0))


def test_llr_matches_normal_approximation_for_large_samples():
    penta = [300, 2100, 4200, 2500, 400]
    n = sum(penta)
    mean = sum(c * v for c, v in zip(penta, stats.PENTA_SCORES)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(penta, stats.PENTA_SCORES)) / n
    s0, s1 = stats.score_from_elo(0), stats.score_from_elo(5)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert math.isclose(stats.sprt_llr(penta, 0, 5), approx, rel_tol=0.02)


def test_llr_does_not_stop_after_one_pair():
    # A single won pair has zero sample variance; the GSPRT must not treat
    # that as conclusive evidence.
    llr = stats.sprt_llr([0, 0, 0, 0, 1], 0, 10)
    assert 0 < llr < 0.5
    assert stats.sprt_verdict(llr, 0.05, 0.05) == "continue"


def test_verdicts():
    assert stats.sprt_verdict(3.0, 0.05, 0.05) == "H1 accepted"
    assert stats.sprt_verdict(-3.0, 0.05, 0.05) == "H0 accepted"
    assert stats.sprt_verdict(0.1, 0.05, 0.05) == "continue"
    # A long clearly winning run crosses the upper bound ...
    assert stats.sprt_verdict(stats.sprt_llr([5, 40, 150, 150, 60], 0, 10), 0.05, 0.05) == "H1 accepted"
    # ... and a clearly losing one the lower bound.
    assert stats.sprt_verdict(stats.sprt_llr([60, 150, 150, 40, 5], 0, 10), 0.05, 0.05) == "H0 accepted"
