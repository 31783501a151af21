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


class StopReason(StrEnum):
    """Why a run stopped, as a kind to filter and count by (``runs.stop_kind``); the run's ``stop_reason``
    sentence beside it explains the particular stop to a person. Each kind leaves the run in one status
    (:attr:`status`)."""

    BUDGET_EVALUATIONS = "budget_evaluations"  # the evaluation budget was reached
    BUDGET_TIME = "budget_time"  # the time budget (minutes) was reached
    BUDGET_TOKENS = "budget_tokens"  # the LLM token budget was reached
    BUDGET_DOLLARS = "budget_dollars"  # the LLM dollar budget was reached
    EXHAUSTED = "exhausted"  # the operators made nothing new from any elite (no task left)
    IDLE_OPERATORS = "idle_operators"  # the operators made nothing new in many tries in a row
    NO_CORRECT_SEED = "no_correct_seed"  # every seed was rejected: no correct kernel to vary
    NO_SEED = "no_seed"  # no seed was given or made, and no operator writes a kernel from the reference alone
    LLM_FAILED = "llm_failed"  # no model answers (and the run did not ask to go on offline)
    STOPPED_BY_USER = "stopped_by_user"  # a stop asked through the API or the library
    CTRL_C = "ctrl_c"  # Ctrl-C once: the evaluations under way were finished
    SIGTERM = "sigterm"  # the driver's process was sent SIGTERM (a batch scheduler's preemption, say)
    STOPPED_BEFORE_START = "stopped_before_start"  # stopped while queued
    LEASE_LOST = "lease_lost"  # another driver took over the run's lease (the run is its now)
    INTERRUPTED = "interrupted"  # stopped at once (Ctrl-C twice): the evaluations under way were dropped
    SPEC_ERROR = "spec_error"  # the judge could not take the spec (its reference fails there, or it refuses its
    # tolerance: spec/precision.py); the sentence says why and what to change
    DRIVER_FAILED = "driver_failed"  # the driver raised (a setup error, a crash); the sentence names the error
    DRIVER_ENDED = "driver_ended"  # the driver's process ended without ending the run (seen by the API's launcher)

    @property
    def status(self) -> RunStatus:
        """The status this kind of stop leaves a run in."""
        return _STOP_STATUS.get(self, RunStatus.STOPPED)


_STOP_STATUS = {
    **dict.fromkeys((StopReason.BUDGET_EVALUATIONS, StopReason.BUDGET_TIME, StopReason.BUDGET_TOKENS,
                     StopReason.BUDGET_DOLLARS, StopReason.EXHAUSTED, StopReason.IDLE_OPERATORS), RunStatus.FINISHED),
    **dict.fromkeys((StopReason.NO_CORRECT_SEED, StopReason.NO_SEED, StopReason.LLM_FAILED, StopReason.SPEC_ERROR,
                     StopReason.DRIVER_FAILED, StopReason.DRIVER_ENDED), RunStatus.FAILED),
    StopReason.INTERRUPTED: RunStatus.INTERRUPTED,
}


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
    stop_reason: str | None = None  # why it stopped, a sentence for a person
    stop_kind: StopReason | None = None  # the same, as a kind (None: not stopped, or an old run's unclear sentence)
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
