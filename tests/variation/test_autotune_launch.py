"""The autotune move: a kernel launched with one configuration is autotuned around it, computes the same
(judged by the real evaluator: on the CPU interpreter, which runs the first config; on a GPU, which tries
them all), and lands in the autotuned level of the archive."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kernelevo.archive.descriptors import parallelism_level
from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.spec import read_spec
from kernelevo.variation.moves.autotune_launch import autotunings
from kernelevo.variation.moves.restructure import moves
from kernelevo.variation.seeding.inductor_capture import Capture
from kernelevo.variation.seeding.inductor_seed import to_candidate
from kernelevo.variation.source.source_text import SourceText

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SUITE = ROOT / "benchmarks" / "suite"
RMSNORM = to_candidate(Capture.from_json((HERE / "inductor_captures" / "rmsnorm_dim1.json").read_text()))
GEMM = (HERE / "gpu_kernels" / "gemm_bias_gelu_persistent_tma.py").read_text()

# an in-place kernel: each trial run would apply the ReLU-and-double again to what the last one wrote
IN_PLACE = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def double_relu(in_out_ptr0, n, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ptrs = in_out_ptr0 + offs * stride
    x = tl.load(ptrs, mask=offs < n)
    tl.store(ptrs, tl.maximum(x, 0.0) * 2.0, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        y = x.clone()
        n = y.numel()
        double_relu[(triton.cdiv(n, 1024),)](y, n, 1, BLOCK=1024, num_warps=4)
        return y
'''


def _autotuned(source: str) -> list[tuple[str, str]]:
    return [(m.label, m.apply()) for m in autotunings(source, ast.parse(source), SourceText(source))]


def test_a_kernel_is_autotuned_around_its_launch_configuration_which_comes_first() -> None:
    found = _autotuned(IN_PLACE)
    assert [label for label, _ in found] == ["double_relu: autotuned over num_warps/num_stages 4/3, 2/3, 8/3"]
    source = found[0][1]
    assert ("@triton.autotune(configs=[triton.Config({}, num_warps=4, num_stages=3), "
            "triton.Config({}, num_warps=2, num_stages=3), triton.Config({}, num_warps=8, num_stages=3)], "
            "key=['n', 'stride', 'BLOCK'], restore_value=['in_out_ptr0'], do_bench=_kernelevo_autotune_bench)\n"
            "@triton.jit\ndef double_relu(") in source
    assert "double_relu[(triton.cdiv(n, 1024),)](y, n, 1, BLOCK=1024)\n" in source
    assert source.count("def _kernelevo_autotune_bench(") == 1
    assert (parallelism_level(IN_PLACE), parallelism_level(source)) == (0, 3)
    assert _autotuned(source) == []  # autotuned once


def test_a_kernel_that_loops_also_tries_one_stage_more_and_an_output_it_only_writes_is_not_restored() -> None:
    labels = [label for label, _ in _autotuned(RMSNORM)]
    assert labels == ["triton_red_fused_mean_pow_0: autotuned over num_warps/num_stages 4/1, 2/1, 8/1, 4/2",
                      "triton_poi_fused_add_div_mean_pow_sqrt_1: autotuned over num_warps/num_stages 4/1, 2/1, 8/1"]
    source = _autotuned(RMSNORM)[0][1]
    decorator = next(line for line in source.splitlines() if line.startswith("@triton.autotune"))
    assert "restore_value" not in decorator and "'xnumel'" in decorator and "'in_ptr0'" not in decorator


def test_inductors_persistent_gemm_keeps_its_tiles_and_restores_only_its_in_place_gelu() -> None:
    found = dict(_autotuned(GEMM))
    gemm = found["triton_tem_fused_addmm_t_0_s0: autotuned over num_warps/num_stages 8/3, 4/3, 16/3, 8/4"]
    assert "key=[], do_bench" in gemm  # every size fixed in the kernel, its workspace a pointer
    gelu = next(s for label, s in found.items() if label.startswith("triton_poi_fused_gelu_1_s0"))
    assert "key=['xnumel', 'XBLOCK'], restore_value=['in_out_ptr0']" in gelu
    kept = [label for label in found if "_s1" in label]
    assert kept == []  # the sizes the timing never runs are left alone


def test_no_autotuning_where_trials_could_change_a_result_or_a_launch_could_not_take_it() -> None:
    atomics = IN_PLACE.replace("tl.store(ptrs, tl.maximum(x, 0.0) * 2.0, mask=offs < n)",
                               "tl.atomic_add(ptrs, tl.maximum(x, 0.0), mask=offs < n)")
    two_configs = IN_PLACE.replace("        return y\n",
                                   "        double_relu[(1,)](y, n, 1, BLOCK=1024, num_warps=8)\n        return y\n")
    num_ctas = IN_PLACE.replace("BLOCK=1024, num_warps=4)", "BLOCK=1024, num_warps=4, num_ctas=1)")
    splat = IN_PLACE.replace("BLOCK=1024, num_warps=4)", "**dict(BLOCK=1024, num_warps=4))")
    warps_by_name = IN_PLACE.replace("BLOCK=1024, num_warps=4)", "BLOCK=1024, num_warps=self.warps)")
    kept = IN_PLACE.replace("def double_relu(in_out_ptr0, n, stride, BLOCK: tl.constexpr):",
                            "def double_relu(in_out_ptr0, n, stride, BLOCK: tl.constexpr):  # kernelevo: keep")
    kept_launch = IN_PLACE.replace("BLOCK=1024, num_warps=4)", "BLOCK=1024, num_warps=4)  # kernelevo: keep")
    # out of place as written, in place as launched: the output pointer is the input's buffer
    aliased = IN_PLACE.replace("def double_relu(in_out_ptr0, n, stride, BLOCK: tl.constexpr):",
                               "def double_relu(x_ptr, out_ptr, n, stride, BLOCK: tl.constexpr):") \
        .replace("    ptrs = in_out_ptr0 + offs * stride\n    x = tl.load(ptrs, mask=offs < n)\n    tl.store(ptrs,",
                 "    x = tl.load(x_ptr + offs * stride, mask=offs < n)\n    tl.store(out_ptr + offs * stride,") \
        .replace("](y, n, 1, BLOCK=1024", "](y, y, n, 1, BLOCK=1024")
    not_aliased = aliased.replace("](y, y, n, 1, BLOCK=1024", "](x, y, n, 1, BLOCK=1024")
    assert [label for label, _ in _autotuned(not_aliased)] == [
        "double_relu: autotuned over num_warps/num_stages 4/3, 2/3, 8/3"]
    never_launched = IN_PLACE.replace("double_relu[(triton.cdiv(n, 1024),)](y, n, 1, BLOCK=1024, num_warps=4)",
                                      "pass")
    for name, source in [("atomics", atomics), ("two_configs", two_configs), ("num_ctas", num_ctas),
                         ("splat", splat), ("warps_by_name", warps_by_name), ("kept", kept),
                         ("kept_launch", kept_launch), ("aliased", aliased), ("never_launched", never_launched)]:
        assert source != IN_PLACE, name
        assert _autotuned(source) == [], name


def test_the_structural_moves_offer_it() -> None:
    assert any("autotuned over" in m.label for m in moves(IN_PLACE))


@pytest.mark.parametrize("spec, source", [("rmsnorm_dim1", RMSNORM), ("sum_dim1", None)])
def test_an_autotuned_kernel_computes_the_same_on_every_cpu_variant(spec: str, source: str | None) -> None:
    if source is None:
        source = to_candidate(Capture.from_json((HERE / "inductor_captures" / f"{spec}.json").read_text()))
    tuned = [s for _, s in _autotuned(source)]
    assert tuned
    with Evaluator(read_spec(str(SUITE / f"{spec}.py")), EvalOptions(baselines=["eager"])) as evaluator:
        results = [evaluator.evaluate(s) for s in tuned]
    assert all(r.correct for r in results), [(r.error, r.message) for r in results]


@pytest.mark.gpu
def test_on_a_gpu_autotuned_kernels_are_correct_the_in_place_one_included() -> None:
    """Every config is tried on a GPU: an in-place kernel whose buffer were not restored between trials
    would return its GELU applied several times."""
    tuned = [s for _, s in _autotuned(GEMM)]
    assert len(tuned) == 2
    with Evaluator(read_spec(str(SUITE / "gemm_bias_gelu.py")), EvalOptions(baselines=["eager"])) as evaluator:
        results = [evaluator.evaluate(s) for s in tuned]
        unrestored = evaluator.evaluate(tuned[1].replace(", restore_value=['in_out_ptr0']", ""))
    assert all(r.correct for r in results), [(r.error, r.message) for r in results]
    assert not unrestored.correct


def test_no_trial_runs_on_warps_too_few_to_hold_the_kernels_accumulator() -> None:
    # the sum_dim1 search's best on an H100: inductor's reduction at XBLOCK=128, R0_BLOCK=128 on 4 warps.
    # Its 128 x 128 accumulator is 128 values a thread on 4 warps and would be 256 (a spill) on 2.
    source = to_candidate(Capture.from_json((HERE / "inductor_captures" / "sum_dim1.json").read_text()))
    source = source.replace("XBLOCK=64, R0_BLOCK=64, num_warps=16", "XBLOCK=128, R0_BLOCK=128, num_warps=4")
    source = source.replace("cdiv(triton_red_fused_sum_0_xnumel, 64)", "cdiv(triton_red_fused_sum_0_xnumel, 128)")
    [move] = autotunings(source, ast.parse(source), SourceText(source))
    assert move.label.endswith("autotuned over num_warps/num_stages 4/1, 8/1, 4/2")
    # on 16 warps, as inductor launched it, half and twice the warps both hold it
    [move] = [m for m in moves(to_candidate(Capture.from_json((HERE / "inductor_captures" / "sum_dim1.json")
                                                              .read_text()))) if "autotuned" in m.label]
    assert move.label.endswith("16/1, 8/1, 32/1, 16/2")
