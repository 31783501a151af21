"""What the API takes and returns: pydantic schemas, apart from the database's tables."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field, model_validator

from kernelevo.records.candidate import Usage
from kernelevo.records.options import EvalOptions
from kernelevo.records.run import RunInfo
from kernelevo.records.run_config import RunConfig
from kernelevo.spec.names import NAME_PATTERN, NAME_RULE, is_name
from kernelevo.storage.database import as_utc
from kernelevo.storage.queries import ArchiveElite, StoredEvaluation

# Every time the API sends is UTC with its offset (SQLite gives stored times back naive).
UtcDatetime = Annotated[datetime, AfterValidator(as_utc)]


def _storable(text: str) -> str:
    """Text every database stores: UTF-8 (no lone surrogate, which JSON can carry) without NUL (PostgreSQL's
    text and jsonb refuse it)."""
    if "\x00" in text:
        raise ValueError("text cannot contain NUL characters")
    try:
        text.encode()
    except UnicodeEncodeError:
        raise ValueError("text must be valid Unicode (a lone surrogate is not)") from None
    return text


def _storable_values(value: Any) -> None:
    if isinstance(value, str):
        _storable(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _storable_values(key)
            _storable_values(item)
    elif isinstance(value, list):
        for item in value:
            _storable_values(item)


Text = Annotated[str, AfterValidator(_storable)]


def _name(text: str) -> str:
    if not is_name(text):
        raise ValueError(NAME_RULE)
    return text


SpecName = Annotated[str, AfterValidator(_name), Field(json_schema_extra={"pattern": NAME_PATTERN}, max_length=64,
                                                       description=NAME_RULE)]
DEVICE_PATTERN = r"^(auto|cpu|cuda(:[0-9]{1,3})?)$"
Device = Annotated[str, Field(pattern=DEVICE_PATTERN, description="where kernels are judged: 'auto' (a GPU if this "
                                                                  "server's runs have one, else the CPU), 'cpu' "
                                                                  "(Triton's interpreter), 'cuda' or 'cuda:N'")]


class EvalOptionsBody(EvalOptions):
    """The evaluator's settings, as the API takes them: the device is one of the known ones."""

    device: Device = "auto"


class RunConfigBody(RunConfig):
    """A run's settings (``kernelevo run``'s, as JSON): every field has its default."""

    evaluation: EvalOptionsBody = Field(default_factory=EvalOptionsBody)

    @model_validator(mode="before")
    @classmethod
    def _storable_strings(cls, data: Any) -> Any:
        _storable_values(data)
        return data


class ErrorDetail(BaseModel):
    """An error: what went wrong, in a sentence a person can act on."""

    detail: str


class SpecCreate(BaseModel):
    source: Text = Field(description="the spec's Python source (KernelBench format)")
    name: SpecName | None = Field(default=None, description=f"default: from the source's hash; {NAME_RULE}")
    seeds: dict[Text, Text] = Field(default_factory=dict, description="seed files the spec's KERNELEVO names, by name")


class SpecPublic(BaseModel):
    id: int
    name: str
    sha256: str
    settings: dict[str, Any]
    seeds: list[str]  # their names
    report: dict[str, Any] | None
    created_at: UtcDatetime


class SpecDetail(SpecPublic):
    source: str


class RunCreate(BaseModel):
    spec_id: int = Field(ge=1, le=2**63 - 1)
    config: RunConfigBody = Field(default_factory=RunConfigBody,
                                  description="the run's settings: budget, models, workers, evaluation.device, ...")


class RunResume(BaseModel):
    config: dict[str, Any] = Field(default_factory=dict,
                                   description="settings to change (fields of RunCreate's config), e.g. a larger "
                                               "budget or another evaluation.device")


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


class BestPublic(BaseModel):
    """A run's best kernel on one hardware type: its archive entry and where to download it."""

    hardware: str
    interpreted: bool  # a CPU run: its timings are not GPU speeds
    elite: ArchiveElite
    module_url: str  # the drop-in module


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
