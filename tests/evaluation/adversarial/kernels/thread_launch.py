"""Attack: run the kernel on a Python thread (started and joined inside forward).

Harmless-looking here (the thread is joined), but a thread is how work escapes the timed
region or the op recorder (dispatch modes are thread-local), and an unjoined thread lets
the work overlap the timer. Harness weakness targeted: KernelBench-style harnesses put no
restriction on threads in the candidate. kernelevo rejects threading imports statically
and wraps ``threading.Thread.start`` in the candidate's process at run time.
"""

import threading

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


def _launch(x, out, n):
    gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        worker = threading.Thread(target=_launch, args=(x, out, x.numel()))
        worker.start()
        worker.join()
        return out
