"""Attack: ``torch::matmul`` in the C++ host function does the matmul (cuBLAS through ATen); only the epilogue is a kernel of its own.

Spec: ``examples/matmul_epilogue_cuda`` (fp16 ``gelu(x @ W.T + b)``). The host function
calls ``torch::matmul(x, w.t())`` (ATen dispatches it to cuBLAS: all of the FLOPs) and
launches its own ``bias_gelu_kernel`` for the bias add and the GELU. This is the most
common shape of a generated "fused linear + activation kernel": right answer, a real
``__global__`` kernel launched, ~1x the reference's time, and none of the work the
search is meant to improve. Harness weakness targeted: KernelBench checks neither which
code produced the output nor where the time goes; a Python AST check sees only one
extension call in ``forward``. kernelevo scans the C++ for torch compute calls
statically and its op recorder sees ``aten::matmul`` / ``aten::mm`` dispatched from C++:
``torch_compute``.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_fp16.h>

__global__ void bias_gelu_kernel(const __half* __restrict__ y, const __half* __restrict__ bias, __half* __restrict__ out,
                                 int64_t M, int64_t N) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        const float v = __half2float(y[i]) + __half2float(bias[i % N]);
        out[i] = __float2half_rn(0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v))));
    }
}

torch::Tensor linear_gelu_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    auto y = torch::matmul(x.contiguous(), w.t());  // cuBLAS, through ATen: PyTorch's matmul, not the candidate's
    auto out = torch::empty_like(y);
    const int64_t M = y.size(0);
    const int64_t N = y.size(1);
    const int threads = 256;
    const int blocks = (int)((M * N + threads - 1) / threads);
    bias_gelu_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        reinterpret_cast<const __half*>(y.data_ptr()), reinterpret_cast<const __half*>(b.contiguous().data_ptr()),
        reinterpret_cast<__half*>(out.data_ptr()), M, N);
    return out;
}
"""

cpp_source = "torch::Tensor linear_gelu_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

linear_gelu_extension = load_inline(
    name="adversarial_torch_matmul_inline",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["linear_gelu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)  # parameters only: filled from the reference

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_gelu_extension.linear_gelu_cuda(x, self.linear.weight, self.linear.bias)
