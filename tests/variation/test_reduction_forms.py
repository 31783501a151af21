"""The moves between reduction forms (kernelevo.variation.moves.reduction_forms): looped rows made resident,
single-program rows split. What the moved modules compute is judged by the real evaluator on the CPU
interpreter, on inductor's own modules (the captures the search seeds from, converted) and on hand-written
kernels of the same shapes.

The interpreter runs inductor's ``max2`` (a ``tl.reduce`` over its own combine function) one element at a
time, about 1.5 s a row of 2048, so the softmax and cross-entropy specs are judged with fewer rows; their
row lengths (a power of two and two that are not) stay.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from eval_options import correctness_options

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.records.result import EvalResult
from kernelevo.spec import read_spec
from kernelevo.utils.pyast import dotted_name
from kernelevo.variation.moves.reduction_forms import LIMIT
from kernelevo.variation.moves.restructure import moves
from kernelevo.variation.moves.split_rows import SPLITS
from kernelevo.variation.moves.template import find_tunables
from kernelevo.variation.seeding.inductor_capture import Capture
from kernelevo.variation.seeding.inductor_seed import to_candidate
from kernelevo.variation.source.source_text import Move

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SUITE = ROOT / "benchmarks" / "suite"


def seed(name: str) -> str:
    return to_candidate(Capture.from_json((HERE / "inductor_captures" / f"{name}.json").read_text()))


def offered(source: str, kind: str) -> list[Move]:
    """The moves of one form: "resident" or "split"."""
    return [m for m in moves(source) if (" resident" in m.label if kind == "resident" else "rows split" in m.label)]


def without_libdevice_exp(source: str) -> str:
    """The interpreter has no libdevice: inductor's exact exp through exp2, as the restructure move writes it."""
    fast = [m for m in moves(source) if m.label.endswith("exp through exp2")]
    return fast[0].apply() if fast else source


def judged(source: str, spec: Path, **options: object) -> EvalResult:
    evaluator = Evaluator(read_spec(str(spec)), correctness_options(**options))  # type: ignore[arg-type]
    try:
        return evaluator.evaluate(source)
    finally:
        evaluator.close()


def kernel(source: str, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == name)


def loads(node: ast.AST, pointer: str, *, in_loops: bool = False) -> int:
    """The ``tl.load``s through ``pointer`` in ``node`` (only those inside a loop, with ``in_loops``)."""
    scopes = [n for n in ast.walk(node) if isinstance(n, ast.For)] if in_loops else [node]
    return sum(isinstance(n, ast.Call) and dotted_name(n.func) == "tl.load" and pointer in ast.unparse(n.args[0])
               for scope in scopes for n in ast.walk(scope))


def smaller(tmp_path: Path, spec: str, replacements: dict[str, str]) -> Path:
    """The suite's spec ``spec`` with fewer rows (each replacement made once)."""
    text = (SUITE / f"{spec}.py").read_text()
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{spec}.py"
    path.write_text(text)
    return path


SOFTMAX_ROWS = {"batch_size = 16384": "batch_size = 2", "dim = 8192": "dim = 512",
                '"batch_size": 8, "dim": 1000': '"batch_size": 2, "dim": 1000',
                '"batch_size": 5, "dim": 1531': '"batch_size": 2, "dim": 1531'}


# -- looped rows become resident: inductor's generic kernels ---------------------------------------------------

def test_inductors_online_softmax_reads_its_row_once_in_the_resident_form(tmp_path: Path) -> None:
    """Three loops over the row (max, sum of exps, normalize), each loading it; resident: one load, and the
    looped kernel stays for rows past the limit."""
    source = without_libdevice_exp(seed("softmax_rows"))
    found = offered(source, "resident")
    assert len(found) == 1, [m.label for m in moves(source)]
    moved = found[0].apply()
    name = "triton_red_fused__softmax_exp_prepare_softmax_online_sub_0"
    looped, resident = kernel(moved, name), kernel(moved, f"{name}_resident")
    assert loads(looped, "in_ptr0", in_loops=True) == 3
    assert loads(resident, "in_ptr0") == 1 and not [n for n in ast.walk(resident) if isinstance(n, ast.For)]
    assert f"if 0 < s50 <= {LIMIT}:" in moved and "R0_BLOCK=triton.next_power_of_2(s50)" in moved  # the row's block
    assert not offered(moved, "resident")  # nothing left to move
    result = judged(moved, smaller(tmp_path, "softmax_rows", SOFTMAX_ROWS), correctness_trials=1)
    assert result.correct, (result.error, result.message)


@pytest.mark.parametrize("name", ["rmsnorm_dim1", "sum_dim1"])
def test_inductors_looped_sums_are_correct_resident(name: str) -> None:
    moved = offered(seed(name), "resident")
    assert len(moved) == 1
    source = moved[0].apply()
    assert loads(ast.parse(source), "in_ptr0", in_loops=True) == 1  # the looped kernel's, kept for long rows
    result = judged(source, SUITE / f"{name}.py")
    assert result.correct, (result.error, result.message)


def test_inductors_cross_entropy_kernels_become_resident_one_after_the_other(tmp_path: Path) -> None:
    source = without_libdevice_exp(seed("cross_entropy"))
    first = offered(source, "resident")
    assert len(first) == 2  # the online softmax's statistics and the loss over the targets
    moved = first[0].apply()
    assert loads(kernel(moved, "triton_red_fused_prepare_softmax_online_0_resident"), "in_ptr0") == 1
    second = offered(moved, "resident")
    assert len(second) == 1
    moved = second[0].apply()
    spec = smaller(tmp_path, "cross_entropy", {
        "batch_size = 32768": "batch_size = 2", "num_classes = 4096": "num_classes = 100",
        '"batch_size": 8, "num_classes": 100': '"batch_size": 3, "num_classes": 100',
        '"batch_size": 5, "num_classes": 1531': '"batch_size": 2, "num_classes": 1531'})
    result = judged(moved, spec, correctness_trials=1)
    assert result.correct, (result.error, result.message)


def test_a_row_past_the_limit_gets_no_resident_form() -> None:
    """Inductor's layernorm splits each sample in 32 rows of 131072 elements: four times the limit."""
    source = seed("layernorm")
    assert "r0_numel = 131072" in source and not offered(source, "resident")


# -- looped rows become resident: a row of known length, written in place ------------------------------------

STATIC = '''"""A softmax over rows of {n} as inductor writes a looped reduction for static sizes (tl.max, tl.sum
and tl.exp for its helpers: the interpreter runs them fast)."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def triton_red_fused_softmax_0(in_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    r0_numel = {n}
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + {n} * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = tl.maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.max(_tmp2, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_1 = r0_index
        tmp4 = tl.load(in_ptr0 + (r0_1 + {n} * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = tl.exp(tmp5)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        r0_1 = r0_index
        tmp10 = tl.load(in_ptr0 + (r0_1 + {n} * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp11 = tmp10 - tmp2
        tmp12 = tl.exp(tmp11)
        tmp13 = tmp12 / tmp8
        tl.store(out_ptr2 + (r0_1 + {n} * x0), tmp13, r0_mask & xmask)


class ModelNew(nn.Module):
    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        rows = arg0_1.shape[0]
        buf2 = torch.empty_strided((rows, {n}), ({n}, 1), dtype=torch.float32, device=device)
        triton_red_fused_softmax_0[(triton.cdiv(rows, {xblock}), 1, 1)](arg0_1, buf2, rows, {n}, XBLOCK={xblock},
                                                                     R0_BLOCK=256, num_warps=4, num_stages=1)
        return buf2
'''

SOFTMAX_SPEC = '''"""Softmax over rows of {n} fp32; the variants change the rows alone."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


batch_size = 6
dim = {n}


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {{"dtype": "float32", "variants": {{"small": {{"batch_size": 3}}, "odd": {{"batch_size": 5}}}}}}
'''


@pytest.mark.parametrize("n, xblock, narrowed", [(1000, 2, 2), (8192, 8, 4)])
def test_a_row_of_known_length_becomes_resident_in_place(tmp_path: Path, n: int, xblock: int, narrowed: int) -> None:
    """Its block declared in its body, out of the template operator's reach; a program holding more than the
    limit holds fewer rows (XBLOCK with its grid's cdiv); warps for 64 elements a thread."""
    source = STATIC.format(n=n, xblock=xblock)
    found = offered(source, "resident")
    assert len(found) == 1, [m.label for m in moves(source)]
    moved = found[0].apply()
    width = 1 << (n - 1).bit_length()
    assert f"    R0_BLOCK: tl.constexpr = {width}" in moved and "R0_BLOCK: tl.constexpr)" not in moved
    launch = moved[moved.index("triton_red_fused_softmax_0["):moved.index("return buf2")]
    assert "R0_BLOCK=" not in launch and f"XBLOCK={narrowed}," in launch and f"cdiv(rows, {narrowed})" in launch
    assert f"num_warps={max(4, width * narrowed // 2048)}," in launch
    assert loads(ast.parse(moved), "in_ptr0") == 1 and "for r0_offset" not in moved
    assert "R0_BLOCK" not in {t.name for t in find_tunables(moved)}
    spec = tmp_path / "softmax_known.py"
    spec.write_text(SOFTMAX_SPEC.format(n=n))
    result = judged(moved, spec, correctness_trials=1)
    assert result.correct, (result.error, result.message)


def test_a_known_row_past_the_limit_and_a_kept_kernel_get_none() -> None:
    assert not offered(STATIC.format(n=2 * LIMIT, xblock=1), "resident")
    kept = STATIC.format(n=1000, xblock=2).replace("R0_BLOCK: tl.constexpr):",
                                                   "R0_BLOCK: tl.constexpr):  # kernelevo: keep")
    assert offered(STATIC.format(n=1000, xblock=2), "resident") and not offered(kept, "resident")
    assert not offered(kept, "split")


def test_a_row_whose_length_the_kernel_changes_gets_none() -> None:
    source = (ROOT / "examples" / "softmax" / "seed_online.py").read_text()
    line = "    cols = tl.arange(0, BLOCK_SIZE)\n"
    changed = source.replace(line, line + "    n_cols = n_cols * 2\n")
    assert changed != source and offered(source, "resident") and not offered(changed, "resident")


def test_kernels_that_do_not_loop_over_a_row_get_none() -> None:
    for example in ("gelu/seed.py", "softmax/seed.py", "matmul_epilogue/seed.py"):  # elementwise, resident, a GEMM
        source = (ROOT / "examples" / example).read_text()
        assert not offered(source, "resident") and not offered(source, "split"), example


# -- looped rows become resident: a hand-written online softmax ----------------------------------------------

def test_a_hand_written_online_softmax_reads_its_row_once() -> None:
    """Its second pass loads the chunk the first pass loaded: the statement goes, unless a store that may alias
    the row comes between."""
    source = (ROOT / "examples" / "softmax" / "seed_online.py").read_text()
    found = offered(source, "resident")
    assert len(found) == 1
    moved = found[0].apply()
    resident = kernel(moved, "online_softmax_kernel_resident")
    assert loads(resident, "x_row") == 1 and "BLOCK_SIZE=triton.next_power_of_2(n_cols)" in moved
    result = judged(moved, ROOT / "examples" / "softmax" / "spec.py")
    assert result.correct, (result.error, result.message)
    # rows past the guard take the looped kernel: with a guard of 1024, the odd variant's rows of 1531
    fallback = moved.replace(f"if 0 < n_cols <= {LIMIT}:", "if 0 < n_cols <= 1024:")
    assert fallback != moved
    result = judged(fallback, ROOT / "examples" / "softmax" / "spec.py")
    assert result.correct, (result.error, result.message)
    # in place: the output's store comes after the second pass's load, which still goes
    in_place = source.replace("x, out, n_cols, x.stride(0), out.stride(0)", "x, x, n_cols, x.stride(0), x.stride(0)")
    again = kernel(offered(in_place, "resident")[0].apply(), "online_softmax_kernel_resident")
    assert loads(again, "x_row") == 1
    # a store between the passes: through another buffer the load still goes, through the row's own it stays
    storing = source.replace("    inv_d = 1.0 / d\n", "    inv_d = 1.0 / d\n    tl.store(out_row, inv_d)\n")
    assert loads(kernel(offered(storing, "resident")[0].apply(), "online_softmax_kernel_resident"), "x_row") == 1
    aliased = storing.replace("x, out, n_cols, x.stride(0), out.stride(0)", "x, x, n_cols, x.stride(0), x.stride(0)")
    assert loads(kernel(offered(aliased, "resident")[0].apply(), "online_softmax_kernel_resident"), "x_row") == 2


# -- single-program rows split ------------------------------------------------------------------------------

ROW_KERNEL = '''"""One program a row, looping over it."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = {init}
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other={other})
        {update}
    tl.store(out_ptr + row, {result})


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
        row_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=256)
        return out
'''

ROW_SPEC = '''"""{what} over the rows of 4 x 4096 fp32: few long rows."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return {reference}


batch_size = 4
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {{"dtype": "float32", "variants": {{"small": {{"batch_size": 3, "dim": 1000}},
                                            "odd": {{"batch_size": 5, "dim": 1531}}}}}}
'''

SUM = {"init": "tl.zeros([BLOCK], dtype=tl.float32)", "other": "0.0", "update": "acc += x",
       "result": "tl.sum(acc, axis=0)"}
MEAN = {**SUM, "update": "acc = acc + x", "result": "tl.sum(acc, axis=0) / n_cols"}
MAX = {"init": "tl.full([BLOCK], float('-inf'), tl.float32)", "other": "float('-inf')",
       "update": "acc = tl.maximum(acc, x)", "result": "tl.max(acc, axis=0)"}


@pytest.mark.parametrize("what, parts, reference, splits", [("Sum", SUM, "x.sum(dim=1)", 16),
                                                           ("Sum", SUM, "x.sum(dim=1)", 64),
                                                           ("Mean", MEAN, "x.mean(dim=1)", 4)])
def test_a_single_program_sum_or_mean_splits_its_rows(tmp_path: Path, what: str, parts: dict[str, str],
                                                      reference: str, splits: int) -> None:
    """64 programs a row of 1000 (4 blocks of 256): most slices are empty and add zero."""
    source = ROW_KERNEL.format(**parts)
    found = offered(source, "split")
    assert [re.search(r"split over (\d+) programs", m.label).group(1) for m in found] == [str(s) for s in SPLITS]  # type: ignore[union-attr]
    moved = next(m for m in found if f"split over {splits} programs" in m.label).apply()
    assert f"row_kernel[(x.shape[0], {splits})]" in moved and "torch.zeros(x.shape[0]" in moved
    assert "tl.atomic_add(out_ptr + row" in moved and "range(_split_start, _split_end, BLOCK)" in moved
    spec = tmp_path / "rows.py"
    spec.write_text(ROW_SPEC.format(what=what, reference=reference))
    result = judged(moved, spec, correctness_trials=1)
    assert result.correct, (result.error, result.message)


@pytest.mark.parametrize("parts", [MAX, {**SUM, "result": "tl.sqrt(tl.sum(acc, axis=0))"},
                                   {**SUM, "result": "tl.sum(acc, axis=0) + 1.0"},
                                   {**SUM, "update": "acc = acc * 0.5 + x"},
                                   {**SUM, "update": "acc += x\n        tl.store(out_ptr + row, 0.0)"}],
                         ids=["max", "norm", "affine", "decaying", "stores-in-loop"])
def test_a_reduction_not_linear_in_its_sum_does_not_split(parts: dict[str, str]) -> None:
    source = ROW_KERNEL.format(**parts)
    compile(source, "row_kernel", "exec")
    assert not offered(source, "split")


def test_a_sum_of_any_elementwise_function_splits() -> None:
    """An L1 norm's sum of absolute values, a sum of squares: linear in what is added, whatever that is."""
    for update in ("acc += tl.abs(x)", "acc = x * x + acc", "acc -= x"):
        assert len(offered(ROW_KERNEL.format(**{**SUM, "update": update}), "split")) == len(SPLITS), update


def test_an_output_not_allocated_for_the_launch_or_an_autotuned_kernel_does_not_split() -> None:
    source = ROW_KERNEL.format(**SUM)
    assert offered(source, "split")
    given = source.replace("out = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)",
                           "out = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)\n        out.fill_(1.0)")
    assert not offered(given, "split")
    tuned = source.replace("@triton.jit", "@triton.autotune(configs=[triton.Config({}, num_warps=4)], key=[])\n"
                                          "@triton.jit")
    assert not offered(tuned, "split")


@pytest.mark.parametrize("name", ["rmsnorm_dim1", "sum_dim1"])
def test_inductors_looped_sums_split_their_rows(name: str) -> None:
    """RMSNorm's sum of squares (stored for the pointwise kernel after it) and a plain sum."""
    found = offered(seed(name), "split")
    assert len(found) == len(SPLITS)
    moved = next(m for m in found if "split over 64 programs" in m.label).apply()
    assert re.search(r"\[\(triton\.cdiv\(\w+_xnumel, 64\), 64, 1\)\]", moved)
    assert ".zero_()" in moved and "tl.atomic_add(out_ptr0 + x3, " in moved
    result = judged(moved, SUITE / f"{name}.py")
    assert result.correct, (result.error, result.message)


def test_inductors_softmax_does_not_split() -> None:
    assert not offered(seed("softmax_rows"), "split")


# -- on a GPU ----------------------------------------------------------------------------------------------------

@pytest.mark.gpu
def test_on_a_gpu_inductors_softmax_is_correct_resident_at_its_real_size() -> None:
    """16384 rows of 8192: the resident kernel (R0_BLOCK 8192, 16 warps) compiled by Triton, not interpreted."""
    moved = offered(seed("softmax_rows"), "resident")[0].apply()
    with Evaluator(read_spec(str(SUITE / "softmax_rows.py")), EvalOptions(baselines=["eager"])) as evaluator:
        result = evaluator.evaluate(moved)
    assert result.correct, (result.error, result.message)
