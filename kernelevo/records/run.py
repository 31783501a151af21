"""A run as the storage, the API and the command line see it."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel


class RunStatus(StrEnum):
    QUEUED = "queued"  # waiting for a free GPU (started through the API)
    RUNNING = "running"  # a driver holds its lease
    # marked running, but its driver's lease ran out (it died), or stopped at once (Ctrl-C twice); resume it
    INTERRUPTED = "interrupted"
    STOPPED = "stopped"  # stopped on request (Ctrl-C, the API); resumable
    FINISHED = "finished"  # a budget was reached
    FAILED = "failed"  # could not start or crashed; the stop reason says why


class RunInfo(BaseModel):
    """One run: its spec, settings, status and what it has found so far."""

    id: int
    spec_id: int
    spec_name: str
    status: RunStatus
    config: dict[str, Any]
    owner: str
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    stop_reason: str | None = None
    stop_requested: bool = False
    driver: str | None = None
    out_dir: str | None = None
    queue_position: int | None = None  # queued runs: how many are ahead (0: next)
    hardware: str | None = None
    interpreted: bool = False  # CPU runs: timings are not GPU speeds, and no speedups are shown
    evaluations: int = 0
    correct: int = 0
    best_speedup_eager: float | None = None
    best_speedup_compile: float | None = None
    best_roofline: float | None = None
    best_roofline_floor: str | None = None  # which floor the fraction is of: "read", "copy" or "compute"
    tokens: int = 0
    dollars: float = 0.0
    elapsed_s: float = 0.0

    @property
    def correct_rate(self) -> float | None:
        return self.correct / self.evaluations if self.evaluations else None
