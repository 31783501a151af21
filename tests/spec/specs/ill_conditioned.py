"""A reference whose own float32 rounding misses float64 by about 100 times its tolerance: (x * 1e5 + y) - x * 1e5
keeps 7 digits of the sum, so y comes back with an absolute error of up to about 1e-2 where float64 gives it to
1e-11. Ill-conditioned whatever a kernel does, past what a judge widens its tolerance to: the spec check's
warning and the judge's refusal are tested on it."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y):
        big = x * 1e5
        return (big + y) - big


n = 4096


def get_inputs():
    return [torch.randn(n), torch.randn(n)]


def get_init_inputs():
    return []
