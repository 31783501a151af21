"""Conv3d 16 -> 32, 3^3, on 32 x 16 x 16 x 64^2 fp32, min over depth, softmax over channels (KB level 2 24)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv(x)
        x = torch.min(x, dim=2).values
        return torch.softmax(x, dim=1)


batch_size = 32
in_channels = 16
out_channels = 32
kernel_size = 3
depth = 16
height = 64
width = 64


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]


KERNELEVO = {
    "dtype": "float32",
    # cuDNN runs an fp32 convolution in TF32 by default (torch.backends.cudnn.allow_tf32), so the reference
    # misses exact fp32 by ~1e-3 on a GPU; KernelBench's original tolerance, 1e-2, admits both
    "atol": 1e-2,
    "rtol": 1e-2,
    "variants": {
        "small": {"batch_size": 2, "in_channels": 3, "out_channels": 4, "depth": 4, "height": 8, "width": 8},
        "odd": {"batch_size": 3, "in_channels": 3, "out_channels": 5, "depth": 5, "height": 7, "width": 9},
    },
}
