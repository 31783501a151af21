"""An elite: the kernel that holds one cell of a MAP-Elites archive."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class AddStatus(StrEnum):
    """What offering a correct kernel to its cell did (stored with each evaluation as ``archive_status``)."""

    NEW_CELL = "new_cell"
    IMPROVED = "improved"  # faster than the elite by more than the noise
    TIE_FASTER = "tie_faster"  # faster than the elite, but within the noise
    TIE = "tie"  # no faster than the elite, and within the noise
    WORSE = "worse"

    @property
    def inserted(self) -> bool:
        """The kernel now holds the cell."""
        return self in (AddStatus.NEW_CELL, AddStatus.IMPROVED, AddStatus.TIE_FASTER)

    @property
    def credited(self) -> bool:
        """A gain beyond the noise: what rewards the operator that made the kernel, and counts as progress.
        A tie that measured faster holds the cell without it, so noise teaches the search nothing."""
        return self in (AddStatus.NEW_CELL, AddStatus.IMPROVED)


@dataclass(frozen=True)
class Elite:
    """A cell's incumbent: the candidate, its objective (log speedup over eager), descriptors, cell index,
    and its timing's relative spread (IQR / median), which a challenger must beat."""

    candidate_id: int
    objective: float
    measures: tuple[float, ...]
    cell: int
    rel_iqr: float


@dataclass(frozen=True)
class Migration:
    """An island's best copied into island ``island``'s archive for ``hardware``, after the run's
    ``after_evaluations``-th evaluation (stored, and replayed in order on resume)."""

    after_evaluations: int
    hardware: str
    island: int
    elite: Elite


@dataclass(frozen=True)
class AddOutcome:
    """What :meth:`~kernelevo.archive.elites.ElitesArchive.add` did with a kernel: its status, the cell it was
    placed in, and the elite that held the cell before (None for a new cell)."""

    status: AddStatus
    cell: int
    previous: Elite | None
