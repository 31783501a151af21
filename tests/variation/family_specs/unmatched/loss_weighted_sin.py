"""A mean of sin(a - b) times a learned weight: an op and an operand the loss family does not take (tests only)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(40))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.mean(torch.sin(a - b) * self.w)


def get_inputs():
    return [torch.randn(6, 40), torch.randn(6, 40)]


def get_init_inputs():
    return []


KERNELEVO = {"dtype": "float32"}
