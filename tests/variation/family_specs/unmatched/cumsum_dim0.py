"""A cumulative sum down the columns (dim 0), not along rows: the scan family does not write it (tests only)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=0)


def get_inputs():
    return [torch.randn(6, 40)]


def get_init_inputs():
    return []


KERNELEVO = {"dtype": "float32"}
