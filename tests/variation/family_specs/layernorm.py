"""LayerNorm over the last two dims of 6 x 40 x 128 fp32 with its affine weights: rows of 5,120, two chunks of 4,096.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.ln(x)

batch_size = 6
dim1 = 40
dim2 = 128


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2) * 2.0 + 3.0]


def get_init_inputs():
    return [(dim1, dim2)]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "dim1": 4, "dim2": 16},
        "odd": {"batch_size": 3, "dim1": 5, "dim2": 33}},
}
