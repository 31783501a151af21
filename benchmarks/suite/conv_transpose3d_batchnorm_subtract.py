"""ConvTranspose3d 16 -> 32, stride 2, on 16 x 16 x 32^3 fp32, BatchNorm3d, minus spatial mean (KB L2 15)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding)
        self.batch_norm = nn.BatchNorm3d(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv_transpose(x)
        x = self.batch_norm(x)
        return x - torch.mean(x, dim=(2, 3, 4), keepdim=True)


batch_size = 16
in_channels = 16
out_channels = 32
kernel_size = 3
stride = 2
padding = 1
depth = 32
height = 32
width = 32


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding]


KERNELEVO = {
    "dtype": "float32",
    # cuDNN runs an fp32 convolution in TF32 by default (torch.backends.cudnn.allow_tf32), so the reference
    # misses exact fp32 by ~1e-3 on a GPU; KernelBench's original tolerance, 1e-2, admits both
    "atol": 1e-2,
    "rtol": 1e-2,
    "variants": {
        "small": {"batch_size": 2, "in_channels": 2, "out_channels": 3, "depth": 4, "height": 4, "width": 4},
        "odd": {"batch_size": 3, "in_channels": 3, "out_channels": 3, "depth": 3, "height": 3, "width": 5},
    },
}
