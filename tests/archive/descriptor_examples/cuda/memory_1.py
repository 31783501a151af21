"""Memory level 1: vectorized loads, four floats per thread through float4."""
import cupy as cp
import torch
from torch import nn

SOURCE = r"""
extern "C" __global__ void relu4(const float* __restrict__ x, float* __restrict__ y, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        v.x = fmaxf(v.x, 0.0f); v.y = fmaxf(v.y, 0.0f); v.z = fmaxf(v.z, 0.0f); v.w = fmaxf(v.w, 0.0f);
        reinterpret_cast<float4*>(y)[i] = v;
    }
}
"""
RELU4 = cp.RawModule(code=SOURCE).get_function("relu4")


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n4 = x.numel() // 4  # the spec's sizes are multiples of 4
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            RELU4(((n4 + 255) // 256,), (256,), (x.data_ptr(), y.data_ptr(), cp.int32(n4)))
        return y
