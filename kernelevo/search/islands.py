"""The island model: each island's best elite joins another island's archive now and then.

The destination is the next island in a ring (``ring``: 0 -> 1 -> ... -> 0), or another island drawn
at random for each migrant (``random``). The scheduler migrates every ``migration_every`` evaluations,
in the archives of record; island actors (:mod:`kernelevo.distributed.island`) are then told of the
elites that moved into theirs.

Seeds move the same way (:func:`share_seed`): each is judged once, in island 0, and offered to every
other island as soon as it is told.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from kernelevo.records.candidate import Candidate, Evaluated, OperatorName
from kernelevo.records.elite import Elite, Migration
from kernelevo.records.run_config import RunConfig
from kernelevo.search.state import SearchState

Topology = Literal["ring", "random"]


def destination(island: int, islands: int, topology: Topology, rng: random.Random | None) -> int:
    """Where ``island``'s best goes: the next island, or another one at random."""
    if topology == "ring" or islands < 3:
        return (island + 1) % islands
    if rng is None:
        raise ValueError("random migration needs a random generator")
    return rng.choice([i for i in range(islands) if i != island])


def migrate(state: SearchState, islands: int, topology: Topology = "ring",
            rng: random.Random | None = None) -> list[tuple[str, int, Elite]]:
    """Offer each island's best to another island (:func:`destination`), per hardware type; the
    (hardware, island, elite) that took a cell there, for the store to record and the island to be told."""
    moved = []
    for hardware in state.hardware_types():
        for island in range(islands):
            best = state.archive(island, hardware).best()
            if best is None:
                continue
            to = destination(island, islands, topology, rng)
            if state.archive(to, hardware).add(best.candidate_id, best.objective, best.measures,
                                               best.rel_iqr).status.inserted:
                moved.append((hardware, to, best))
    return moved


def share_seed(state: SearchState, told: list[Evaluated], islands: int) -> list[tuple[str, int, Elite]]:
    """A seed's elite, where it took a cell of its own island's archive, offered to every other island's: each
    island starts from every seed without judging it again. (A copy of each seed per island judged every seed
    once per island: on an H200, 4 islands spent the first 16 of a 100-evaluation budget re-timing the slow seeds
    of a scan before its fast one, `benchmarks/results/island_quality-h200.json`.) The (hardware, island, elite)
    that took a cell, as :func:`migrate` gives them."""
    moved = []
    for evaluated in told:
        if not evaluated.took_cell or evaluated.measures is None:
            continue
        elite = state.archive(evaluated.island, evaluated.hardware).elite_at(tuple(evaluated.measures))
        if elite is None:
            continue
        for island in range(islands):
            if island != evaluated.island and state.archive(island, evaluated.hardware).add(
                    elite.candidate_id, elite.objective, elite.measures, elite.rel_iqr).status.inserted:
                moved.append((evaluated.hardware, island, elite))
    return moved


class Migrations:
    """The scheduler's migrations: a told seed shared with every island at once (:func:`share_seed`), and each
    island's best moved every ``migration_every`` evaluations (:func:`migrate`); each move ``save``d (a resume
    replays them) and ``tell``-ed to the island actors, where there are some."""

    def __init__(self, config: RunConfig, state: SearchState, rng: random.Random, *,
                 save: Callable[[Migration], None], tell: Callable[[str, int, Elite], None] | None) -> None:
        self.config, self.state, self.rng, self.save, self.tell = config, state, rng, save, tell
        self._last = state.evaluated_count()

    def after(self, candidate: Candidate, told: list[Evaluated]) -> None:
        """What is due once ``candidate``'s outcomes were told."""
        islands = self.config.islands
        if islands < 2:
            return
        if candidate.operator == OperatorName.SEED:
            self._moved(share_seed(self.state, told, islands))
        n = self.state.evaluated_count()
        if n - self._last >= self.config.migration_every:
            self._last = n
            self._moved(migrate(self.state, islands, self.config.migration, self.rng))

    def _moved(self, moved: list[tuple[str, int, Elite]]) -> None:
        n = self.state.evaluated_count()
        for hardware, island, elite in moved:
            self.save(Migration(n, hardware, island, elite))
            if self.tell is not None:
                self.tell(hardware, island, elite)


__all__ = ["Migrations", "Topology", "destination", "migrate", "share_seed"]
