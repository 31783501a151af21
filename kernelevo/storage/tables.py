"""The database's tables (SQLAlchemy 2 typed ORM): what every run made and found.

A candidate's ``number`` is its id within its run (the search's ``Candidate.id``); its
``id`` is global, for the API. Lineage (``parent_numbers``) and prompts are numbered
within the run too. Evaluations keep the whole :class:`~kernelevo.records.EvalResult` as
JSON next to the columns the lists and the dashboard filter and sort on. ``elites`` is the
archive as it stands: one row per (run, hardware, island, cell), replaced when a faster
kernel takes the cell. Schema changes go through Alembic (``migrations/``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON, list[int]: JSON,
                                                     list[float]: JSON}


class SpecRow(Base):
    __tablename__ = "specs"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    source: Mapped[str] = mapped_column(Text)
    settings: Mapped[dict[str, Any]]
    seeds: Mapped[list[Any]]  # [name, source] of each seed kernel, read when the spec was saved
    report: Mapped[dict[str, Any] | None]  # the spec check's description of its variants
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RunRow(Base):
    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    spec_id: Mapped[int] = mapped_column(ForeignKey("specs.id"), index=True)
    status: Mapped[str] = mapped_column(String(20), index=True)  # queued, running, stopped, finished, failed
    config: Mapped[dict[str, Any]]
    owner: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    stop_reason: Mapped[str | None] = mapped_column(Text)
    stop_kind: Mapped[str | None] = mapped_column(String(30))  # StopReason: why, as a kind (NULL while it runs)
    stop_requested: Mapped[bool] = mapped_column(Boolean, default=False)
    driver: Mapped[str | None] = mapped_column(String(200))  # "local pid 123", "ray job raysubmit_..."
    out_dir: Mapped[str | None] = mapped_column(Text)
    # the lease: which driver may write this run, until when (a second driver is refused)
    lease_owner: Mapped[str | None] = mapped_column(String(200))
    lease_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # what the runs table shows, kept current by the driver
    hardware: Mapped[str | None] = mapped_column(String(100))
    interpreted: Mapped[bool] = mapped_column(Boolean, default=False)
    evaluations: Mapped[int] = mapped_column(Integer, default=0)
    correct: Mapped[int] = mapped_column(Integer, default=0)
    best_speedup_eager: Mapped[float | None] = mapped_column(Float)
    best_speedup_compile: Mapped[float | None] = mapped_column(Float)
    best_roofline: Mapped[float | None] = mapped_column(Float)
    best_roofline_floor: Mapped[str | None] = mapped_column(String(10))  # "read", "copy" or "compute"
    tokens: Mapped[int] = mapped_column(Integer, default=0)
    dollars: Mapped[float] = mapped_column(Float, default=0.0)
    elapsed_s: Mapped[float] = mapped_column(Float, default=0.0)  # summed over the run's sessions


class CandidateRow(Base):
    __tablename__ = "candidates"
    __table_args__ = (UniqueConstraint("run_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"))
    number: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(Text)
    source_hash: Mapped[str] = mapped_column(String(32))
    operator: Mapped[str] = mapped_column(String(40))
    parent_numbers: Mapped[list[int]]
    prompt_number: Mapped[int | None] = mapped_column(Integer)
    island: Mapped[int] = mapped_column(Integer, default=0)
    note: Mapped[str] = mapped_column(Text, default="")
    model: Mapped[str | None] = mapped_column(String(200))
    usage: Mapped[dict[str, Any]]  # calls, tokens, dollars of the call that made it
    created_at: Mapped[float] = mapped_column(Float)


class EvaluationRow(Base):
    __tablename__ = "evaluations"
    __table_args__ = (Index("ix_evaluations_run_order", "run_id", "id"),
                      Index("ix_evaluations_run_candidate", "run_id", "candidate_number"),
                      Index("ix_evaluations_candidate_hardware", "candidate_id", "hardware"))

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"))
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id"))
    candidate_number: Mapped[int] = mapped_column(Integer)
    hardware: Mapped[str] = mapped_column(String(100))
    correct: Mapped[bool] = mapped_column(Boolean)
    stage: Mapped[str] = mapped_column(String(20))
    error: Mapped[str | None] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text, default="")
    objective: Mapped[float | None] = mapped_column(Float)
    measures: Mapped[list[float] | None]
    island: Mapped[int] = mapped_column(Integer, default=0)
    cell: Mapped[int | None] = mapped_column(Integer)
    archive_status: Mapped[str | None] = mapped_column(String(20))
    kernel_ms: Mapped[float | None] = mapped_column(Float)
    speedup_eager: Mapped[float | None] = mapped_column(Float)
    speedup_compile: Mapped[float | None] = mapped_column(Float)
    roofline: Mapped[float | None] = mapped_column(Float)  # the fraction of the floor reached ...
    roofline_floor: Mapped[str | None] = mapped_column(String(10))  # ... and which floor: "read", "copy", "compute"
    interpreted: Mapped[bool] = mapped_column(Boolean, default=False)
    result: Mapped[dict[str, Any]]
    finished_at: Mapped[float] = mapped_column(Float)


class EliteRow(Base):
    __tablename__ = "elites"
    __table_args__ = (Index("ix_elites_hardware_objective", "hardware", "objective"),)

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), primary_key=True)
    hardware: Mapped[str] = mapped_column(String(100), primary_key=True)
    island: Mapped[int] = mapped_column(Integer, primary_key=True)
    cell: Mapped[int] = mapped_column(Integer, primary_key=True)
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id"))
    candidate_number: Mapped[int] = mapped_column(Integer)
    objective: Mapped[float] = mapped_column(Float)
    measures: Mapped[list[float]]
    rel_iqr: Mapped[float] = mapped_column(Float)


class MigrationRow(Base):
    """An island's best copied into another island's archive, after the run's ``after_evaluations``-th
    evaluation: what a resume replays in its place, so the archives of record come back as they were."""

    __tablename__ = "migrations"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    after_evaluations: Mapped[int] = mapped_column(Integer)
    hardware: Mapped[str] = mapped_column(String(100))
    island: Mapped[int] = mapped_column(Integer)  # where it went
    cell: Mapped[int] = mapped_column(Integer)
    candidate_id: Mapped[int] = mapped_column(ForeignKey("candidates.id"))
    candidate_number: Mapped[int] = mapped_column(Integer)
    objective: Mapped[float] = mapped_column(Float)
    measures: Mapped[list[float]]
    rel_iqr: Mapped[float] = mapped_column(Float)


class FailureRow(Base):
    __tablename__ = "operator_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    operator: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(Text)
    parent_numbers: Mapped[list[int]]
    usage: Mapped[dict[str, Any]]
    at: Mapped[float] = mapped_column(Float)


class PromptRow(Base):
    __tablename__ = "prompts"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    sections: Mapped[dict[str, Any]]
    parent_number: Mapped[int | None] = mapped_column(Integer)
    mutation: Mapped[str | None] = mapped_column(String(40))
    fitness: Mapped[float | None] = mapped_column(Float)
    best_candidate_number: Mapped[int | None] = mapped_column(Integer)
    uses: Mapped[int] = mapped_column(Integer, default=0)


class EvolutionRow(Base):
    __tablename__ = "prompt_evolutions"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    parent_number: Mapped[int] = mapped_column(Integer)
    mutation: Mapped[str] = mapped_column(String(40))
    prompt_number: Mapped[int | None] = mapped_column(Integer)
    usage: Mapped[dict[str, Any]]
    at: Mapped[float] = mapped_column(Float)


class EventRow(Base):
    """A run's progress over time: one row per snapshot (the driver writes at most one a second)."""

    __tablename__ = "run_events"
    __table_args__ = (Index("ix_run_events_run_order", "run_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"))
    kind: Mapped[str] = mapped_column(String(20))  # progress, status
    at: Mapped[float] = mapped_column(Float)
    data: Mapped[dict[str, Any]]


class TokenRow(Base):
    """An API token, stored as its SHA-256: the token itself is shown once, when it is made."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
