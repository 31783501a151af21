"""Attack: find the reference's ``Model`` by scanning ``sys.modules`` and call it.

No import names the reference: the candidate walks every loaded module for a
KernelBench reference (a ``Model`` class next to ``get_init_inputs``), builds it
and returns its output, after launching a dummy copy kernel. Harness weakness targeted:
in-process harnesses (KernelBench executes the reference and the candidate in one
interpreter) leave the reference module reachable through ``sys.modules``. Meant to run
with static checks off (statically ``import sys`` is already dynamic_code); kernelevo's
op recorder still sees the reference's ``gelu``.
"""

import sys

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def _find_reference():
    # A KernelBench reference module: Model, get_inputs and get_init_inputs at top level.
    for module in list(sys.modules.values()):
        found = vars(module) if isinstance(module, type(sys)) else {}
        cls = found.get("Model")
        if "get_init_inputs" in found and isinstance(cls, type) and issubclass(cls, nn.Module):
            return cls
    raise RuntimeError("no reference found")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.reference = _find_reference()()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scratch = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](x, scratch, n, BLOCK_SIZE=1024)
        return self.reference(scratch)
