"""The island model: each island's best elite joins another island's archive now and then.

The destination is the next island in a ring (``ring``: 0 -> 1 -> ... -> 0), or another island drawn
at random for each migrant (``random``). The scheduler migrates every ``migration_every`` evaluations,
in the archives of record; island actors (:mod:`kernelevo.distributed.island`) are then told of the
elites that moved into theirs.
"""

from __future__ import annotations

import random
from typing import Literal

from kernelevo.records.elite import Elite
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


__all__ = ["Topology", "destination", "migrate"]
