"""The judge's memory plan: an honest kernel fits in 5 x D + 4 GiB, and the child gets what is left."""

from __future__ import annotations

import pytest

from kernelevo.evaluation.common.memory import CHILD_CONTEXT_BYTES, CHILD_CONTEXTS, MemoryPlan, plan_memory
from kernelevo.spec import SpecError
from kernelevo.spec.probe import TensorInfo, VariantInfo
from kernelevo.spec.sizes import GIB


def variant(name: str, elements: int, *, reference_temporaries: int = 1) -> VariantInfo:
    """A fp32 variant of one input and one output of ``elements``; the reference's peak holds its input,
    its output and ``reference_temporaries`` more tensors of that size (x**2 in RMSNorm, say)."""
    shape = [elements]
    return VariantInfo(name=name, inputs=[TensorInfo(shape=shape, dtype="float32")],
                       outputs=[TensorInfo(shape=shape, dtype="float32")], param_bytes=0, flops=0,
                       reference_peak_bytes=4 * elements * (2 + reference_temporaries))


def plan(device_bytes: int, elements: int, wanted_sets: int = 3) -> MemoryPlan:
    variants = {"small": variant("small", 1000), "default": variant("default", elements)}
    return plan_memory(device_bytes=device_bytes, judge_resident_bytes=GIB // 2, variants=variants,
                       timed="default", wanted_sets=wanted_sets)


def test_a_7_gib_in_7_gib_out_spec_fits_in_5d_plus_4_gib() -> None:
    elements = 7 * GIB // 4
    live = 14 * GIB
    p = plan(5 * live + 4 * GIB, elements)
    assert p.live_data_bytes == live
    assert p.judge_bytes + p.child_limit_bytes + CHILD_CONTEXTS * CHILD_CONTEXT_BYTES == p.device_bytes
    assert p.child_limit_bytes >= p.child_need_bytes >= live  # inputs and outputs, or inputs twice
    assert p.timing_sets >= 2


def test_the_child_gets_what_the_judge_does_not_need() -> None:
    small, large = plan(40 * GIB, GIB // 4), plan(80 * GIB, GIB // 4)
    assert small.judge_bytes == large.judge_bytes
    assert large.child_limit_bytes - small.child_limit_bytes == 40 * GIB


def test_timing_sets_shrink_to_what_fits_next_to_the_outputs() -> None:
    elements = 7 * GIB // 4
    assert plan(200 * GIB, elements).timing_sets == 3
    tight = plan(5 * 14 * GIB, elements, wanted_sets=8)
    assert 1 <= tight.timing_sets < 8
    room = tight.child_limit_bytes - 7 * GIB - 512 * 2**20
    assert tight.timing_sets == room // (7 * GIB)


def test_a_gpu_too_small_is_a_spec_error_with_the_sizes() -> None:
    with pytest.raises(SpecError) as info:
        plan(35 * GIB, 7 * GIB // 4)  # the judge keeps 22 GiB (a 21 GiB reference peak): 12 GiB left
    message = str(info.value)
    assert "14.00 GiB of live data" in message and "35.00 GiB of GPU memory" in message
    assert "smaller variant" in message
