"""ReLU with its block size as a #define that __launch_bounds__, the launch and the grid repeat."""
import cupy as cp
import torch
from torch import nn

SOURCE = r"""
#define BLOCK 256
extern "C" __global__ void __launch_bounds__(256) relu(const float* x, float* y, int n) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
"""
RELU = cp.RawModule(code=SOURCE).get_function("relu")


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            RELU(((n + 255) // 256,), (256,), (x.data_ptr(), y.data_ptr(), cp.int32(n)))
        return y
