"""MaxPool2d, 3 x 3, stride 2, padding 1 (ResNet's), over 32 x 64 x 256 x 256 fp32: 640 MiB moved."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 32
channels = 64
height = 256
width = 256
kernel_size = 3
stride = 2
padding = 1


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [kernel_size, stride, padding]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "channels": 4, "height": 8, "width": 8},
        "odd": {"batch_size": 3, "channels": 5, "height": 9, "width": 11},
    },
}
