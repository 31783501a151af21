"""Sum over rows: ``x.sum(dim=1)`` of a 16384 x 16384 fp32 matrix. The reference hands nothing to a library."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(dim=1)


batch_size = 16384
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {"variants": {"small": {"batch_size": 4, "dim": 1000}, "odd": {"batch_size": 3, "dim": 1531}}}
