"""LayerNorm whose weight and bias are inputs, not parameters: an affine layout the norm family does not take
(tests only)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(x, (64,), w, b)


def get_inputs():
    return [torch.randn(4, 64), torch.randn(64), torch.randn(64)]


def get_init_inputs():
    return []
