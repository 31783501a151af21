"""Choosing the next operator by what recently worked: Thompson sampling over a sliding window.

Each operator is an arm. Its reward is 1 when its child gained beyond the noise (a new cell,
or a cell improved by more than the noise) and 0 otherwise, failures and ties included (a tie
that measured faster holds the cell all the same). Only the last
``window`` outcomes of an arm count, so the choice follows the search as it moves from
easy wins (tuning) to harder ones (rewrites).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field


@dataclass
class ArmStats:
    outcomes: deque[int]
    tries: int = 0
    successes: int = 0

    @property
    def recent_rate(self) -> float:
        return sum(self.outcomes) / len(self.outcomes) if self.outcomes else 0.0


@dataclass
class OperatorBandit:
    arms: list[str]
    window: int = 30
    prior: tuple[float, float] = (1.0, 1.0)  # Beta(successes + a, failures + b)
    stats: dict[str, ArmStats] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.arms:
            raise ValueError("the bandit needs at least one operator")
        for arm in self.arms:
            self.stats.setdefault(arm, ArmStats(outcomes=deque(maxlen=self.window)))

    def choose(self, rng: random.Random, available: list[str] | None = None) -> str:
        """The arm with the highest draw from its posterior, among ``available``."""
        candidates = [a for a in (self.arms if available is None else available) if a in self.stats]
        if not candidates:
            raise ValueError("no available operator")
        a, b = self.prior

        def draw(arm: str) -> float:
            outcomes = self.stats[arm].outcomes
            wins = sum(outcomes)
            return rng.betavariate(wins + a, len(outcomes) - wins + b)

        return max(candidates, key=draw)

    def update(self, arm: str, success: bool) -> None:
        stats = self.stats[arm]
        stats.outcomes.append(int(success))
        stats.tries += 1
        stats.successes += int(success)
