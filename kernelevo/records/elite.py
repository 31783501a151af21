"""An elite: the kernel that holds one cell of a MAP-Elites archive."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Elite:
    """A cell's incumbent: the candidate, its objective (log speedup over eager), descriptors, cell index,
    and its timing's relative spread (IQR / median), which a challenger must beat."""

    candidate_id: int
    objective: float
    measures: tuple[float, ...]
    cell: int
    rel_iqr: float
