"""An fp16 linear layer with a tanh-GELU epilogue, ``gelu(x @ W.T + b)``, for CUDA C++ kernels: compute-bound.

The problem is ``examples/matmul_epilogue``'s (same reference, sizes and variants); only
the target language differs. The default variant is a 4096 x 4096 x 4096 matmul: 137
GFLOP, ~0.14 ms at the H200's ~990 TFLOP/s of dense fp16, against ~0.1 GB moved. A
kernel wins on the tensor cores (``nvcuda::wmma``, ``mma.sync`` or Hopper's ``wgmma``),
with the bias add and the GELU fused into its epilogue; cuBLAS calls are not the
candidate's own kernels and are rejected.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(self.linear(x), approximate="tanh")


M = 4096
K = 4096
N = 4096


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [K, N]


KERNELEVO = {
    "dtype": "float16",
    "language": "cuda",
    "variants": {
        "small": {"M": 64, "K": 80, "N": 48},
        # no dimension a multiple of 16 (nor K of 8): every tile edge and the K loop's tail need zero padding
        "odd": {"M": 33, "K": 70, "N": 45},
    },
    "seeds": ["seed.py"],
}
