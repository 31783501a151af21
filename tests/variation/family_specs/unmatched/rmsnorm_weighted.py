"""RMSNorm over the last dim times a learned weight: an affine layout the norm family does not take (tests only)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rms = torch.sqrt(torch.mean(x ** 2, dim=-1, keepdim=True) + 1e-6)
        return x / rms * self.weight


def get_inputs():
    return [torch.randn(4, 64)]


def get_init_inputs():
    return [64]
