"""A race: what a candidate must beat to matter, sent with it from the archive to the judge.

The archive builds it (:meth:`kernelevo.archive.elites.ElitesArchive.race`) and the judge reads
it (:mod:`kernelevo.evaluation.racing` holds the stopping rule), so it lives here, below both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Race:
    """The occupied cells of the archive a candidate would enter, and the grid that places it."""

    dims: tuple[int, ...]  # cells per descriptor
    ranges: tuple[tuple[float, float], ...]  # each descriptor's (low, high)
    descriptors: tuple[str, ...]  # their names (what the evaluator measures)
    incumbents: dict[int, tuple[float, float]] = field(default_factory=dict)  # cell -> (objective, rel IQR)

    def cell(self, measures: Sequence[float]) -> int:
        """The cell index of ``measures``, exactly as ``ribs.archives.GridArchive.index_of`` computes it."""
        dims = np.asarray(self.dims, dtype=np.int32)
        low = np.asarray([r[0] for r in self.ranges], dtype=np.float64)
        high = np.asarray([r[1] for r in self.ranges], dtype=np.float64)
        values = np.asarray(measures, dtype=np.float64)
        grid = ((dims * (values - low) + 1e-6) / (high - low)).astype(np.int32)
        grid = np.clip(grid, 0, dims - 1)
        return int(np.ravel_multi_index(tuple(grid), tuple(self.dims)))
