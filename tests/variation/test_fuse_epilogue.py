"""Epilogue fusion: an in-place elementwise kernel after a kernel that writes its buffer moves into that
kernel's store, and the module computes the same (judged by the real evaluator on the CPU interpreter)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.archive.descriptors import compute_level
from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.spec import read_spec
from kernelevo.variation.moves.fuse_epilogue import fusions
from kernelevo.variation.moves.restructure import moves
from kernelevo.variation.seeding.compile_seeds import fused_seeds

ROOT = Path(__file__).parents[2]

# a GEMM that fuses its bias and leaves the GELU to a second kernel, in place, as inductor's persistent
# TMA template does (archives/h200/gemm_bias_gelu/best.py), written for any size
GEMM_THEN_GELU = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mm_bias(in_ptr0, a_ptr, b_ptr, out_ptr0, M, N, K,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rn[None, :] * K + (k + rk)[:, None],
                    mask=(rn[None, :] < N) & ((k + rk)[:, None] < K), other=0.0)
        acc += tl.dot(a, b)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tmp0 = tl.load(in_ptr0 + rn[None, :], rn[None, :] < N).to(tl.float32)
    tmp1 = acc + tmp0
    tl.store(out_ptr0 + rm[:, None] * N + rn[None, :], tmp1, mask)


@triton.jit
def gelu_in_place(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, xmask).to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp0 * tmp2
    tmp5 = tmp0 * tmp0 * tmp0
    tmp8 = tmp0 + tmp5 * 0.044715
    tmp11 = 2.0 * tl.sigmoid(2.0 * tmp8 * 0.7978845608028654) - 1.0  # tanh (libdevice's is not in the interpreter)
    tmp14 = tmp3 * (tmp11 + 1.0)
    tl.store(in_out_ptr0 + x0, tmp14, xmask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        M, K = x.shape
        N = self.linear.weight.shape[0]
        buf0 = torch.empty((M, N), dtype=x.dtype, device=x.device)
        mm_bias[(triton.cdiv(M, 16), triton.cdiv(N, 16))](self.linear.bias, x, self.linear.weight, buf0, M, N, K,
                                                         BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
        buf1 = buf0
        del buf0
        xnumel = M * N
        gelu_in_place[(triton.cdiv(xnumel, 256),)](buf1, xnumel, XBLOCK=256)
        return buf1
'''

LAUNCH = "        gelu_in_place[(triton.cdiv(xnumel, 256),)](buf1, xnumel, XBLOCK=256)\n"


def _fused(source: str) -> list[str]:
    return [m.label for m in fusions(source, ast.parse(source))]


def test_the_elementwise_kernel_moves_into_the_store_and_its_launch_goes() -> None:
    assert _fused(GEMM_THEN_GELU) == ["gelu_in_place: fused into mm_bias's store"]
    move = next(m for m in moves(GEMM_THEN_GELU) if "fused into" in m.label)  # offered among the structural moves
    source = move.apply()
    assert "def gelu_in_place" not in source and "gelu_in_place[" not in source
    assert "        # gelu_in_place: fused into mm_bias's store\n" in source
    # the GELU reads the sum rounded to the buffer's type, as it did from memory, and its result is stored
    assert "    epilogue_tmp0 = tmp1.to(out_ptr0.dtype.element_ty).to(tl.float32)\n" in source
    assert "    tl.store(out_ptr0 + rm[:, None] * N + rn[None, :], epilogue_tmp14, mask)\n" in source
    assert _fused(source) == []


def test_a_fused_gemm_computes_the_same_on_every_cpu_variant() -> None:
    source = fusions(GEMM_THEN_GELU, ast.parse(GEMM_THEN_GELU))[0].apply()
    evaluator = Evaluator(read_spec(str(ROOT / "benchmarks" / "suite" / "gemm_bias_gelu.py")),
                          correctness_options())
    try:
        results = [evaluator.evaluate(s) for s in (GEMM_THEN_GELU, source)]
    finally:
        evaluator.close()
    assert all(r.correct for r in results), [(r.error, r.message) for r in results]


def test_without_a_dot_the_fused_kernel_moves_from_several_passes_to_fused_in_the_archive() -> None:
    assert compute_level(GEMM_THEN_GELU) == 3  # a tl.dot in a loop decides the level either way
    sums = GEMM_THEN_GELU.replace("acc += tl.dot(a, b)",
                                  "acc += tl.sum(a, axis=1)[:, None] + tl.sum(b, axis=0)[None, :]")
    fused = fusions(sums, ast.parse(sums))[0].apply()
    assert (compute_level(sums), compute_level(fused)) == (0, 1)


def test_nothing_is_fused_where_the_module_could_compute_otherwise() -> None:
    # the elementwise kernel reads a second pointer
    two_inputs = GEMM_THEN_GELU \
        .replace("def gelu_in_place(in_out_ptr0, xnumel,", "def gelu_in_place(in_out_ptr0, y, xnumel,") \
        .replace("tmp2 = tl.full([1], 0.5, tl.float32)", "tmp2 = tl.load(y + x0, xmask)") \
        .replace("](buf1, xnumel, XBLOCK", "](buf1, x, xnumel, XBLOCK")
    # its arithmetic uses an index
    indexed = GEMM_THEN_GELU.replace("tmp2 = tl.full([1], 0.5, tl.float32)", "tmp2 = x0 * 0.5")
    # the buffer is read between the launches
    read_between = GEMM_THEN_GELU.replace("        buf1 = buf0\n", "        buf1 = buf0\n        print(buf0.sum())\n")
    # the first kernel is launched twice (the other launch would get the epilogue too)
    launched_twice = GEMM_THEN_GELU.replace("        return buf1\n", "        mm_bias[(1, 1)](self.linear.bias, x, "
                                            "self.linear.weight, buf1, M, N, K, BLOCK_M=16, BLOCK_N=16, "
                                            "BLOCK_K=16)\n        return buf1\n")
    # the elementwise kernel writes another buffer than the one the first kernel wrote
    other_buffer = GEMM_THEN_GELU.replace("        buf1 = buf0\n", "        buf1 = torch.empty_like(buf0)\n")
    # a kept first kernel
    kept = GEMM_THEN_GELU.replace("def mm_bias(in_ptr0, a_ptr, b_ptr, out_ptr0, M, N, K,",
                                  "def mm_bias(in_ptr0, a_ptr, b_ptr, out_ptr0, M, N, K,  # kernelevo: keep")
    kept_second = GEMM_THEN_GELU.replace("def gelu_in_place(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):",
                                         "def gelu_in_place(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  "
                                         "# kernelevo: keep")
    for name, source in [("two_inputs", two_inputs), ("indexed", indexed), ("read_between", read_between),
                         ("launched_twice", launched_twice), ("other_buffer", other_buffer), ("kept", kept),
                         ("kept_second", kept_second)]:
        assert source != GEMM_THEN_GELU, name
        assert _fused(source) == [], name


@pytest.mark.gpu
def test_on_a_gpu_inductors_persistent_tma_gemm_with_its_gelu_fused_is_correct() -> None:
    seed = (ROOT / "tests" / "variation" / "gpu_kernels" / "gemm_bias_gelu_persistent_tma.py").read_text()
    fused = [m.apply() for m in fusions(seed, ast.parse(seed))]
    assert len(fused) == 1 and "make_tensor_descriptor" in fused[0]
    with Evaluator(read_spec(str(ROOT / "benchmarks" / "suite" / "gemm_bias_gelu.py")),
                   EvalOptions(baselines=["eager"])) as evaluator:
        result = evaluator.evaluate(fused[0])
    assert result.correct, (result.error, result.message)


def test_a_seed_whose_epilogue_can_be_fused_is_seeded_fused_too() -> None:
    """torch.compile's persistent TMA GEMM launches its GELU after it: the search starts from both."""
    gemm = (ROOT / "tests" / "variation" / "gpu_kernels" / "gemm_bias_gelu_persistent_tma.py").read_text()
    gelu = (ROOT / "examples" / "gelu" / "seed.py").read_text()  # one kernel: nothing to fuse
    found = fused_seeds([("gemm_bias_gelu-torch-compile-persistent-tma-matmul", gemm), ("gelu", gelu)])
    assert [name for name, _ in found] == ["gemm_bias_gelu-torch-compile-persistent-tma-matmul-fused-epilogue"]
    assert found[0][1] == fusions(gemm, ast.parse(gemm))[0].apply()
