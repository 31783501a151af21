"""Compiling a candidate's kernels for the GPU on a CPU, ahead of its GPU run (real Triton, no GPU)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kernelevo.evaluation import EvalOptions
from kernelevo.evaluation.child.precompile import NICENESS, PrecompileReply, PrecompileRequest, PrecompileSetup
from kernelevo.evaluation.common.protocol import GpuTarget
from kernelevo.evaluation.judge.capacity import slots_for
from kernelevo.isolation import containment
from kernelevo.isolation.sandbox import Sandbox
from kernelevo.spec import read_spec

HIDDEN_CUDA = {"CUDA_VISIBLE_DEVICES": "", "TRITON_INTERPRET": "0"}


def precompile(examples_dir: Path, example: str, source: str, cache: Path, threads: int = 1) -> PrecompileReply:
    spec = read_spec(str(examples_dir / example / "spec.py"))
    setup = PrecompileSetup(spec, threads=threads)
    cache.mkdir(exist_ok=True)
    containment.give_to_sandbox(cache)  # as the evaluator hands a precompiler the candidate's cache
    box = Sandbox("kernelevo.evaluation.child.precompile:Precompiler", setup, env=HIDDEN_CUDA, name="precompile",
                  writable=(str(cache),))
    box.start()
    try:
        reply = box.call(PrecompileRequest(source, spec.correctness_variants(gpu=True), str(cache),
                                           GpuTarget("cuda", 90, 32)), {"*": 120})
    finally:
        box.kill()
    assert isinstance(reply, PrecompileReply)
    return reply


@pytest.mark.parametrize(("example", "seed", "specializations", "threads"), [
    ("gelu", "seed.py", 2, 1),  # n divisible by 16 or not: two specializations over three variants
    ("softmax", "seed_online.py", 2, 1),
    # every autotune config, each specialization, compiled in three threads (one thread: the two above)
    ("matmul_epilogue", "seed_autotuned.py", 8, 3),
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


# Slow kernels, one that fails at once, and one whose code depends on the target Triton
# compiles for, queued behind the slow ones: the failure must not let it compile for the
# CPU's "no GPU" (Triton's async mode raises the first failure without waiting for the rest).
RACE = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.target_info import is_cuda


@triton.jit
def slow(x, y, RATE: tl.constexpr):  # each RATE its own compile
    acc = tl.load(x + tl.arange(0, 16))
    for i in tl.static_range(150):
        acc = acc * RATE + tl.load(x + i + tl.arange(0, 16))
    tl.store(y + tl.arange(0, 16), acc)


@triton.jit
def fails(x, y):
    tl.store_nothing(y, tl.load(x))


@triton.jit
def on_target(x, y):
    if is_cuda():
        tl.store(y, tl.load(x) * 1234567)
    else:
        tl.store(y, tl.load(x) * 7654321)


class ModelNew(nn.Module):
    def forward(self, x):
        flat = x.flatten()
        out = torch.empty(16, dtype=flat.dtype)
        slow[(1,)](flat, out, 1.0001)  # in the first thread
        fails[(1,)](flat, out)  # fails at once in the second, which then takes the second slow one
        slow[(1,)](flat, out, 1.0002)
        on_target[(1,)](flat, out)  # compiled once a slow one is done: the error was raised long before
        return x
'''
CUDA_BRANCH, OTHER_BRANCH = "0f4996B438", "0f4AE99762"  # 1234567.0 and 7654321.0 as PTX float literals


def test_a_failed_compile_lets_no_other_kernel_compile_for_the_wrong_target(examples_dir: Path,
                                                                            tmp_path: Path) -> None:
    reply = precompile(examples_dir, "gelu", RACE, tmp_path / "cache", threads=2)
    assert reply.error is not None and "store_nothing" in reply.error
    ptx = [p.read_text() for p in (tmp_path / "cache").rglob("on_target*.ptx")]
    assert ptx, "the target-dependent kernel was not compiled"
    assert all(CUDA_BRANCH in text and OTHER_BRANCH not in text for text in ptx)


def test_precompilers_forked_from_one_server_compile_in_parallel_threads(examples_dir: Path, tmp_path: Path) -> None:
    """As the evaluator runs them: taken one thread at a time, each killed by its own thread; every
    candidate's kernels compiled for Hopper by a child forked from the preloaded server."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from kernelevo.evaluation.judge.child_pool import ChildPool
    from kernelevo.isolation.sandbox import Limits
    from kernelevo.isolation.zygote import ForkedSandbox

    spec = read_spec(str(examples_dir / "gelu" / "spec.py"))
    seed = (examples_dir / "gelu" / "seed.py").read_text()
    caches = tmp_path / "caches"  # as the evaluator's: handed to the sandbox user, writable by the precompilers
    caches.mkdir()
    containment.give_to_sandbox(caches)
    pool = ChildPool("kernelevo.evaluation.child.precompile:Precompiler", PrecompileSetup(spec, threads=1),
                     env=HIDDEN_CUDA, spare=2, limits=Limits(), name="precompile", fork=True,
                     scratch_root=str(tmp_path), writable=(str(caches),))
    take = threading.Lock()

    def one(i: int) -> tuple[bool, PrecompileReply]:
        with take:
            box, _ = pool.take()
        cache = caches / f"cache-{i}"
        cache.mkdir()
        containment.give_to_sandbox(cache)
        try:
            # each a different kernel (a different block), so no two share a cache entry
            source = seed.replace("BLOCK_SIZE=1024", f"BLOCK_SIZE={256 << (i % 3)}")
            return isinstance(box, ForkedSandbox), box.call(
                PrecompileRequest(source, spec.correctness_variants(gpu=True), str(cache), GpuTarget("cuda", 90, 32)),
                {"*": 120})
        finally:
            box.kill()

    try:
        box, _ = pool.take()  # compiles yield the cores to the judge and its children
        assert os.getpriority(os.PRIO_PROCESS, box.pid) == os.getpriority(os.PRIO_PROCESS, 0) + NICENESS
        box.kill()
        with ThreadPoolExecutor(3) as threads:
            replies = list(threads.map(one, range(6)))
    finally:
        pool.close()
    assert all(forked for forked, _ in replies)
    assert all(r.error is None and len(r.kernels) == 2 for _, r in replies)
    for i in range(6):
        cubins = list((caches / f"cache-{i}").rglob("*.cubin"))
        assert len(cubins) == 2 and all('"arch": 90' in c.with_suffix(".json").read_text().replace("'", '"')
                                        for c in cubins)


@pytest.mark.parametrize("op", ["mm", "addmm", "conv1d", "conv2d_strided", "sdpa"])
def test_library_ops_in_a_precompile_get_their_outputs_shapes_without_computing_them(op: str) -> None:
    # the precompiler runs a candidate's forward on CPU tensors only to compile its Triton kernels: a
    # KernelBench-sized convolution computed there took 90 s a candidate on an H200 host
    import torch
    import torch.nn.functional as F

    from kernelevo.evaluation.child.precompile import library_shapes_only

    a, b, bias = torch.randn(64, 32), torch.randn(32, 48).t().contiguous().t(), torch.randn(48)
    x1, w1 = torch.randn(2, 4, 33), torch.randn(8, 4, 3)
    x2, w2 = torch.randn(2, 4, 17, 19), torch.randn(8, 4, 3, 3)
    q = torch.randn(2, 3, 16, 8)
    calls = {
        "mm": lambda: a @ b,
        "addmm": lambda: torch.addmm(bias, a, b),
        "conv1d": lambda: F.conv1d(x1, w1, padding=1),
        "conv2d_strided": lambda: F.conv2d(x2, w2, stride=2).permute(0, 2, 3, 1),
        "sdpa": lambda: F.scaled_dot_product_attention(q, q, q, is_causal=True),
    }
    real = calls[op]()
    with torch.no_grad(), library_shapes_only() as mode:
        shaped = calls[op]()
    assert mode.skipped == 1
    assert (shaped.shape, shaped.stride(), shaped.dtype, shaped.device) == \
        (real.shape, real.stride(), real.dtype, real.device)


def test_ops_that_are_no_library_call_are_computed_in_a_precompile() -> None:
    import torch

    from kernelevo.evaluation.child.precompile import library_shapes_only

    x = torch.arange(6.0)
    with library_shapes_only() as mode:
        y = (x * 2).sum()
    assert mode.skipped == 0 and y.item() == 30.0
