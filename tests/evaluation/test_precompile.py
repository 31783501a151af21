"""Compiling a candidate's kernels for the GPU on a CPU, ahead of its GPU run (real Triton, no GPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.evaluation import EvalOptions
from kernelevo.evaluation.evaluator import slots_for
from kernelevo.evaluation.precompile import GpuTarget, PrecompileReply, PrecompileRequest, PrecompileSetup
from kernelevo.sandbox import Sandbox
from kernelevo.spec import read_spec

HIDDEN_CUDA = {"CUDA_VISIBLE_DEVICES": "", "TRITON_INTERPRET": "0"}


def precompile(examples_dir: Path, example: str, source: str, cache: Path, threads: int = 1) -> PrecompileReply:
    spec = read_spec(str(examples_dir / example / "spec.py"))
    setup = PrecompileSetup(spec, GpuTarget("cuda", 90, 32), threads=threads)
    box = Sandbox("kernelevo.evaluation.precompile:Precompiler", setup, env=HIDDEN_CUDA, name="precompile")
    box.start()
    try:
        cache.mkdir(exist_ok=True)
        reply = box.call(PrecompileRequest(source, spec.correctness_variants(gpu=True), str(cache)), {"*": 120})
    finally:
        box.kill()
    assert isinstance(reply, PrecompileReply)
    return reply


@pytest.mark.parametrize(("example", "seed", "specializations", "threads"), [
    ("gelu", "seed.py", 2, 1),  # n divisible by 16 or not: two specializations over three variants
    ("softmax", "seed_online.py", 2, 1),
    ("matmul_epilogue", "seed_autotuned.py", 8, 1),  # every autotune config, each specialization
    ("matmul_epilogue", "seed_autotuned.py", 8, 3),  # the same, compiled in three threads
])
def test_seeds_compile_for_hopper_without_a_gpu(examples_dir: Path, tmp_path: Path, example: str, seed: str,
                                                specializations: int, threads: int) -> None:
    reply = precompile(examples_dir, example, (examples_dir / example / seed).read_text(), tmp_path / "cache",
                       threads)
    assert reply.error is None
    assert len(reply.kernels) == specializations
    cubins = list((tmp_path / "cache").rglob("*.cubin"))
    assert len(cubins) == specializations
    assert all(c.stat().st_size > 1000 for c in cubins)
    # Triton records the target it compiled for: Hopper, as the judge's GPU said
    assert all('"arch": 90' in c.with_suffix(".json").read_text().replace("'", '"') for c in cubins)


def test_a_wrapper_that_needs_cuda_reports_why_and_compiles_nothing(examples_dir: Path, tmp_path: Path) -> None:
    seed = (examples_dir / "gelu" / "seed.py").read_text()
    needs_cuda = seed.replace("torch.empty_like(x)", 'torch.empty(x.shape, device="cuda")')
    assert needs_cuda != seed
    reply = precompile(examples_dir, "gelu", needs_cuda, tmp_path / "cache")
    assert reply.error is not None and "CUDA" in reply.error
    assert reply.kernels == [] and not list((tmp_path / "cache").rglob("*.cubin"))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_kernel_that_does_not_compile_reports_the_error(examples_dir: Path, tmp_path: Path, threads: int) -> None:
    seed = (examples_dir / "gelu" / "seed.py").read_text()
    broken = seed.replace("tl.store(", "tl.store_nothing(", 1)
    assert broken != seed
    reply = precompile(examples_dir, "gelu", broken, tmp_path / "cache", threads)
    assert reply.error is not None and "store_nothing" in reply.error
    assert reply.kernels == []


def test_only_a_gpu_evaluator_takes_several_candidates_at_once() -> None:
    assert slots_for(EvalOptions(device="cpu")) == 1
    assert slots_for(EvalOptions(device="cuda", precompile_ahead=2)) == 3  # one judged, two compiling ahead
    assert slots_for(EvalOptions(device="cuda", precompile_ahead=1)) == 2
    assert slots_for(EvalOptions(device="cuda", precompile=False)) == 1
