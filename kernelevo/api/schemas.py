"""What the API takes and returns: pydantic schemas, apart from the database's tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from kernelevo.records.candidate import Usage
from kernelevo.records.run import RunInfo
from kernelevo.storage.queries import ArchiveElite, StoredEvaluation


class Problem(BaseModel):
    """An error: what went wrong, in a sentence a person can act on."""

    detail: str


class SpecCreate(BaseModel):
    source: str = Field(description="the spec's Python source (KernelBench format)")
    name: str | None = Field(default=None, max_length=200, description="default: from the source's hash")
    seeds: dict[str, str] = Field(default_factory=dict, description="seed files the spec's KERNELEVO names, by name")


class SpecPublic(BaseModel):
    id: int
    name: str
    sha256: str
    settings: dict[str, Any]
    seeds: list[str]  # their names
    report: dict[str, Any] | None
    created_at: datetime


class SpecDetail(SpecPublic):
    source: str


class RunCreate(BaseModel):
    spec_id: int = Field(ge=1, le=2**63 - 1)
    config: dict[str, Any] = Field(default_factory=dict,
                                   description="RunConfig fields: budget, llm (or models), workers, ...")


class RunResume(BaseModel):
    config: dict[str, Any] = Field(default_factory=dict, description="settings to change, e.g. a larger budget")


class DescriptorInfo(BaseModel):
    name: str
    low: float
    high: float
    cells: int
    doc: str


class HardwareArchive(BaseModel):
    hardware: str
    interpreted: bool  # CPU runs: timings are not GPU speeds
    descriptors: list[DescriptorInfo]
    cells_total: int
    cells_filled: int
    elites: list[ArchiveElite]


class ArchivePublic(BaseModel):
    run_id: int
    objective: str = "natural log of the speedup over PyTorch eager"
    hardware: list[HardwareArchive]


class EventPublic(BaseModel):
    id: int
    kind: str
    at: float
    data: dict[str, Any]


class OperatorStats(BaseModel):
    operator: str
    candidates: int
    evaluated: int = 0  # evaluations of its candidates (one per hardware type); correct ones are among these
    correct: int
    archive_entries: int
    failures: int
    tokens: int
    dollars: float


class PromptStats(BaseModel):
    number: int
    fitness: float | None
    uses: int
    candidates: int
    best_candidate_number: int | None


class OperatorsPublic(BaseModel):
    operators: list[OperatorStats]
    prompts: list[PromptStats]


class CandidateRef(BaseModel):
    id: int
    number: int
    operator: str
    note: str


class LineageStep(CandidateRef):
    """A step back to the seed: what changed from the step before it (its first parent), in lines."""

    added_lines: int | None = None  # None: the seed (no parent)
    removed_lines: int | None = None


class PromptPublic(BaseModel):
    run_id: int
    number: int
    sections: dict[str, str]
    parent_number: int | None
    mutation: str | None
    fitness: float | None
    best_candidate_number: int | None
    uses: int


class CandidatePublic(BaseModel):
    id: int
    run_id: int
    number: int
    source: str
    operator: str
    note: str
    island: int
    model: str | None
    usage: Usage
    created_at: float
    parents: list[CandidateRef]
    children: list[CandidateRef]
    prompt: PromptPublic | None
    evaluations: list[StoredEvaluation]


class TokenInfo(BaseModel):
    id: int
    name: str
    created_at: datetime
    revoked_at: datetime | None


class Health(BaseModel):
    status: str
    version: str
    database: str


class RunPage(BaseModel):
    items: list[RunInfo]
    total: int
    limit: int
    offset: int


class SpecPage(BaseModel):
    items: list[SpecPublic]
    total: int
    limit: int
    offset: int
