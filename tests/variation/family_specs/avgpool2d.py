"""AvgPool2d, 5 x 5 windows side by side (stride 5), over 2 x 3 x 30 x 40 fp32 (the window follows init).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 2
channels = 3
height = 30
width = 40
kernel_size = 5


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
