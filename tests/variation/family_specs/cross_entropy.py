"""Mean cross-entropy of 6 x 2500 fp32 logits against int64 targets, one of them ignore_index (-100).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.cross_entropy(predictions, targets)


batch_size = 6
num_classes = 2500


def get_inputs():
    target = torch.randint(0, num_classes, (batch_size,))
    target[1] = -100  # nll_loss's default ignore_index: this row counts for nothing
    return [torch.randn(batch_size, num_classes), target]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "num_classes": 100},
        "odd": {"batch_size": 5, "num_classes": 1531},
    },
}
