"""ConvTranspose2d 64 -> 32 channels, 3 x 3, stride 2, upsampling 16 x 64 x 128 x 128 fp32 to 256 x 256."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 output_padding: int):
        super().__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding, output_padding=output_padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv_transpose(x)


batch_size = 16
in_channels = 64
out_channels = 32
kernel_size = 3
stride = 2
padding = 1
output_padding = 1
height = 128
width = 128


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding]


KERNELEVO = {
    "dtype": "float32",
    # cuDNN runs an fp32 convolution in TF32 by default (torch.backends.cudnn.allow_tf32), so the reference
    # misses exact fp32 by ~1e-3 on a GPU; KernelBench's original tolerance, 1e-2, admits both
    "atol": 1e-2,
    "rtol": 1e-2,
    "variants": {
        "small": {"batch_size": 2, "in_channels": 4, "out_channels": 3, "height": 6, "width": 6},
        "odd": {"batch_size": 3, "in_channels": 5, "out_channels": 3, "height": 7, "width": 9},
    },
}
