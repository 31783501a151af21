"""A running search's progress as one record: what the display shows, the database stores as an event (its JSON),
the API streams, and the runs table sums up."""

from __future__ import annotations

from pydantic import BaseModel, Field


class BestKernel(BaseModel):
    """The best elite on one hardware type."""

    candidate: int
    objective: float
    interpreted: bool  # timed by Triton's interpreter on a CPU: no speed
    kernel_ms: float | None = None
    speedup_eager: float | None = None
    speedup_compile: float | None = None
    roofline: float | None = None  # the fraction of its physical floor it reaches
    roofline_floor: str | None = None  # which floor: "read", "copy" or "compute"
    library: str | None = None  # the library kernels it calls, with their share of its GPU time


class Coverage(BaseModel):
    """How much of one hardware type's archives is filled."""

    filled: int
    cells: int
    qd_score: float


class Progress(BaseModel):
    """A run's counts (a resumed run's earlier sessions included), this session's rate and times, the best per
    hardware type, coverage and LLM usage. Speedups and roofline come only from GPU timings: an interpreted
    run has ``interpreted`` set and none of them."""

    evaluations: int = 0
    correct: int = 0
    candidates: int = 0
    evaluations_per_min: float = 0.0  # this session's evaluations over this session's time
    busy: float = 0.0  # the share of the session the evaluators held their devices
    workers: int = 0
    session_s: float = 0.0
    elapsed_s: float = 0.0  # every session's
    seeding_s: float = 0.0  # this session's: making the seeds (torch.compile's captures) ...
    search_s: float = 0.0  # ... and searching
    hardware: str | None = None  # the hardware type of the best kernel
    interpreted: bool = False
    best_speedup_eager: float | None = None
    best_speedup_compile: float | None = None
    best_roofline: float | None = None
    best_roofline_floor: str | None = None  # which floor the best's fraction is of: "read", "copy" or "compute"
    best: dict[str, BestKernel] = Field(default_factory=dict)
    coverage: dict[str, Coverage] = Field(default_factory=dict)
    calls: int = 0  # LLM calls, their tokens and dollars
    tokens: int = 0
    dollars: float = 0.0


# the Progress fields the runs table keeps as columns, for listing runs without reading their events
SUMMARY_COLUMNS = ("hardware", "interpreted", "evaluations", "correct", "best_speedup_eager", "best_speedup_compile",
                   "best_roofline", "best_roofline_floor", "tokens", "dollars", "elapsed_s")

__all__ = ["SUMMARY_COLUMNS", "BestKernel", "Coverage", "Progress"]
