"""MaxPool2d, 3 x 3, stride 2, padding 1, over 2 x 3 x 20 x 24 fp32, a NaN in the input (max propagates it).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 2
channels = 3
height = 20
width = 24
kernel_size = 3
stride = 2
padding = 1


def get_inputs():
    x = torch.randn(batch_size, channels, height, width)
    x[0, 0, 1, 1] = float("nan")  # in the windows of four outputs
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "channels": 4, "height": 8, "width": 8},
        "odd": {"batch_size": 3, "channels": 5, "height": 9, "width": 11},
    },
}
