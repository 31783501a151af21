"""Triplet margin loss (margin 1, L2) over anchor, positive and negative rows of 6 x 2500 fp32 (2,048 chunks).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, margin: float):
        super().__init__()
        self.loss = nn.TripletMarginLoss(margin=margin)

    def forward(self, anchor: torch.Tensor, positive: torch.Tensor, negative: torch.Tensor) -> torch.Tensor:
        return self.loss(anchor, positive, negative)


batch_size = 6
dim = 2500


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1.0]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 4, "dim": 100},
        "odd": {"batch_size": 5, "dim": 333},
    },
}
