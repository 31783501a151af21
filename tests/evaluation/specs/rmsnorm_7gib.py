"""The example RMSNorm at KernelBench's size (level 1, 36_RMSNorm_): 7 GiB in, 7 GiB out, fp32.

A copy of ``examples/rmsnorm/spec.py`` with its default sizes raised to 112 x 64 x 512 x 512,
as KernelBench ships the problem today: judging a kernel for it must fit a GPU with
5 x 14 GiB + 4 GiB, an 80 GB H100 included.

RMSNorm over the channels of a 4-D (B, C, H, W) fp32 tensor: memory-bound on an H200.

``y = x / sqrt(mean(x**2 over C) + eps) * weight[c]``, one normalisation per (b, h, w)
position. The default variant reads 16 x 128 x 256 x 256 fp32 (512 MiB) and writes as
much: ~1.07 GB, a floor of ~0.25 ms at the H200's ~4.3 TB/s, against ~0.5 GFLOP (about
four per element), far under 1 us of compute. The reduction runs across the strided
channel axis (stride H*W), not the contiguous one, so a kernel has to keep its loads
coalesced along H*W while it reduces over C.
"""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        # not all ones: a kernel that forgets the weight must fail the check
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(num_features))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rms = torch.sqrt(torch.mean(x**2, dim=1, keepdim=True) + self.eps)
        return x / rms * self.weight.view(1, -1, 1, 1)


batch_size = 112
features = 64
dim1 = 512
dim2 = 512


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [features]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "features": 16, "dim1": 4, "dim2": 5},
        # C = 7 is not a power of two and H*W = 27 is odd: both axes need their masks
        "odd": {"batch_size": 3, "features": 7, "dim1": 3, "dim2": 9},
    },
}
