"""Parallelism level 1: a 2-D grid, blockIdx.y picks the row and blockIdx.x the column block."""
import cupy as cp
import torch
from torch import nn

SOURCE = r"""
extern "C" __global__ void add_bias(const float* x, const float* bias, float* y, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    size_t at = (size_t)blockIdx.y * cols + c;
    if (c < cols) y[at] = x[at] + bias[c];
}
"""
ADD_BIAS = cp.RawModule(code=SOURCE).get_function("add_bias")


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        rows, cols = x.shape
        y = torch.empty_like(x)
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            ADD_BIAS(((cols + 255) // 256, rows), (256,), (x.data_ptr(), bias.data_ptr(), y.data_ptr(),
                                                          cp.int32(cols)))
        return y
