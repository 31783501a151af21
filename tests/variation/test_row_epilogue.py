"""The row-epilogue move (kernelevo.variation.moves.row_epilogue): a persistent row reduction after the
project's own GEMM runs in its epilogue, and the module computes the same (judged by the real evaluator on the
CPU interpreter).

No capture holds a Linear followed by a persistent reduction, so the candidates are written by hand as inductor
writes such a module with the GEMM left to the library (host code as ``to_candidate`` writes it, kernels as in
the ``triton_per`` kernels of ``inductor_captures``), then turned into the project's own GEMM by the
library-GEMM move, as the search would.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.evaluation.static.check import check_source
from kernelevo.spec import read_spec
from kernelevo.utils.pyast import launched_kernel
from kernelevo.variation.moves.library_gemm import gemm_swaps
from kernelevo.variation.moves.restructure import moves
from kernelevo.variation.moves.row_epilogue import row_epilogues
from kernelevo.variation.moves.template import find_tunables
from kernelevo.variation.source.source_text import SourceText

SPECS = Path(__file__).parent / "row_epilogue_specs"

HELPERS = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def maximum(a, b):
    mask = a > b
    if is_floating(a):
        mask |= a != a
    return tl.where(mask, a, b)

@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)

@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()

@triton.jit
def promote_to_tensor(x):
    return x + tl.zeros((1,), tl.int1)
'''

# the start of a persistent reduction over rows of 200 (R0_BLOCK 256: the last 56 lanes masked), rows dynamic
PROLOGUE = '''    r0_numel = 200
    R0_BLOCK: tl.constexpr = 256
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 200 * x0), r0_mask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, float('-inf'))
    tmp4 = max2(tmp3, 1)[:, None].to(tl.float32)
'''

MODEL = '''

class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.linear = nn.ModuleDict()
        self.linear.weight = nn.Parameter(torch.empty((init[1], init[0])))
        self.linear.bias = nn.Parameter(torch.empty((init[1],)))

    def forward(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.linear.weight.shape[1]
        arg1_1 = self.linear.weight
        arg2_1 = self.linear.bias
        arg3_1 = inputs[0].shape[0]
        arg4_1 = inputs[0]
        s50 = arg0_1
        s77 = arg3_1
        buf0 = torch.empty_strided((s77, 200), (200, 1), dtype=torch.float32, device=device)
        torch.addmm(arg2_1, arg4_1, torch.as_strided(arg1_1, (s50, 200), (1, s50), 0), alpha=1, beta=1, out=buf0)
        del arg1_1
        del arg2_1
        del arg4_1
'''

SOFTMAX = HELPERS + '''
@triton.jit
def triton_per_fused__softmax_0(in_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK: tl.constexpr):
''' + PROLOGUE + '''    tmp5 = tmp0 - tmp4
    tmp6 = tl_math.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
    tmp9 = tl.where(r0_mask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None].to(tl.float32)
    tmp11 = tmp6 / tmp10
    tl.store(out_ptr2 + (r0_1 + 200 * x0), tmp11, r0_mask & xmask)
''' + MODEL + '''        buf3 = torch.empty_strided((s77, 200), (200, 1), dtype=torch.float32, device=device)
        triton_per_fused__softmax_0[(triton.cdiv(s77, 8), 1, 1)](buf0, buf3, s77, 200, XBLOCK=8,
                                                                 num_warps=8, num_stages=1)
        del buf0
        return buf3
'''

# the row's max goes to a buffer the logsumexp then reuses in place (inductor's "buf2 = buf1  # reuse")
LOGSUMEXP = HELPERS + '''
@triton.jit
def triton_per_fused_logsumexp_0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):
''' + PROLOGUE + '''    tmp5 = tl_math.abs(tmp4)
    tmp6 = float('inf')
    tmp7 = tmp5 == tmp6
    tmp8 = 0.0
    tmp9 = tl.where(tmp7, tmp8, tmp4)
    tmp10 = tmp0 - tmp9
    tmp11 = tl_math.exp(tmp10)
    tmp12 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp14 = tl.where(r0_mask & xmask, tmp12, 0)
    tmp15 = tl.sum(tmp14, 1)[:, None].to(tl.float32)
    tmp16 = tl_math.log(tmp15)
    tmp17 = tmp16 + tmp9
    tl.debug_barrier()
    tl.store(in_out_ptr0 + x0, tmp17, xmask)
''' + MODEL + '''        buf1 = torch.empty_strided((s77, 1), (1, s77), dtype=torch.float32, device=device)
        buf2 = buf1
        del buf1
        triton_per_fused_logsumexp_0[(triton.cdiv(s77, 8), 1, 1)](buf2, buf0, s77, 200, XBLOCK=8,
                                                                  num_warps=4, num_stages=1)
        del buf0
        return buf2
'''


def own_gemm(library: str) -> str:
    """``library`` with its ``torch.addmm`` turned into the project's Triton GEMM by the library-GEMM move."""
    (move, _split_k) = gemm_swaps(library, ast.parse(library), SourceText(library))
    return move.apply()


def row_moves(source: str) -> dict[str, str]:
    return {m.label: m.apply() for m in row_epilogues(source, ast.parse(source), SourceText(source))}


def launch_count(source: str) -> int:
    return sum(launched_kernel(n) is not None for n in ast.walk(ast.parse(source)))


@pytest.mark.parametrize(("spec", "library", "reduction"),
                         [("linear_softmax.py", SOFTMAX, "triton_per_fused__softmax_0"),
                          ("linear_logsumexp.py", LOGSUMEXP, "triton_per_fused_logsumexp_0")])
def test_the_reduction_moves_into_the_gemms_epilogue_and_computes_the_same(spec: str, library: str,
                                                                           reduction: str) -> None:
    # inductor's max2 is a tl.reduce with a NaN-propagating combine, which the interpreter runs element by element
    # (12 s a call); tl.max computes the same row maxima here (no NaN) in milliseconds
    source = own_gemm(library.replace("max2(tmp3, 1)", "tl.max(tmp3, 1)"))
    ((label, fused),) = row_moves(source).items()
    assert label == f"{reduction}: its rows reduced in _kev_gemm_0's epilogue"
    assert label in [m.label for m in moves(source)]  # the structural operator can draw it
    assert check_source(fused) == []
    assert launch_count(fused) == launch_count(source) - 1 and f"def {reduction}" not in fused
    # the buffer is never written: the reduction reads the accumulator, rounded as the GEMM stored it
    assert "tl.where(r0_mask & xmask, acc.to(c_ptr.dtype.element_ty), 0.0)" in fused and "tl.store(c_ptr" not in fused
    assert row_moves(fused) == {} and gemm_swaps(fused, ast.parse(fused), SourceText(fused)) == []
    with Evaluator(read_spec(str(SPECS / spec)), correctness_options(aot_metadata=False)) as evaluator:
        results = [evaluator.evaluate(s) for s in (source, fused)]  # on every variant: 64, 16 and 37 rows
    assert all(r.correct for r in results), [(r.error, r.message) for r in results]


def test_the_template_operator_tunes_the_rows_tile_but_never_the_row_width() -> None:
    (fused,) = row_moves(own_gemm(SOFTMAX)).values()
    tuned = {t.name for t in find_tunables(fused)}
    assert {"BLOCK_M", "BLOCK_K", "num_warps", "num_stages"} <= tuned and "BLOCK_N" not in tuned
    assert "BLOCK_N=triton.next_power_of_2(_kev_gemm_0_b.shape[-1])" in fused


def test_a_load_converted_after_it_reads_the_accumulator_converted() -> None:
    """fp16 buffers: inductor loads ``tl.load(...).to(tl.float32)``; the load goes, its conversion stays."""
    load = "tl.load(in_ptr0 + (r0_1 + 200 * x0), r0_mask & xmask, other=0.0)"
    (fused,) = row_moves(own_gemm(SOFTMAX.replace(load, load + ".to(tl.float32)"))).values()
    assert "tmp0 = tl.where(r0_mask & xmask, acc.to(c_ptr.dtype.element_ty), 0.0).to(tl.float32)\n" in fused


def test_a_row_of_1024_is_taken_and_a_wider_one_is_not() -> None:
    def width(n: int, block: int) -> str:
        return own_gemm(SOFTMAX.replace("200", str(n)).replace("R0_BLOCK: tl.constexpr = 256",
                                                                  f"R0_BLOCK: tl.constexpr = {block}"))

    assert len(row_moves(width(1000, 1024))) == 1
    assert row_moves(width(1025, 2048)) == {}


def test_nothing_moves_where_the_module_could_compute_otherwise() -> None:
    source = own_gemm(SOFTMAX)
    changed = {
        "the buffer is read after the reduction": ("        del buf0\n        return buf3\n",
                                                   "        return buf3 + buf0\n"),
        "something runs between the launches": ("        buf3 = torch.empty_strided",
                                                "        torch.relu_(buf0)\n        buf3 = torch.empty_strided"),
        "an operand of the GEMM changes between them": ("        del arg1_1\n",
                                                        "        del arg1_1\n        _kev_gemm_0_bias = None\n"),
        "the reduction reads the buffer at another index": ("tl.load(in_ptr0 + (r0_1 + 200 * x0)",
                                                            "tl.load(in_ptr0 + (r0_1 + 100 * x0)"),
        "the reduction writes the buffer": ("    tl.store(out_ptr2 + (r0_1 + 200 * x0), tmp11, r0_mask & xmask)\n",
                                            "    tl.store(in_ptr0 + (r0_1 + 200 * x0), tmp11, r0_mask & xmask)\n"),
        "rows unmasked: a BLOCK_M not dividing M would run past them": (
            "    xmask = xindex < xnumel\n", "    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]\n"),
        "no R0_BLOCK declared in the body (a looped reduction takes it as a parameter)": (
            "    R0_BLOCK: tl.constexpr = 256\n", ""),
        "the GEMM has an epilogue already": ("    acc = acc * alpha\n", "    acc = acc * alpha * 2.0\n"),
        "the buffer is 3-D": ("buf0 = torch.empty_strided((s77, 200), (200, 1)",
                              "buf0 = torch.empty_strided((1, s77, 200), (200 * s77, 200, 1)"),
        "the reduction is kept": ("XBLOCK: tl.constexpr):\n    r0_numel",
                                  "XBLOCK: tl.constexpr):  # kernelevo: keep\n    r0_numel"),
    }
    assert len(row_moves(source)) == 1
    for why, (old, new) in changed.items():
        assert source.count(old) == 1, why
        assert row_moves(source.replace(old, new)) == {}, why


@pytest.mark.gpu
@pytest.mark.parametrize(("spec", "library"), [("linear_softmax.py", SOFTMAX), ("linear_logsumexp.py", LOGSUMEXP)],
                         ids=["softmax", "logsumexp"])
def test_on_a_gpu_the_reduction_in_the_gemms_epilogue_computes_the_same(spec: str, library: str) -> None:
    """Compiled for the GPU, inductor's own max2 kept: the fused kernel is correct on every variant and timed."""
    source = own_gemm(library)
    ((_, fused),) = row_moves(source).items()
    with Evaluator(read_spec(str(SPECS / spec)), EvalOptions(baselines=["eager"])) as evaluator:
        results = [evaluator.evaluate(s) for s in (source, fused)]
    assert all(r.correct and r.kernel and not r.kernel.interpreted for r in results), \
        [(r.error, r.message) for r in results]
