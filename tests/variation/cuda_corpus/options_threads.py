"""Row sums whose thread count is a Python constant, passed to NVRTC as -DTHREADS=... and used to launch."""
import cupy as cp
import torch
from torch import nn

THREADS = 256
SOURCE = r"""
extern "C" __global__ void row_sum(const float* x, float* y, int cols) {
    __shared__ float partial[THREADS];
    float acc = 0.0f;
    for (int j = threadIdx.x; j < cols; j += THREADS) acc += x[(size_t)blockIdx.x * cols + j];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = partial[0];
}
"""
ROW_SUM = cp.RawModule(code=SOURCE, options=("-DTHREADS=256", "--use_fast_math")).get_function("row_sum")


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows, cols = x.shape
        y = torch.empty(rows, device=x.device, dtype=x.dtype)
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            ROW_SUM((rows,), (THREADS,), (x.data_ptr(), y.data_ptr(), cp.int32(cols)))
        return y
