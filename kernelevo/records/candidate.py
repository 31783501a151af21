"""Records that flow through a search: candidates, their usage of an LLM, their evaluations, failures."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from enum import StrEnum

from pydantic import BaseModel, Field

from kernelevo.records.elite import AddStatus
from kernelevo.records.result import EvalResult


class OperatorName(StrEnum):
    """What made a candidate: its seed, or the variation operator that made it from its parents."""

    SEED = "seed"
    TEMPLATE = "template"
    LLM_REWRITE = "llm-rewrite"
    LLM_DIFF = "llm-diff"
    LLM_CROSSOVER = "llm-crossover"
    LLM_REPAIR = "llm-repair"


class Usage(BaseModel):
    """LLM usage of one call or a sum of calls: tokens and dollars."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True  # False when a model's price is unknown: its cost counts as 0
    model: str | None = None

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            calls=self.calls + other.calls,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            cost_known=self.cost_known and other.cost_known,
            model=self.model or other.model,
        )


# besides "\n", what splits a line or counts as white space for str.splitlines and str.rstrip, in ASCII
_ODD_ASCII = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


def source_hash(source: str) -> str:
    """A content hash that ignores trailing white space, so trivial re-emissions dedupe."""
    text = source.strip()
    # The search hashes every draw of the template operator (hundreds a second on a busy driver): a
    # source with no trailing white space on any line, the usual case, is already in normal form.
    if not (text.isascii() and " \n" not in text and "\t\n" not in text and not any(c in text for c in _ODD_ASCII)):
        text = "\n".join(line.rstrip() for line in text.splitlines())
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# A driver with islands asked for one candidate's hash five times (its dedupe against other islands, its
# numbering, the store, the other islands' tells): 30,940 SHA-256 calls for 6,144 results, 9% of its time
# at 1,024 evaluators (benchmarks/README.md, 2026-11-27). Remembered by source text, not on the candidate:
# a model's own attributes would count in its equality, and a copy with another source must not keep it.
REMEMBERED = 1024
_remembered: OrderedDict[str, str] = OrderedDict()
_remembered_lock = threading.Lock()


def remembered_source_hash(source: str) -> str:
    """:func:`source_hash`, remembered for the last :data:`REMEMBERED` sources hashed or handed in."""
    with _remembered_lock:
        digest = _remembered.get(source)
        if digest is not None:
            _remembered.move_to_end(source)
            return digest
    digest = source_hash(source)
    remember_source_hash(source, digest)
    return digest


def remember_source_hash(source: str, digest: str) -> None:
    """``source``'s hash, computed where it was made (an island actor): a source that came through Ray is a new
    string, and hashing it again cost the driver a tenth of its time (benchmarks/README.md, 2026-12-03)."""
    with _remembered_lock:
        _remembered[source] = digest
        _remembered.move_to_end(source)
        if len(_remembered) > REMEMBERED:
            _remembered.popitem(last=False)


class Candidate(BaseModel):
    """A kernel the search produced, with where it came from."""

    id: int
    source: str
    operator: str  # an OperatorName (a str: names stored by other versions still load)
    parent_ids: list[int] = Field(default_factory=list)
    prompt_id: int | None = None
    island: int = 0
    note: str = ""  # what the operator did, in a few words
    usage: Usage = Field(default_factory=Usage)
    created_at: float = Field(default_factory=time.time)

    @property
    def source_hash(self) -> str:
        return remembered_source_hash(self.source)


class Evaluated(BaseModel):
    """A candidate's evaluation on one hardware type and what the archive made of it."""

    candidate_id: int
    hardware: str
    result: EvalResult
    objective: float | None = None  # log speedup of a correct kernel
    measures: list[float] | None = None
    island: int = 0
    cell: int | None = None  # the archive cell it was offered to (correct kernels)
    archive_status: AddStatus | None = None  # what offering it to its cell did (correct kernels)
    finished_at: float = Field(default_factory=time.time)

    @property
    def correct(self) -> bool:
        return self.result.ok

    @property
    def took_cell(self) -> bool:
        """It holds its cell now (the store records the elite)."""
        return self.archive_status is not None and self.archive_status.inserted

    @property
    def credited(self) -> bool:
        """It gained beyond the noise: progress, and a reward for what made it."""
        return self.archive_status is not None and self.archive_status.credited


class OperatorFailure(BaseModel):
    """An operator that produced no candidate: recorded, never raised into the loop."""

    operator: str
    kind: str  # "llm_error", "unusable_reply", "diff_failed", "no_change", "duplicate"
    message: str
    parent_ids: list[int] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    at: float = Field(default_factory=time.time)


class PromptEvolution(BaseModel):
    """One LLM call that evolved a meta-prompt: kept so that ``--resume`` counts its tokens and dollars."""

    parent_id: int
    mutation: str
    prompt_id: int | None  # None: the new prompt duplicated one already there
    usage: Usage
    at: float = Field(default_factory=time.time)
