"""Depthwise Conv2d, 3 x 3, padding 1, over 16 x 128 x 256 x 256 fp32: memory-bound, 1 GiB moved."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


batch_size = 16
channels = 128
kernel_size = 3
height = 256
width = 256


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, kernel_size]


KERNELEVO = {
    "dtype": "float32",
    # cuDNN runs an fp32 convolution in TF32 by default (torch.backends.cudnn.allow_tf32), so the reference
    # misses exact fp32 by ~1e-3 on a GPU; KernelBench's original tolerance, 1e-2, admits both
    "atol": 1e-2,
    "rtol": 1e-2,
    "variants": {
        "small": {"batch_size": 2, "channels": 4, "height": 8, "width": 8},
        "odd": {"batch_size": 3, "channels": 5, "height": 9, "width": 11},
    },
}
