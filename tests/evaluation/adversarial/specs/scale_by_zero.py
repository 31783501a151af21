"""A spec whose result does not depend on the values of its input: x * 0 (finite inputs).

The physical floor counts every input byte as read once. A kernel that never reads x is
correct here but does less work than the floor allows for, so its time is "impossible":
the suite uses it to show the floor check rejecting a time below the physical minimum.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 0.0


batch_size = 8192
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {"variants": {"small": {"batch_size": 4, "dim": 1000}, "odd": {"batch_size": 3, "dim": 1531}}}
