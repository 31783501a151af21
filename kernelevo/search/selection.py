"""Choosing parents and inspirations from the archive.

Each pick is one of three kinds, mixed by configurable rates:

- exploitation: a tournament among elites by objective, so the best cells are refined;
- exploration: elites of cells chosen least often so far, so no strategy is starved;
- random: any elite, uniformly.

Inspirations are other elites from cells unlike the parent's, shown to the LLM so it can
borrow ideas across strategies.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from kernelevo.records.elite import Elite


@dataclass
class SelectionMix:
    exploitation: float = 0.5
    exploration: float = 0.3
    random: float = 0.2
    tournament: int = 3

    def __post_init__(self) -> None:
        total = self.exploitation + self.exploration + self.random
        if total <= 0 or min(self.exploitation, self.exploration, self.random) < 0:
            raise ValueError("selection rates must be >= 0 and not all zero")


@dataclass
class Selector:
    mix: SelectionMix = field(default_factory=SelectionMix)
    picks: Counter[int] = field(default_factory=Counter)  # cell -> times chosen as a parent

    def parent(self, elites: list[Elite], rng: random.Random) -> tuple[Elite, str]:
        """An elite and the kind of pick that chose it."""
        if not elites:
            raise ValueError("the archive is empty: nothing to select")
        m = self.mix
        weights = [m.exploitation, m.exploration, m.random]
        kind = rng.choices(["exploitation", "exploration", "random"], weights=weights)[0]
        if kind == "exploitation":
            chosen = max(rng.sample(elites, min(m.tournament, len(elites))), key=lambda e: e.objective)
        elif kind == "exploration":
            fewest = min(self.picks[e.cell] for e in elites)
            chosen = rng.choice([e for e in elites if self.picks[e.cell] == fewest])
        else:
            chosen = rng.choice(elites)
        self.picks[chosen.cell] += 1
        return chosen, kind

    def parents(self, elites: list[Elite], arity: int, rng: random.Random) -> list[Elite]:
        """``arity`` parents, distinct where the archive allows (a crossover of a kernel with itself is none)."""
        chosen: list[Elite] = []
        for _ in range(arity):
            pick = self.parent(elites, rng)[0]
            for _ in range(20):
                if all(pick.candidate_id != c.candidate_id for c in chosen):
                    break
                pick = rng.choice(elites)
            chosen.append(pick)
        return chosen

    @staticmethod
    def inspirations(elites: list[Elite], parent: Elite, rng: random.Random, k: int = 2) -> list[Elite]:
        """Up to ``k`` elites from other cells: the best of them first, then random others."""
        others = [e for e in elites if e.cell != parent.cell]
        if not others or k <= 0:
            return []
        best = max(others, key=lambda e: e.objective)
        rest = [e for e in others if e is not best]
        return [best, *rng.sample(rest, min(k - 1, len(rest)))][:k]
