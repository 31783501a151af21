"""A run's state on disk, so that Ctrl-C, a crash or a killed driver lose nothing.

A run directory holds append-only JSON-lines files, one record per line, flushed and
synced as each record is written:

- ``run.json``: the spec's name and hash, the configuration, when it started;
- ``candidates.jsonl``: every candidate, written when it is made (before evaluation);
- ``evaluations.jsonl``: every evaluation, with what the archive made of it;
- ``failures.jsonl``: operator calls that produced no candidate (LLM errors, bad replies);
- ``prompts.json``: the meta-prompt archive, rewritten atomically when it changes.

``--resume`` replays these files: the archive is rebuilt by offering the evaluations again
in order, and candidates made but never evaluated are evaluated first.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from kernelevo.records.candidate import Candidate, Evaluated, OperatorFailure, PromptEvolution
from kernelevo.variation.metaprompt import PromptArchive

M = TypeVar("M", bound=BaseModel)


class RunMismatch(ValueError):
    """The run directory belongs to another spec."""


class RunStore:
    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self._appended: set[str] = set()  # files this process has written whole lines to

    def exists(self) -> bool:
        return (self.dir / "run.json").exists()

    def create(self, *, spec_name: str, spec_sha256: str, config: dict[str, Any]) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.exists():
            raise FileExistsError(f"{self.dir} already holds a run: pass --resume to continue it, or another --out")
        self._write_atomic("run.json", {"spec": spec_name, "spec_sha256": spec_sha256, "config": config,
                                        "started_at": time.time()})

    def check(self, spec_sha256: str) -> dict[str, Any]:
        meta = json.loads((self.dir / "run.json").read_text())
        if meta["spec_sha256"] != spec_sha256:
            raise RunMismatch(f"{self.dir} is a run of another spec ({meta['spec']}, {meta['spec_sha256'][:12]}); "
                              "pick another --out")
        return meta

    # -- appends ---------------------------------------------------------------------------------
    def _append(self, name: str, record: BaseModel) -> None:
        path = self.dir / name
        # After a crash mid-write a file ends in half a line: start on a fresh one. Only a file
        # this process has not yet appended to can end so.
        torn = name not in self._appended and path.exists() and _ends_mid_line(path)
        self._appended.add(name)
        with open(path, "a") as f:
            f.write(("\n" if torn else "") + record.model_dump_json() + "\n")
            f.flush()
            os.fsync(f.fileno())

    def add_candidate(self, candidate: Candidate) -> None:
        self._append("candidates.jsonl", candidate)

    def add_evaluation(self, evaluated: Evaluated) -> None:
        self._append("evaluations.jsonl", evaluated)

    def add_failure(self, failure: OperatorFailure) -> None:
        self._append("failures.jsonl", failure)

    def add_evolution(self, evolution: PromptEvolution) -> None:
        self._append("evolutions.jsonl", evolution)

    def save_prompts(self, prompts: PromptArchive) -> None:
        self._write_atomic("prompts.json", prompts.model_dump(mode="json"))

    def _write_atomic(self, name: str, data: Any) -> None:
        tmp = self.dir / f".{name}.tmp"
        tmp.write_text(json.dumps(data, indent=1))
        os.replace(tmp, self.dir / name)

    # -- reading back ----------------------------------------------------------------------------
    def _read(self, name: str, model: type[M]) -> list[M]:
        path = self.dir / name
        if not path.exists():
            return []
        records = []
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            try:
                records.append(model.model_validate_json(line))
            except ValueError:
                continue  # a line cut short by a crash; the records around it are intact
        return records

    def candidates(self) -> list[Candidate]:
        return self._read("candidates.jsonl", Candidate)

    def evaluations(self) -> list[Evaluated]:
        return self._read("evaluations.jsonl", Evaluated)

    def failures(self) -> list[OperatorFailure]:
        return self._read("failures.jsonl", OperatorFailure)

    def evolutions(self) -> list[PromptEvolution]:
        return self._read("evolutions.jsonl", PromptEvolution)

    def prompts(self) -> PromptArchive | None:
        path = self.dir / "prompts.json"
        return PromptArchive.model_validate_json(path.read_text()) if path.exists() else None


def _ends_mid_line(path: Path) -> bool:
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return False
        f.seek(-1, os.SEEK_END)
        return f.read(1) != b"\n"
