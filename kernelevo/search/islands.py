"""The island model: each island's best elite joins the next island's archive now and then."""

from __future__ import annotations

from kernelevo.records.elite import Elite
from kernelevo.search.state import SearchState


def migrate(state: SearchState, islands: int) -> list[tuple[str, int, Elite]]:
    """Offer each island's best to the next island, per hardware type, in a ring; the (hardware,
    island, elite) that took a cell there, for the store to record."""
    moved = []
    for hardware in state.hardware_types():
        for island in range(islands):
            best = state.archive(island, hardware).best()
            if best is None:
                continue
            to = (island + 1) % islands
            if state.archive(to, hardware).add(best.candidate_id, best.objective, best.measures,
                                               best.rel_iqr).status.inserted:
                moved.append((hardware, to, best))
    return moved


__all__ = ["migrate"]
