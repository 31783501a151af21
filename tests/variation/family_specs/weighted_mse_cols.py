"""Mean of (a - b)^2 times a weight per column (an input of the last dim's size) over 6 x 2500 fp32.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        return torch.mean((a - b) ** 2 * w)


batch_size = 6
dim = 2500


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim), torch.rand(dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 4, "dim": 100},
        "odd": {"batch_size": 5, "dim": 333}},
}
