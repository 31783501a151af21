"""The operator bandit: Thompson sampling over a sliding window of each operator's recent outcomes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kernelevo.search.bandit import OperatorBandit

ARMS = ["template", "llm-rewrite", "llm-diff"]


def draws(bandit: OperatorBandit, n: int = 1000, seed: int = 0, available: list[str] | None = None) -> Counter[str]:
    rng = random.Random(seed)
    return Counter(bandit.choose(rng, available) for _ in range(n))


def test_a_fresh_bandit_spreads_its_choices() -> None:
    counts = draws(OperatorBandit(ARMS))
    assert set(counts) == set(ARMS)
    assert min(counts.values()) > 200


def test_the_bandit_learns_to_prefer_an_arm_that_keeps_succeeding() -> None:
    bandit = OperatorBandit(ARMS)
    for _ in range(10):
        bandit.update("template", False)
        bandit.update("llm-rewrite", True)
        bandit.update("llm-diff", False)
    counts = draws(bandit)
    assert counts["llm-rewrite"] > 800


def test_learning_from_its_own_choices() -> None:
    # only llm-diff ever succeeds; the bandit is fed the outcomes of the arms it picks
    bandit = OperatorBandit(ARMS)
    rng = random.Random(3)
    for _ in range(30):
        arm = bandit.choose(rng)
        bandit.update(arm, arm == "llm-diff")
    assert draws(bandit, seed=4)["llm-diff"] > 800


def test_the_window_forgets_old_outcomes() -> None:
    bandit = OperatorBandit(["old", "steady"], window=10)
    for _ in range(50):
        bandit.update("old", True)
    for _ in range(10):
        bandit.update("old", False)  # its last `window` tries all failed
    for _ in range(10):
        bandit.update("steady", True)
        bandit.update("steady", False)
    counts = draws(bandit)
    assert counts["steady"] > 800
    assert bandit.stats["old"].recent_rate == 0.0
    assert (bandit.stats["old"].tries, bandit.stats["old"].successes) == (60, 50)  # the totals are kept


def test_without_a_window_the_old_successes_would_win() -> None:
    bandit = OperatorBandit(["old", "steady"], window=100)
    for _ in range(50):
        bandit.update("old", True)
    for _ in range(10):
        bandit.update("old", False)
    for _ in range(10):
        bandit.update("steady", True)
        bandit.update("steady", False)
    assert draws(bandit)["old"] > 800


def test_recent_rate_counts_the_window_only() -> None:
    bandit = OperatorBandit(["a"], window=4)
    assert bandit.stats["a"].recent_rate == 0.0
    for outcome in (True, True, True, False, True, False):
        bandit.update("a", outcome)
    assert list(bandit.stats["a"].outcomes) == [1, 0, 1, 0]
    assert bandit.stats["a"].recent_rate == 0.5


def test_choose_respects_available() -> None:
    bandit = OperatorBandit(ARMS)
    for _ in range(30):
        bandit.update("template", True)
    counts = draws(bandit, available=["llm-rewrite", "llm-diff"])
    assert set(counts) == {"llm-rewrite", "llm-diff"}
    assert draws(bandit, n=50, available=["llm-diff"]) == Counter({"llm-diff": 50})


def test_available_arms_the_bandit_does_not_know_are_ignored() -> None:
    bandit = OperatorBandit(ARMS)
    assert draws(bandit, n=50, available=["unknown", "template"]) == Counter({"template": 50})
    with pytest.raises(ValueError, match="no available operator"):
        bandit.choose(random.Random(0), ["unknown"])


def test_an_empty_available_list_raises() -> None:
    with pytest.raises(ValueError, match="no available operator"):
        OperatorBandit(ARMS).choose(random.Random(0), [])


def test_a_bandit_without_arms_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one operator"):
        OperatorBandit([])


def test_choose_is_deterministic_for_a_seeded_rng() -> None:
    bandit = OperatorBandit(ARMS)
    bandit.update("template", True)
    bandit.update("llm-diff", False)
    rng_a, rng_b = random.Random(9), random.Random(9)
    assert [bandit.choose(rng_a) for _ in range(100)] == [bandit.choose(rng_b) for _ in range(100)]
