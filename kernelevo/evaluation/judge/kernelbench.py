"""KernelBench's layout on disk: problem files paired with generated kernels.

KernelBench keeps problems as ``level{L}/{P}_{Name}.py`` (``KernelBench/level1/23_Softmax.py``)
and its generation scripts write kernels as ``level_{L}_problem_{P}_sample_{S}_kernel.py``.
:func:`pair` matches the two by level and problem id, so a directory of generations is
judged against the problems they were written for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_PROBLEM = re.compile(r"^(\d+)_(.+)\.py$")
_LEVEL_DIR = re.compile(r"^level(\d+)$")
_KERNEL = re.compile(r"^level_(\d+)_problem_(\d+)_sample_(\d+)_kernel\.py$")


@dataclass(frozen=True)
class KernelBenchProblem:
    level: int
    problem_id: int
    name: str
    path: Path


@dataclass(frozen=True)
class Item:
    """One generated kernel and the problem it was written for."""

    problem: KernelBenchProblem
    sample: int
    kernel: Path

    @property
    def key(self) -> str:
        """A stable name for the pair: ``level1/problem23/sample0``."""
        return f"level{self.problem.level}/problem{self.problem.problem_id}/sample{self.sample}"


@dataclass(frozen=True)
class Layout:
    items: list[Item]
    unmatched: list[Path]  # kernels whose problem is not in the problems directory


def problems(root: Path) -> dict[tuple[int, int], KernelBenchProblem]:
    """Every ``level{L}/{P}_{Name}.py`` under ``root`` (the KernelBench dataset, or one level of it)."""
    found: dict[tuple[int, int], KernelBenchProblem] = {}
    level_dirs = [root] if _LEVEL_DIR.match(root.name) else sorted(p for p in root.rglob("level*") if p.is_dir())
    for level_dir in level_dirs:
        level = _LEVEL_DIR.match(level_dir.name)
        if level is None:
            continue
        for path in sorted(level_dir.glob("*.py")):
            match = _PROBLEM.match(path.name)
            if match:
                key = (int(level.group(1)), int(match.group(1)))
                found.setdefault(key, KernelBenchProblem(key[0], key[1], match.group(2), path))
    return found


def pair(problems_dir: Path, kernels_dir: Path, *, level: int | None = None) -> Layout:
    """Generated kernels under ``kernels_dir`` paired with their problems; sorted by level, problem, sample."""
    known = problems(problems_dir)
    items, unmatched = [], []
    for path in sorted(kernels_dir.rglob("level_*_problem_*_sample_*_kernel.py")):
        match = _KERNEL.match(path.name)
        if match is None:
            continue
        lv, pid, sample = (int(g) for g in match.groups())
        if level is not None and lv != level:
            continue
        problem = known.get((lv, pid))
        if problem is None:
            unmatched.append(path)
            continue
        items.append(Item(problem, sample, path))
    items.sort(key=lambda i: (i.problem.level, i.problem.problem_id, i.sample))
    return Layout(items, unmatched)
