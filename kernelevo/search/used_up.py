"""Parents whose neighbourhood an instant operator has used up.

The template operator draws up to 21 mutants a produce and keeps the first not made before.
Near a parent it has mined out, every draw repeats a kernel: rebuilding and hashing those
repeats was most of a busy driver's time at a few hundred evaluators
(benchmarks/driver_ceiling.py). A parent that gave nothing new ``DRY_AFTER`` produces in a
row is left to the LLM operators; when every elite is used up and none is on its way, the
template-only run is exhausted.
"""

from __future__ import annotations

from collections import Counter

from kernelevo.records.elite import Elite

DRY_AFTER = 3  # an instant operator's fruitless produces in a row after which it leaves a parent alone


class UsedUp:
    def __init__(self) -> None:
        self.fruitless: Counter[int] = Counter()  # candidate id -> produces in a row that made nothing new

    def record(self, parent_id: int, *, made_new: bool) -> None:
        self.fruitless[parent_id] = 0 if made_new else self.fruitless[parent_id] + 1

    def fresh(self, elites: list[Elite]) -> list[Elite]:
        """The elites an instant operator may still vary."""
        return [e for e in elites if self.fruitless[e.candidate_id] < DRY_AFTER]

    def any_fresh(self, elites: list[Elite]) -> bool:
        return any(self.fruitless[e.candidate_id] < DRY_AFTER for e in elites)
