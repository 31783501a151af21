"""Compute level 2: an online softmax, the running maximum rescales the running sum in one pass."""
import cupy as cp
import torch
from torch import nn

SOURCE = r"""
extern "C" __global__ void softmax(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;  // one thread per row: small rows
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    float m = -INFINITY, sum = 0.0f;
    for (int j = 0; j < cols; ++j) {
        float v = row[j];
        float m_new = fmaxf(m, v);
        sum = sum * expf(m - m_new) + expf(v - m_new);
        m = m_new;
    }
    for (int j = 0; j < cols; ++j) y[(size_t)r * cols + j] = expf(row[j] - m) / sum;
}
"""
SOFTMAX = cp.RawModule(code=SOURCE).get_function("softmax")


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows, cols = x.shape
        y = torch.empty_like(x)
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            SOFTMAX(((rows + 127) // 128,), (128,), (x.data_ptr(), y.data_ptr(), cp.int32(rows), cp.int32(cols)))
        return y
