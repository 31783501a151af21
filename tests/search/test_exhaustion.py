"""A template-only search whose space runs out: it ends saying so, without drawing from used-up parents."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from kernelevo.distributed.simulated import SimulatedPool
from kernelevo.driver import start_search
from kernelevo.evaluation import EvalOptions
from kernelevo.records.run import StopReason
from kernelevo.records.run_config import Budget, RunConfig
from kernelevo.search.stops import EXHAUSTED
from kernelevo.search.used_up import DRY_AFTER
from kernelevo.spec import read_spec
from kernelevo.storage.recorder import load_run

ROOT = Path(__file__).resolve().parents[2]

# A kernel with one tunable (num_warps: 6 values) and two structural moves (an eviction hint on its load, and
# autotuning over the warps and stages around its launch's, whose configs the template then tunes in turn)
SEED = '''"""Adds one to a tensor of 4096 elements, one block of 1024 a program."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_one(x_ptr, out_ptr):
    offsets = tl.program_id(0) * 1024 + tl.arange(0, 1024)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) + 1.0)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        add_one[(4,)](x, out, num_warps=4)
        return out
'''

SPEC = '''"""x + 1 over 4096 elements."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + 1.0


def get_inputs():
    return [torch.randn(4096)]


def get_init_inputs():
    return []


KERNELEVO = {"seeds": ["seed.py"]}
'''


def test_a_used_up_space_ends_the_run_without_drawing_from_used_up_parents(tmp_path: Path, db) -> None:
    (tmp_path / "spec.py").write_text(SPEC)
    (tmp_path / "seed.py").write_text(SEED)
    spec = read_spec(str(tmp_path / "spec.py"))
    config = RunConfig(budget=Budget(evaluations=500), workers=8, ray=False, evaluation=EvalOptions(device="cpu"))
    outcome = asyncio.run(start_search(db, spec, config, out=tmp_path / "run", pool=SimulatedPool(8, 0.01)))
    assert outcome.reason == EXHAUSTED and outcome.status == "finished" and outcome.kind == StopReason.EXHAUSTED
    stored = load_run(db, outcome.run_id)
    made = len(stored.candidates)
    # six warp counts with and without the hint, and their autotuned versions with every config's warps and
    # stages tuned: a space used up well before the budget, each kernel once (how much of it is made before
    # every parent is dry depends on the draws: 222 kernels, and 312 since the kinds of structural move are
    # drawn in a shuffled order)
    assert 6 <= made < 400, made
    assert len({c.source for c in stored.candidates}) == made
    assert len(stored.evaluations) == made  # every kernel made was evaluated before the run ended
    # a parent is left alone after DRY_AFTER produces in a row that made nothing (each of up to 21 draws):
    # before, the run went on until 200 produces in a row had made nothing
    failures = Counter(f.parent_ids[0] for f in stored.failures if f.kind == "duplicate")
    assert 0 < sum(failures.values()) <= DRY_AFTER * made, failures
    # each draw of the template operator counted with its CPU time (what benchmarks split a result's CPU by):
    # one draw made a kernel or a recorded failure
    cost = outcome.state.emitter.producer.instant_cost
    varied = sum(1 for c in stored.candidates if c.parent_ids)
    assert cost.produced == varied + len(stored.failures), (cost, varied, len(stored.failures))
    assert 0 < cost.cpu_s < outcome.loop.elapsed_s()


def test_made_up_measures_fall_in_the_middle_of_cells_spread_over_the_archive() -> None:
    from kernelevo.archive.descriptors import descriptor_set
    from kernelevo.archive.elites import ElitesArchive
    from kernelevo.distributed.simulated import made_up_measures

    names = [d.name for d in descriptor_set("levels")]
    archive = ElitesArchive(descriptor_set("levels"))
    cells = set()
    for i in range(200):
        measures = made_up_measures(f"# kernel {i}\n", names)
        assert list(measures) == names and made_up_measures(f"# kernel {i}\n", names) == measures
        cells.add(archive.cell_of(tuple(measures.values())))
    assert len(cells) >= min(archive.cells, 20)
