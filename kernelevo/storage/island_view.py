"""What an island actor reads back when it (re)starts: the run as stored, and its island's elites."""

from __future__ import annotations

from sqlalchemy import select

from kernelevo.records.elite import Elite
from kernelevo.storage.database import Database
from kernelevo.storage.json_values import floats
from kernelevo.storage.recorder import StoredRun, load_run
from kernelevo.storage.tables import EliteRow


def island_elites(db: Database, run_id: int, island: int) -> list[tuple[str, Elite]]:
    """(hardware, elite) of every cell of ``island``'s stored archive: its own kernels and the migrants."""
    with db.session() as session:
        rows = session.scalars(select(EliteRow).where(EliteRow.run_id == run_id, EliteRow.island == island)
                               .order_by(EliteRow.hardware, EliteRow.cell))
        return [(r.hardware, Elite(r.candidate_number, r.objective, tuple(floats(r.measures)), r.cell, r.rel_iqr))
                for r in rows]


def island_view(db: Database, run_id: int, island: int) -> tuple[StoredRun, list[tuple[str, Elite]]]:
    """The stored run and ``island``'s stored elites."""
    return load_run(db, run_id), island_elites(db, run_id, island)


__all__ = ["island_elites", "island_view"]
