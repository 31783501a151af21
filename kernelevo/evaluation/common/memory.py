"""How one evaluation shares a GPU's memory between the judge and the candidate's child.

The judge and the candidate's child each hold a copy of a variant's data: the child its
inputs and the candidate's outputs, the judge the pristine inputs and the reference's
outputs, computed after the candidate ran. Nothing else is kept: the child sends its
buffers to the judge by CUDA IPC (no copies), one call at a time, and comparisons walk
the tensors in chunks. So an evaluation needs about two copies of the live data D plus
the reference's temporaries, and :func:`plan_memory` splits what the GPU has free
accordingly: the judge keeps what it measured it needs, and the child gets the rest as
its allocator's limit, so a kernel that over-allocates still gets ``out_of_memory`` while
an honest one fits wherever the spec fits (target: 5 x D + 4 GiB).
"""

from __future__ import annotations

from pydantic import BaseModel

from kernelevo.spec.errors import SpecError
from kernelevo.spec.probe import VariantInfo
from kernelevo.spec.sizes import GIB, gib

MIB = 1 << 20
CHILD_CONTEXT_BYTES = 1 * GIB  # the child's CUDA context and library workspaces: outside its allocator's limit
# the candidate's child, and the next one, which makes its context while the candidate is checked (child_pool.py)
CHILD_CONTEXTS = 2
COMPARE_BYTES = 512 * MIB  # the judge's chunked comparisons (kernelevo.utils.tensors)
CHILD_SCRATCH_BYTES = 512 * MIB  # an honest candidate's own room beyond its outputs, and the L2 flush buffer


class MemoryPlan(BaseModel):
    """The split of one GPU's memory between the judge and the candidate's child, in bytes."""

    device_bytes: int  # what the evaluation may use: free when the judge started, or the options' cap
    judge_bytes: int  # what the judge holds after its start plus one reference run and a comparison
    child_limit_bytes: int  # the candidate child's allocator limit: the rest, less room for its CUDA context
    child_need_bytes: int  # an honest candidate's least: inputs twice (refilled in place) or inputs and outputs
    live_data_bytes: int  # D: inputs, outputs and parameters of the largest variant
    timing_sets: int  # input sets the timing loop rotates (as many as fit next to the outputs, up to the options')


def plan_memory(*, device_bytes: int, judge_resident_bytes: int, variants: dict[str, VariantInfo], timed: str,
                wanted_sets: int) -> MemoryPlan:
    """Split ``device_bytes`` between the judge and the child; a :class:`SpecError` when the spec cannot fit."""
    working = max((v.reference_peak_bytes or 0) for v in variants.values())
    judge = judge_resident_bytes + working + COMPARE_BYTES
    need = max(_child_need(v) for v in variants.values())
    contexts = CHILD_CONTEXTS * CHILD_CONTEXT_BYTES
    limit = device_bytes - judge - contexts
    live = max(v.min_bytes for v in variants.values())
    if limit < need:
        raise SpecError(
            f"the spec holds {gib(live)} of live data (inputs, outputs and parameters of its largest variant); "
            f"judging a kernel needs {gib(judge)} on the reference's side (what the judge keeps, and one reference "
            f"run at its peak of {gib(working)}) and at least {gib(need + contexts)} on the candidate's, "
            f"but this evaluation has {gib(device_bytes)} of GPU memory: judge it on a larger GPU, "
            f"or time a smaller variant")
    info = variants[timed]
    room = limit - info.output_bytes - info.param_bytes - CHILD_SCRATCH_BYTES
    sets = max(1, min(wanted_sets, room // max(info.input_bytes, 1)))
    return MemoryPlan(device_bytes=device_bytes, judge_bytes=judge, child_limit_bytes=limit, child_need_bytes=need,
                      live_data_bytes=live, timing_sets=sets)


def _child_need(info: VariantInfo) -> int:
    # Refilling the inputs in place builds new values next to the old buffers (2 x inputs); a call
    # holds the inputs and the outputs. Parameters are held throughout.
    return info.input_bytes + max(info.input_bytes, info.output_bytes) + info.param_bytes + CHILD_SCRATCH_BYTES
