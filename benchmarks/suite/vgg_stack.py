"""VGG's first two blocks (3 x 3 convs 3 -> 64 -> 64 -> 128 -> 128, ReLUs, 2 x 2 max pools) on 16 x 3 x 224^2 fp32."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels: int, width1: int, width2: int):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_channels, width1, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(width1, width1, 3, padding=1), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(width1, width2, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(width2, width2, 3, padding=1), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.features(x)


batch_size = 16
in_channels = 3
width1 = 64
width2 = 128
height = 224
width = 224


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, width1, width2]


KERNELEVO = {
    "dtype": "float32",
    # cuDNN runs an fp32 convolution in TF32 by default (torch.backends.cudnn.allow_tf32), so the reference
    # misses exact fp32 by ~1e-3 on a GPU; KernelBench's original tolerance, 1e-2, admits both
    "atol": 1e-2,
    "rtol": 1e-2,
    "variants": {
        "small": {"batch_size": 2, "width1": 4, "width2": 8, "height": 8, "width": 8},
        "odd": {"batch_size": 3, "width1": 5, "width2": 7, "height": 9, "width": 11},
    },
}
