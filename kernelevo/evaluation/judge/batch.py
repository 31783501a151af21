"""Judging many kernels in one command: records on disk, resume, and KernelBench's summary.

A batch is a list of (problem, kernel) pairs (:mod:`kernelevo.evaluation.judge.kernelbench`).
Each verdict is appended to a JSON-lines file as soon as it is known, one
:class:`BatchRecord` per kernel, so an interrupted batch resumes where it stopped:
:class:`RecordFile` reads what is there (dropping a line torn by a kill) and a kernel whose
problem and source are unchanged is never judged twice. :func:`summarize` gives
KernelBench's figures: the correct rate, the geometric-mean speedups over eager and over
``torch.compile`` and ``fast_p`` (the share of kernels that are correct and more than p
times faster than the baseline).

:func:`judge_locally` judges the batch in this process, one warm evaluator per problem;
``kernelevo.distributed.batch`` spreads it over every GPU through Ray.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ValidationError

from kernelevo.evaluation.judge.evaluator import Evaluator
from kernelevo.evaluation.judge.kernelbench import Item
from kernelevo.records.options import EvalOptions
from kernelevo.records.result import ErrorKind, EvalResult, Stage
from kernelevo.spec.errors import SpecError
from kernelevo.spec.spec import Spec, read_spec

FAST_P = (0.0, 1.0, 1.5, 2.0)


class BatchRecord(BaseModel):
    """One kernel's verdict in a batch, as written to the JSON-lines file."""

    key: str  # level1/problem23/sample0
    level: int
    problem_id: int
    problem: str
    sample: int
    problem_path: str
    kernel_path: str
    spec_sha256: str | None  # None: the problem file could not be read
    kernel_sha256: str
    judged_at: str
    result: EvalResult


@dataclass
class Work:
    """The kernels of one problem, judged by one warm judge."""

    spec: Spec | None
    spec_error: str | None
    items: list[Item]


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_work(items: list[Item]) -> list[Work]:
    """Group ``items`` by problem and read each problem once (a broken one is a spec error, not a crash)."""
    groups: dict[Path, list[Item]] = {}
    for item in items:
        groups.setdefault(item.problem.path, []).append(item)
    works = []
    for path, group in groups.items():
        try:
            works.append(Work(read_spec(str(path)), None, group))
        except SpecError as exc:
            works.append(Work(None, str(exc), group))
    return works


def spec_error_result(message: str) -> EvalResult:
    return EvalResult(stage=Stage.STATIC, error=ErrorKind.SPEC_ERROR, message=message)


def record_for(item: Item, spec: Spec | None, result: EvalResult) -> BatchRecord:
    return BatchRecord(
        key=item.key, level=item.problem.level, problem_id=item.problem.problem_id, problem=item.problem.name,
        sample=item.sample, problem_path=str(item.problem.path), kernel_path=str(item.kernel),
        spec_sha256=spec.sha256 if spec else None, kernel_sha256=sha256_of(item.kernel),
        judged_at=datetime.now(UTC).isoformat(timespec="seconds"), result=result,
    )


class RecordFile:
    """The batch's JSON-lines file: what it holds already, and appending to it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: dict[str, BatchRecord] = {}
        if path.exists():
            self._read()

    def _read(self) -> None:
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):  # a line torn by a kill (perhaps inside a multi-byte character): drop it
            with self.path.open("r+b") as f:
                f.truncate(end)
        for line in data[:end].splitlines():
            try:
                record = BatchRecord.model_validate_json(line)
            except ValidationError:
                continue
            self.records[record.key] = record  # a later line (a re-judged kernel) wins

    def done(self, item: Item, spec: Spec | None) -> bool:
        """Judged already, with the same problem and kernel source."""
        record = self.records.get(item.key)
        return (record is not None and record.kernel_sha256 == sha256_of(item.kernel)
                and record.spec_sha256 == (spec.sha256 if spec else None))

    def append(self, record: BatchRecord) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(record.model_dump_json() + "\n")
        self.records[record.key] = record


class BatchSummary(BaseModel):
    """KernelBench's figures for a batch (speedups only from GPU timings, never interpreted ones)."""

    kernels: int
    correct: int
    correct_rate: float
    spec_errors: int  # kernels whose problem could not be loaded or did not fit
    interpreted: bool  # judged in Triton's CPU interpreter: no speedups
    geomean_speedup_eager: float | None
    geomean_speedup_compile: float | None
    fast_p_eager: dict[str, float]  # p -> share of all kernels correct and faster than p x eager (p=0: correct)
    fast_p_compile: dict[str, float]
    rejected_by: dict[str, int]  # error kind -> kernels
    wall_s: float | None = None
    kernels_per_min: float | None = None


def summarize(records: list[BatchRecord], *, wall_s: float | None = None, judged: int | None = None) -> BatchSummary:
    """The summary of ``records``; ``wall_s`` and ``judged`` (kernels judged in it) give the rate."""
    results = [r.result for r in records]
    n = len(results)
    correct = [r for r in results if r.ok]
    interpreted = bool(results) and all(r.interpreted for r in results if r.ok) and bool(correct)
    rate = (judged if judged is not None else n) / (wall_s / 60) if wall_s else None
    return BatchSummary(
        kernels=n, correct=len(correct), correct_rate=len(correct) / n if n else 0.0,
        spec_errors=sum(r.error == ErrorKind.SPEC_ERROR for r in results), interpreted=interpreted,
        geomean_speedup_eager=_geomean(r.speedup_eager for r in correct),
        geomean_speedup_compile=_geomean(r.speedup_compile for r in correct),
        fast_p_eager=_fast_p(results, lambda r: r.speedup_eager, n, timed=not interpreted),
        fast_p_compile=_fast_p(results, lambda r: r.speedup_compile, n, timed=not interpreted),
        rejected_by=dict(Counter(str(r.error) for r in results if not r.ok).most_common()),
        wall_s=wall_s, kernels_per_min=rate,
    )


def _geomean(values: Iterator[float | None]) -> float | None:
    logs = [math.log(v) for v in values if v]
    return math.exp(sum(logs) / len(logs)) if logs else None


def _fast_p(results: list[EvalResult], speedup: Callable[[EvalResult], float | None], n: int, *,
            timed: bool) -> dict[str, float]:
    """fast_p for each p; without GPU timings only fast_0, the correct rate."""
    out = {}
    for p in FAST_P if timed else FAST_P[:1]:
        hits = sum(r.ok and (p == 0 or (speedup(r) or 0) > p) for r in results)
        out[f"{p:g}"] = hits / n if n else 0.0
    return out


def judge_locally(works: list[Work], options: EvalOptions,
                  on_result: Callable[[Item, Spec | None, EvalResult], None]) -> None:
    """Judge every item in this process: one warm evaluator per problem, as many kernels at once as it takes."""
    for work in works:
        if work.spec is None:
            for item in work.items:
                on_result(item, None, spec_error_result(work.spec_error or "the problem could not be read"))
            continue
        evaluator = Evaluator(work.spec, options)
        try:
            evaluator.start()
        except SpecError as exc:
            for item in work.items:
                on_result(item, work.spec, spec_error_result(str(exc)))
            evaluator.close()
            continue
        try:
            with ThreadPoolExecutor(evaluator.slots) as threads:
                futures = {threads.submit(evaluator.evaluate, item.kernel.read_text()): item for item in work.items}
                for future in as_completed(futures):
                    on_result(futures[future], work.spec, future.result())
        finally:
            evaluator.close()


def batch_file_summary(path: Path) -> Path:
    """Where the summary of the batch in ``path`` goes: ``results.jsonl`` -> ``results.summary.json``."""
    return path.with_name(path.name.removesuffix(".jsonl") + ".summary.json")


def write_summary(path: Path, summary: BatchSummary) -> None:
    path.write_text(json.dumps(summary.model_dump(), indent=2) + "\n")
