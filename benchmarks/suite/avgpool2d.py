"""AvgPool2d, 11 x 11 windows side by side (stride 11), over 16 x 64 x 256 x 256 fp32 (KernelBench level 1 45)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 16
channels = 64
height = 256
width = 256
kernel_size = 11


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [kernel_size]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "channels": 4, "height": 12, "width": 12, "kernel_size": 3},
        "odd": {"batch_size": 3, "channels": 5, "height": 13, "width": 17, "kernel_size": 3},
    },
}
