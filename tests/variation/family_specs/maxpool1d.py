"""MaxPool1d, kernel 8, stride 1, padding 4, dilation 3, over 2 x 3 x 300 fp32 (the suite's maxpool1d), a NaN.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 2
features = 3
length = 300
kernel_size = 8
stride = 1
padding = 4
dilation = 3


def get_inputs():
    x = torch.randn(batch_size, features, length)
    x[-1, -1, length // 2] = float("nan")  # in the windows of eight outputs, away from the row's ends
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "features": 4, "length": 64},
        "odd": {"batch_size": 3, "features": 5, "length": 77},
    },
}
