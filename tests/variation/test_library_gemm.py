"""The moves between a library GEMM and a Triton GEMM of the project's own (kernelevo.variation.moves.library_gemm).

On torch.compile's own seed for a GEMM with a GELU epilogue (captured on an H200, GEMM left to cuBLAS),
and on small hand-written candidates judged by the real evaluator in Triton's interpreter.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.evaluation.static.check import check_source
from kernelevo.spec import read_spec
from kernelevo.variation.moves.fuse_epilogue import fusions
from kernelevo.variation.moves.library_gemm import SPLIT, gemm_swaps
from kernelevo.variation.seeding.inductor_capture import Capture
from kernelevo.variation.seeding.inductor_seed import to_candidate
from kernelevo.variation.source.source_text import SourceText
from kernelevo.variation.source.template_triton import find_tunables

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = Path(__file__).parent / "inductor_captures"


def swaps(source: str) -> dict[str, str]:
    return {m.label: m.apply() for m in gemm_swaps(source, ast.parse(source), SourceText(source))}


def library_seed() -> str:
    generic = Capture.from_json((CAPTURES / "gemm_bias_gelu.library.json").read_text())
    timed = Capture.from_json((CAPTURES / "gemm_bias_gelu.library.static.json").read_text())
    return to_candidate(generic, [timed])


def test_a_library_gemm_becomes_a_triton_gemm_that_takes_the_epilogue_and_goes_back() -> None:
    seed = library_seed()
    assert "torch.addmm(arg1_1, arg2_1" in seed
    # the timed sizes' GEMM, in one split of K or 16; the kept generic one is left alone
    (label, triton), (split_label, _) = swaps(seed).items()
    assert label == "torch.addmm -> a Triton GEMM of its own (_kev_gemm_0)"
    assert split_label == f"torch.addmm -> a Triton GEMM of its own (_kev_gemm_0, K split {SPLIT} ways)"
    assert check_source(triton) == [] and "torch.addmm(arg1_1, arg2_1" not in triton
    assert "HAS_BIAS=True" in triton
    fused = [m for m in fusions(triton, ast.parse(triton)) if "_kev_gemm_0's store" in m.label]
    assert len(fused) == 1  # the GELU, in place on the GEMM's output, moves into its store
    with_gelu = fused[0].apply()
    assert check_source(with_gelu) == []
    assert swaps(with_gelu) == {}  # a GEMM with an epilogue fused in does not go back to the library
    (back_label, back), = swaps(triton).items()
    assert back_label == "_kev_gemm_0 -> the library GEMM again"
    assert check_source(back) == [] and "_kev_gemm_0" not in back.replace("_kev_gemm_0_", "")


CANDIDATE = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    t = 2.0 / (1.0 + tl.exp(-2.0 * 0.7978845608028654 * (x + 0.044715 * x * x * x))) - 1.0
    tl.store(out_ptr + offs, (0.5 * x * (1.0 + t)).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = torch.empty(x.shape[0], self.linear.weight.shape[0], dtype=x.dtype, device=x.device)
        torch.addmm(self.linear.bias, x, self.linear.weight.t(), out=y)
        out = torch.empty_like(y)
        gelu_kernel[(triton.cdiv(y.numel(), 1024),)](y, out, y.numel(), BLOCK=1024)
        return out
'''

BATCHED = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, a, b):
        c = torch.bmm(a, b)
        out = torch.empty_like(c)
        copy_kernel[(triton.cdiv(c.numel(), 1024),)](c, out, c.numel(), BLOCK=1024)
        return out
'''


@pytest.mark.parametrize(("spec", "source", "op"), [("examples/matmul_epilogue/spec.py", CANDIDATE, "torch.addmm"),
                                                    ("benchmarks/suite/matmul_batched.py", BATCHED, "torch.bmm")])
def test_the_triton_gemm_computes_what_the_library_did(spec: str, source: str, op: str) -> None:
    """fp16 with a bias (2-D, a transposed weight's strides), and fp32 batched: judged by the evaluator."""
    triton = swaps(source)[f"{op} -> a Triton GEMM of its own (_kev_gemm_0)"]
    assert op + "(" not in triton
    with Evaluator(read_spec(str(ROOT / spec)), correctness_options(aot_metadata=False)) as evaluator:
        result = evaluator.evaluate(triton)
    assert result.correct, (result.error, result.message)
    assert result.library is None  # the GEMM is the candidate's own now


LARGE_K = '''
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, A, B):
        C = torch.mm(A, B)
        return C
'''


@pytest.mark.parametrize(("spec", "source", "op"), [("benchmarks/suite/matmul_large_k.py", LARGE_K, "torch.mm"),
                                                    ("examples/matmul_epilogue/spec.py", CANDIDATE, "torch.addmm"),
                                                    ("benchmarks/suite/matmul_batched.py", BATCHED, "torch.bmm")])
def test_a_gemm_whose_k_is_split_computes_the_same_whatever_the_split(spec: str, source: str, op: str) -> None:
    """K split 16 ways (more splits than K has tiles on the small variants: some sum nothing), and 3 ways (a
    last slice shorter than the others), with a bias and batched: the last program of each tile adds the
    partial sums; the template operator tunes the split, and a split GEMM goes back to the library."""
    split = swaps(source)[f"{op} -> a Triton GEMM of its own (_kev_gemm_0, K split {SPLIT} ways)"]
    assert f"_kev_gemm_0_split_k = {SPLIT}" in split and check_source(split) == []
    tunable = next(t for t in find_tunables(split) if t.name == "_kev_gemm_0_split_k")
    assert tunable.value == SPLIT and 1 in tunable.choices()
    three = split.replace(f"_kev_gemm_0_split_k = {SPLIT}", "_kev_gemm_0_split_k = 3")
    with Evaluator(read_spec(str(ROOT / spec)), correctness_options(aot_metadata=False)) as evaluator:
        results = [evaluator.evaluate(s) for s in (split, three)]
    assert all(r.correct for r in results), [(r.error, r.message) for r in results]
    if "out=" in source:  # inductor's form goes back (an assignment's output is allocated between: it stays)
        (back_label, back), = swaps(split).items()
        assert back_label == "_kev_gemm_0 -> the library GEMM again" and "_split_k" not in back
        assert check_source(back) == [] and op + "(" in back


@pytest.mark.gpu
@pytest.mark.parametrize(("spec", "source", "op"), [("benchmarks/suite/matmul_large_k.py", LARGE_K, "torch.mm"),
                                                    ("examples/matmul_epilogue/spec.py", CANDIDATE, "torch.addmm")],
                         ids=["large_k", "bias_and_gelu_fused"])
def test_on_a_gpu_a_split_k_gemm_is_correct_at_the_specs_sizes(spec: str, source: str, op: str) -> None:
    """Compiled for the GPU, programs of a tile running at once: the last one sums what the others stored (the
    count's acquire and release), with an epilogue fused into its store too; correct on every variant and timed."""
    split = swaps(source)[f"{op} -> a Triton GEMM of its own (_kev_gemm_0, K split {SPLIT} ways)"]
    fused = [m.apply() for m in fusions(split, ast.parse(split)) if "_kev_gemm_0's store" in m.label]
    with Evaluator(read_spec(str(ROOT / spec)), EvalOptions(baselines=["eager"])) as evaluator:
        results = [evaluator.evaluate(s) for s in (split, *fused)]
    assert all(r.correct and r.kernel and not r.kernel.interpreted for r in results), \
        [(r.error, r.message) for r in results]
