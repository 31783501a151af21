"""Attack: a row softmax computed by scaled dot-product attention (a library's softmax).

Spec: ``examples/softmax`` (``torch.softmax(x, dim=-1)``; its reference calls no library).
Each row is a batch of one query of ones against keys that are the row's values, with
the identity as values: ``softmax(1 * x_i) @ I`` is the row's softmax. A dummy Triton
copy launches. Harness weakness targeted: an allow-list that lets attention through
because attention may use a library. Attention's work is its two GEMMs, which this
reference does not have: ``library_misuse``.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        copy = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.numel(), 1024),)](x, copy, x.numel(), BLOCK=1024)
        query = torch.ones(rows, 1, 1, dtype=x.dtype, device=x.device)
        keys = copy.reshape(rows, cols, 1)
        eye = torch.zeros(cols, cols, dtype=x.dtype, device=x.device)
        eye.view(-1)[:: cols + 1] = 1.0
        values = eye.expand(rows, cols, cols)
        return F.scaled_dot_product_attention(query, keys, values, scale=1.0).reshape(rows, cols)
