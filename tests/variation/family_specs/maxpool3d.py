"""MaxPool3d, kernel 3, stride 2, padding 1, dilation 3, over 2 x 2 x 12 x 10 x 13 fp32.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.pool = nn.MaxPool3d(kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 2
channels = 2
depth = 12
height = 10
width = 13
kernel_size = 3
stride = 2
padding = 1
dilation = 3


def get_inputs():
    return [torch.randn(batch_size, channels, depth, height, width)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "channels": 2, "depth": 8, "height": 8, "width": 8},
        "odd": {"batch_size": 3, "channels": 3, "depth": 9, "height": 7, "width": 11},
    },
}
