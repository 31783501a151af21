"""Attack: subclass the reference (class ModelNew(Model)) and inherit its forward.

Harness weakness targeted: harnesses that execute the candidate in the reference's
namespace (or that import both into one module, as KernelBench's generated files do)
make Model a visible global; ModelNew then inherits the reference's forward and
is exact by construction. A kernel is defined but the inherited forward does the work.
kernelevo rejects any use of the name Model statically (and the candidate's module
never sees the reference's globals).
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh), mask=mask)


class ModelNew(Model):  # noqa: F821  (the reference, when the harness shares its namespace)
    def __init__(self):
        super().__init__()
        self.kernel = gelu_kernel
