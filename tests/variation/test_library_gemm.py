"""The moves between a library GEMM and a Triton GEMM of the project's own (kernelevo.variation.moves.library_gemm).

On torch.compile's own seed for a GEMM with a GELU epilogue (captured on an H200, GEMM left to cuBLAS),
and on small hand-written candidates judged by the real evaluator in Triton's interpreter.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.evaluation.static.check import check_source
from kernelevo.spec import read_spec
from kernelevo.variation.moves.fuse_epilogue import fusions
from kernelevo.variation.moves.library_gemm import SPLIT, bf16x6_swaps, gemm_swaps
from kernelevo.variation.moves.restructure import moves
from kernelevo.variation.seeding.compile_seeds import bf16x6_seeds
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


def x6_moves(source: str) -> dict[str, str]:
    return {m.label: m.apply() for m in bf16x6_swaps(source, ast.parse(source), SourceText(source))}


def run_split_helper(source: str, tmp_path: Path, shapes: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> list[dict]:
    """The move's helper ``_kev_bf16x6`` from the candidate's own text, run in Triton's interpreter in a child (its
    bf16 products are wrong there, so the products are taken here, in float64)."""
    (tmp_path / "candidate.py").write_text(source)
    script = f'''
import json, sys, torch
sys.path.insert(0, {str(tmp_path)!r})
import candidate
torch.manual_seed(0)
rows = []
for sa, sb in {shapes!r}:
    a, b = torch.randn(sa), torch.randn(sb)
    a2, b2, dtype = candidate._kev_bf16x6(a.t().contiguous().t() if a.dim() == 2 else a, b)
    mm = torch.bmm if a.dim() == 3 else torch.mm
    exact = mm(a.double(), b.double())
    rows.append({{"a": list(a2.shape), "b": list(b2.shape), "parts": str(a2.dtype), "dtype": str(dtype),
                  "splits": candidate._kev_x6_split_k(a2, dtype, 1), "kept": candidate._kev_x6_split_k(a2, dtype, 5),
                  "error": (mm(a2.double(), b2.double()) - exact).abs().max().item(),
                  "fp32_error": (mm(a, b).double() - exact).abs().max().item()}})
print(json.dumps(rows))
'''
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "TRITON_INTERPRET": "1"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_an_fp32_library_gemm_becomes_six_bf16_products_whose_parts_sum_to_fp32(tmp_path: Path) -> None:
    """The move's candidate passes the static checks, its epilogue can still fuse into the GEMM's store, it never
    goes back to a library call of bf16 parts, and its split carries every bit of fp32's operands: the six
    products, taken in float64, are as near the exact product as fp32's own GEMM (a transposed operand's strides,
    and batched); a K past _KEV_X6_MAX_K is split, one slice per 4096 at least, so that no sum on the tensor cores
    is longer; one past _KEV_X6_LONGEST_K stays fp32 (split too). Not offered where kernels are interpreted."""
    x6 = x6_moves(LARGE_K)["torch.mm -> a Triton GEMM of its own (_kev_gemm_0, fp32 as bf16x6 on the tensor cores)"]
    assert check_source(x6) == [] and "torch.mm(" not in x6 and "BLOCK_N=256, BLOCK_K=64" in x6
    assert swaps(x6) == {}  # no library call left, and the launch on bf16 parts never goes back as one
    assert any("bf16x6" in m.label for m in moves(CANDIDATE))
    assert not any("bf16x6" in m.label for m in moves(CANDIDATE, interpreted=True))
    assert not any("bf16x6" in m.label for m in moves(CANDIDATE, bf16x6=False))  # the spec keeps GEMMs exact
    assert any("K split" in m.label for m in moves(CANDIDATE, bf16x6=False))  # and only that kind goes
    seed = library_seed()
    (seed_x6,) = x6_moves(seed).values()
    assert check_source(seed_x6) == [] and "_kev_bf16x6(arg2_1" in seed_x6
    assert [m for m in fusions(seed_x6, ast.parse(seed_x6)) if "_kev_gemm_0's store" in m.label]
    rows = run_split_helper(x6, tmp_path, [((33, 70), (70, 45)), ((3, 15, 21), (3, 21, 33)), ((4, 5000), (5000, 3)),
                                           ((4, 8200), (8200, 3))])
    small, batched, long_k, longest = rows
    assert small["a"] == [33, 420] and small["b"] == [420, 45] and small["parts"] == "torch.bfloat16"
    assert batched["a"] == [3, 15, 126] and batched["b"] == [3, 126, 33]
    for row in (small, batched, long_k):
        assert row["dtype"] == "torch.float32" and row["error"] <= 2 * row["fp32_error"] + 1e-6, row
    assert long_k["a"] == [4, 30000] and long_k["parts"] == "torch.bfloat16"
    # K split: 2 ways at K = 5000 (past 4096), as tuned (5) where that is more; 1 at the sizes below the limit
    assert (small["splits"], batched["splits"], long_k["splits"]) == (1, 1, 2)
    assert (small["kept"], long_k["kept"]) == (5, 5)
    # past _KEV_X6_LONGEST_K: exact fp32, its K split one slice per _KEV_X6_LONGEST_K
    assert longest["a"] == [4, 8200] and longest["parts"] == "torch.float32" and longest["splits"] == 2
    assert "SPLIT_K=_kev_x6_split_k(_kev_gemm_0_a, _kev_gemm_0_dtype, _kev_gemm_0_split_k)" in x6


def test_a_kernel_written_before_the_k_split_gets_the_split_helper_with_its_next_bf16x6_gemm() -> None:
    """A candidate whose helper predates _kev_x6_split_k (archived, or resumed from an older run), given a second
    library GEMM's move: the split function is added alone, the rest of the helper is not written twice."""
    from kernelevo.variation.moves.library_gemm import _X6_SPLIT_HELPER

    (x6,) = x6_moves(LARGE_K).values()
    second_gemm = "        D = torch.mm(C, B)\n        return D\n"
    older = x6.replace(_X6_SPLIT_HELPER, "").replace("        return C\n", second_gemm)
    assert "def _kev_x6_split_k(" not in older and "torch.mm(C, B)" in older
    (again,) = x6_moves(older).values()
    assert again.count("def _kev_x6_split_k(") == 1 and again.count("def _kev_bf16x6(") == 1
    assert check_source(again) == [] and "torch.mm(" not in again


TWO_GEMMS = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=offs < n), 0.0), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.first = nn.Linear(n, n)
        self.second = nn.Linear(n, n)

    def forward(self, x):
        h = torch.empty(x.shape[0], self.first.weight.shape[0], dtype=x.dtype, device=x.device)
        torch.addmm(self.first.bias, x, self.first.weight.t(), out=h)
        relu_kernel[(triton.cdiv(h.numel(), 1024),)](h, h.numel(), BLOCK=1024)
        y = torch.mm(h, self.second.weight.t())
        return y
'''


def test_a_networks_library_gemms_become_bf16x6_in_one_move() -> None:
    """Two GEMMs (one with a bias, inductor's out= form; one assigned): one move takes both, each its own kernel,
    the helpers written once, the assigned output allocated in the dtype the helper gives."""
    (label, both), = x6_moves(TWO_GEMMS).items()
    assert label == "2 library GEMMs -> Triton GEMMs of their own, fp32 as bf16x6 on the tensor cores"
    assert check_source(both) == [] and "torch.addmm(" not in both and "torch.mm(" not in both
    assert both.count("def _kev_bf16x6(") == 1 and both.count("_kev_bf16x6(") == 3
    assert "def _kev_gemm_0(" in both and "def _kev_gemm_1(" in both
    assert "y = torch.empty(" in both and "dtype=_kev_gemm_1_dtype" in both


def test_an_fp32_specs_library_seed_gets_a_bf16x6_twin_and_its_fused_epilogue() -> None:
    """Seeding adds the bf16x6 form of the default seed, and its GELU fused into the GEMM's store, for an fp32 spec;
    nothing for an fp16 one (whose GEMM is on the tensor cores already), nor for one that keeps its GEMMs exact."""
    seed = library_seed()
    fp32 = read_spec(str(ROOT / "benchmarks/suite/gemm_batchnorm_gelu_relu.py"))
    fp16 = read_spec(str(ROOT / "benchmarks/suite/gemm_bias_gelu.py"))
    assert fp32.settings.dtype == "float32" and fp16.settings.dtype == "float16"
    twins = bf16x6_seeds(fp32, [("s", seed)])
    assert [name for name, _ in twins] == ["s-bf16x6", "s-bf16x6-fused-epilogue"]
    assert all(check_source(source) == [] and "_kev_bf16x6(" in source for _, source in twins)
    assert bf16x6_seeds(fp16, [("s", seed)]) == []
    exact = dataclasses.replace(fp32, settings=fp32.settings.model_copy(update={"bf16x6": False}))
    assert bf16x6_seeds(exact, [("s", seed)]) == []


@pytest.mark.gpu
@pytest.mark.parametrize(("spec", "source"), [("benchmarks/suite/matmul_batched.py", BATCHED),
                                              ("benchmarks/suite/matmul_square.py", LARGE_K),
                                              ("benchmarks/suite/matmul_large_k.py", LARGE_K),
                                              ("examples/matmul_epilogue/spec.py", CANDIDATE)],
                         ids=["batched_fp32", "square_fp32", "large_k_fp32_kept_exact", "fp16_left_as_it_is"])
def test_on_a_gpu_a_bf16x6_gemm_is_correct_on_every_variant(spec: str, source: str) -> None:
    """Compiled for the GPU, where bf16 products are right: fp32 batched and square GEMMs as six bf16 products are
    judged correct at the spec's tolerance on every variant (odd sizes and a small K included), no library call
    left; at K = 262,144, past _KEV_X6_LONGEST_K, the operands stay fp32 (as 64 slices of bf16 parts they were 22x
    cuBLAS fp32's error, and judged wrong) and K is split 32 ways (one fp32 sum a tile was judged wrong too); an
    fp16 spec's operands are not split, and its GEMM is still right."""
    (x6,) = x6_moves(source).values()
    with Evaluator(read_spec(str(ROOT / spec)), EvalOptions(baselines=["eager"])) as evaluator:
        result = evaluator.evaluate(x6)
    assert result.correct and result.kernel and not result.kernel.interpreted, (result.error, result.message)
    assert result.library is None
