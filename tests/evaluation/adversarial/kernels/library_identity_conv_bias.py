"""Attack: a second, 1x1 identity convolution adds the bias (cuDNN does an op that must be one's own).

Spec: ``specs/conv_bias.py`` (``relu(conv(x)) + bias``). The convolution is the
reference's own and may go to the library; the candidate's Triton kernel does the ReLU,
then ``F.conv2d(y, I, bias)`` with a 1x1 identity weight does the bias add in cuDNN.
Harness weakness targeted: an allow-list of library functions ("convolutions may use
cuDNN") that does not ask what each call computes. kernelevo reduces every library call
to its work and compares it with the reference's: a second convolution of another shape
is work the reference gives no library, ``library_misuse``.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def relu_kernel(y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.maximum(tl.load(y_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1, bias=False)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1))
        self.register_buffer("identity", torch.eye(out_channels).reshape(out_channels, out_channels, 1, 1))

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, padding=1)
        relu = torch.empty_like(y)
        n = y.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](y, relu, n, BLOCK=1024)
        return F.conv2d(relu, self.identity, self.bias.reshape(-1))
