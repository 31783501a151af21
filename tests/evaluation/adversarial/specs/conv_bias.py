"""Conv2d without its own bias, then ReLU and a separate bias: KernelBench level 2's Conv2d_ReLU_BiasAdd.

The library policy lets a candidate hand the convolution to cuDNN; the ReLU and the bias
must run in its own kernels. The adversarial suite's library cases run on it.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1, bias=False)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x)) + self.bias


batch_size = 128
in_channels = 64
out_channels = 128
size = 64
kernel_size = 3


def get_inputs():
    return [torch.randn(batch_size, in_channels, size, size)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]


KERNELEVO = {
    "variants": {
        "small": {"batch_size": 2, "in_channels": 3, "out_channels": 4, "size": 8},
        "odd": {"batch_size": 3, "in_channels": 5, "out_channels": 7, "size": 9},
    },
}
