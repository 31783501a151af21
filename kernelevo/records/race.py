"""A race: what a candidate must beat to matter, sent with it from the archive to the judge.

The archive builds it (:meth:`kernelevo.archive.elites.ElitesArchive.race`) and the judge reads
it (:mod:`kernelevo.evaluation.common.racing` holds the stopping rule), so it lives here, below both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kernelevo.records.cell import cell_index


@dataclass(frozen=True)
class Race:
    """The occupied cells of the archive a candidate would enter, and the grid that places it."""

    dims: tuple[int, ...]  # cells per descriptor
    ranges: tuple[tuple[float, float], ...]  # each descriptor's (low, high)
    descriptors: tuple[str, ...]  # their names (what the evaluator measures)
    incumbents: dict[int, tuple[float, float]] = field(default_factory=dict)  # cell -> (objective, rel IQR)

    def cell(self, measures: Sequence[float]) -> int:
        """The cell index of ``measures`` (:func:`~kernelevo.records.cell.cell_index`, as the archive places it)."""
        return cell_index(measures, dims=self.dims, ranges=self.ranges)
