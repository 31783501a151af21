"""AvgPool2d, 5 x 5 windows side by side (stride 5), over 1 x 2 x 30 x 40 fp32 (the window follows init).

Tests only: sizes the CPU interpreter runs in seconds. The template mutants of test_families run a program per
output element (blocks of 1 x 1), so the planes count: one image of 2 channels here, and 'odd' one image of 5
(2 x 3 and 3 x 5 took the family test from 33 to 20 s standalone); 'small' keeps 2 images of 4 channels, so the
planes' batch stride is still exercised. The planes' shapes, and so the seeds, are unchanged."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


batch_size = 1
channels = 2
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
        "odd": {"batch_size": 1, "channels": 5, "height": 13, "width": 17, "kernel_size": 3},
    },
}
