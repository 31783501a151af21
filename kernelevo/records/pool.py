"""The shared evaluator pool as one record: what ``GET /api/pool`` returns and the dashboard's pool page shows."""

from __future__ import annotations

from pydantic import BaseModel, Field


class PoolActor(BaseModel):
    """One evaluator actor (one GPU) of the shared pool."""

    index: int
    host: str = ""
    gpus: str = ""  # the GPU ids Ray gave it (CUDA_VISIBLE_DEVICES)
    slots: int = 1  # candidates it takes at once
    alive: bool = True  # False while Ray restarts it
    serving: list[str] = Field(default_factory=list)  # the run of each candidate it evaluates now
    judges: list[str] = Field(default_factory=list)  # the specs whose judges are warm on it (one per judge)
    utilisation: float = 0.0  # slot-seconds busy over the window / (slots x window), 0..1
    evaluations: int = 0  # finished over the window


class PoolRun(BaseModel):
    """A run registered with the shared pool: its weight and what it got over the window."""

    run_id: str
    spec: str  # the spec's name
    weight: float
    share: float  # of the evaluator-seconds finished over the window, 0..1
    seconds: float  # evaluator-seconds finished over the window
    evaluations: int  # finished over the window
    queued: int  # candidates waiting for an evaluator
    in_flight: int


class PoolJudge(BaseModel):
    """A warm judge on every actor: one per (spec, evaluation options), shared by the runs that use them."""

    spec: str
    spec_sha256: str
    options: str  # the evaluation options' digest
    runs: list[str]  # registered runs that use it (none: kept warm for the next run of the spec)
    prepared: bool  # references and baselines computed on every actor
    # how long that took, the actors in parallel: paid once, by the run that registered first (a start no
    # candidate waited for, so no result's costs carry it); None until done
    prepare_s: float | None = None


class PoolSnapshot(BaseModel):
    """The shared evaluator pool now. ``exists`` False: no pool runs on the cluster (every list empty)."""

    exists: bool = False
    note: str = ""  # why there is none, or where it is
    name: str = ""
    namespace: str = ""
    window_s: float = 0.0
    gpus: int = 0
    actors: list[PoolActor] = Field(default_factory=list)
    runs: list[PoolRun] = Field(default_factory=list)
    judges: list[PoolJudge] = Field(default_factory=list)
    queued: int = 0
    utilisation: float = 0.0  # over every actor's slots, 0..1
    requeued: int = 0  # evaluations run again after an actor died
    crashed: int = 0  # candidates whose second evaluation died too
