"""The MAP-Elites archive of kernels: one elite per descriptor cell, kept per hardware type.

A thin layer over ``ribs.archives.GridArchive``: the solution stored in a cell is the
candidate's id (an ``extra_fields`` entry carries it too, with the timing spread), the
objective is the log speedup of a correct kernel. Only correct kernels enter. Two kernels
whose times differ by less than the measured noise (the larger relative IQR of the two
timings, and at least ``tie_tolerance``) are a tie. A challenger that is faster beyond the
noise improves the cell. A tied challenger that measured faster takes the cell too, but as a
tie: the cell keeps the fastest kernel measured, which is what a user downloads, while only a
gain beyond the noise credits the operator that made it (``AddStatus.credited``).
"""

from __future__ import annotations

import math

import numpy as np
from ribs.archives import GridArchive

from kernelevo.archive.descriptors import Descriptor
from kernelevo.records.cell import cell_index
from kernelevo.records.elite import AddOutcome, AddStatus, Elite
from kernelevo.records.race import Race

__all__ = ["AddOutcome", "ElitesArchive"]


class ElitesArchive:
    """One hardware type's archive over the given descriptors."""

    def __init__(self, descriptors: list[Descriptor], *, tie_tolerance: float = 0.02, seed: int | None = None) -> None:
        if not descriptors:
            raise ValueError("an archive needs at least one descriptor")
        if tie_tolerance < 0:
            raise ValueError(f"tie_tolerance must be >= 0, got {tie_tolerance}")
        self.descriptors = descriptors
        self.tie_tolerance = tie_tolerance
        self.grid = GridArchive(
            solution_dim=(),
            dims=[d.cells for d in descriptors],
            ranges=[(d.low, d.high) for d in descriptors],
            solution_dtype=np.int64,
            # log speedups below -10 (22000x slower) do not happen; this keeps the QD score positive
            qd_score_offset=-10.0,
            extra_fields={"candidate_id": ((), np.int64), "rel_iqr": ((), np.float64)},
            seed=seed,
        )
        self._dims = tuple(d.cells for d in descriptors)
        self._ranges = tuple((float(d.low), float(d.high)) for d in descriptors)
        # cell -> its elite, in the order cells were first taken (pyribs' order): the incumbent an add compares
        # against, found by the cell computed once (cell_index) instead of pyribs' retrieve placing the measures
        # again, and what elites() lists
        self._by_cell: dict[int, Elite] = {}
        # Elites that took a cell since pyribs last read: added to its grid together before it is read
        # (_grid). One add_single cost 0.15 ms and reading every elite back 0.2 ms (benchmarks/archive_add.py);
        # adds were 8% of a driver's samples with 2 islands at 2,048 evaluators, and 3% of each island's, which
        # keeps a view of its own (benchmarks/README.md, 2026-12-03). Each cell's latest only (it beats the
        # earlier ones), so that what waits is bounded by the cells, in an archive nobody reads (an island's view).
        self._unsynced: dict[int, Elite] = {}
        self._race: Race | None = None  # race() since the last change

    def __len__(self) -> int:
        return len(self._by_cell)

    @property
    def cells(self) -> int:
        return int(self.grid.cells)

    @property
    def coverage(self) -> float:
        return len(self._by_cell) / self.grid.cells

    @property
    def qd_score(self) -> float:
        return float(self._grid().stats.qd_score)

    def _grid(self) -> GridArchive:
        """pyribs' grid, with every elite that took a cell since it was last read."""
        if self._unsynced:
            batch, self._unsynced = list(self._unsynced.values()), {}
            ids = np.array([e.candidate_id for e in batch], dtype=np.int64)
            self.grid.add(ids, np.array([e.objective for e in batch], dtype=np.float64),
                          np.array([e.measures for e in batch], dtype=np.float64), candidate_id=ids,
                          rel_iqr=np.array([e.rel_iqr for e in batch], dtype=np.float64))
        return self.grid

    def cell_of(self, measures: tuple[float, ...]) -> int:
        """The cell of ``measures`` (:func:`~kernelevo.records.cell.cell_index`)."""
        if len(measures) != len(self._dims) or not all(math.isfinite(m) for m in measures):
            raise ValueError(f"an archive cell needs {len(self._dims)} finite measures (one per descriptor: "
                             f"{', '.join(d.name for d in self.descriptors)}), got {measures}")
        return cell_index(measures, dims=self._dims, ranges=self._ranges)

    def elite_at(self, measures: tuple[float, ...]) -> Elite | None:
        return self._by_cell.get(self.cell_of(measures))

    def add(self, candidate_id: int, objective: float, measures: tuple[float, ...], rel_iqr: float) -> AddOutcome:
        """Offer a correct kernel; it takes the cell if the cell is empty or it measured faster than the elite."""
        cell = self.cell_of(measures)
        current = self._by_cell.get(cell)
        status = AddStatus.NEW_CELL
        if current is not None:
            noise = math.log1p(max(self.tie_tolerance, rel_iqr, current.rel_iqr))
            if objective <= current.objective - noise:
                return AddOutcome(AddStatus.WORSE, cell, current)
            if objective <= current.objective:
                return AddOutcome(AddStatus.TIE, cell, current)
            status = AddStatus.IMPROVED if objective > current.objective + noise else AddStatus.TIE_FASTER
        elite = Elite(candidate_id, float(objective), tuple(float(m) for m in measures), cell, float(rel_iqr))
        self._by_cell[cell] = elite
        self._unsynced[cell] = elite
        self._race = None
        return AddOutcome(status, cell, current)

    def elites(self) -> list[Elite]:
        # (a copy of the cells' elites: a list cached between changes was copied on every call anyway)
        return list(self._by_cell.values())

    def race(self) -> Race:
        """What a candidate must beat to enter: each occupied cell's objective and spread (evaluation.common.racing)."""
        if self._race is None:
            self._race = Race(dims=tuple(d.cells for d in self.descriptors),
                              ranges=tuple((float(d.low), float(d.high)) for d in self.descriptors),
                              descriptors=tuple(d.name for d in self.descriptors),
                              incumbents={e.cell: (e.objective, e.rel_iqr) for e in self.elites()})
        return self._race

    def best(self) -> Elite | None:
        best = self._grid().best_elite
        return None if best is None else _elite(best)


def _elite(data: dict) -> Elite:
    return Elite(int(data["candidate_id"]), float(data["objective"]), tuple(float(m) for m in data["measures"]),
                 int(data["index"]), float(data["rel_iqr"]))
