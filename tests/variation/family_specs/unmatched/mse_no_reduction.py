"""MSE with reduction="none": a tensor out, no reduction, which the loss family does not write (tests only)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return nn.functional.mse_loss(a, b, reduction="none")


def get_inputs():
    return [torch.randn(6, 40), torch.randn(6, 40)]


def get_init_inputs():
    return []


KERNELEVO = {"dtype": "float32"}
