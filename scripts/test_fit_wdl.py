"""Unit tests for how scripts/fit_wdl.py reads scores from PGN move comments;
run with ``python3 -m pytest scripts/test_fit_wdl.py``."""

from fit_wdl import WDL_RS, a_constants, comment_score, internal_score


def test_fastchess_comments():
    # As fastchess 1.8 writes them: pawns from the mover's view, depth, time.
    assert comment_score("-0.32/11 0.083s") == -32
    assert comment_score("+14.25/20 0.120s") == 1425
    assert comment_score("0.00/25 0.022s, Draw by 3-fold repetition") == 0


def test_mates_and_other_comments_give_no_score():
    assert comment_score("+M9/13 0.010s") is None
    assert comment_score("-M2/120 0.000s") is None
    assert comment_score("book") is None
    assert comment_score("") is None


def test_match_py_comments():
    # The retired match.py wrote a sign on zero too.
    assert comment_score("+0.00/12 0.250s") == 0
    assert comment_score("+0.35/12 0.250s") == 35


def test_normalized_scores_are_turned_back_with_the_engines_constants():
    a = a_constants(WDL_RS.read_text())
    phase = 40 / 58
    a_at_phase = a[0] + a[1] * phase
    # A normalized pawn is a(m) internally; signs and zero are kept.
    assert internal_score(100, phase, a) == round(a_at_phase)
    assert internal_score(-100, phase, a) == -round(a_at_phase)
    assert internal_score(0, phase, a) == 0


def test_constants_are_read_from_rust_source():
    source = "const A_BASE: f64 = 275.0;\nconst A_SLOPE: f64 = -156.5;\nconst B_BASE: f64 = 1.0;"
    assert a_constants(source) == (275.0, -156.5)
