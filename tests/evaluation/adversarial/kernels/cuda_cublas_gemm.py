"""Attack: call cuBLAS directly (``cublasGemmEx``, linked with ``-lcublas``) for the matmul; only the epilogue is a kernel of its own.

Spec: ``examples/matmul_epilogue_cuda`` (fp16 ``gelu(x @ W.T + b)``). The host function
creates a cuBLAS handle, binds it to torch's current stream, and computes ``x @ W.T``
with fp16 inputs and fp32 accumulation and output into a scratch buffer (row-major
``out = x W^T`` is column-major ``out^T = W x^T``: ``op(A) = W`` from W's storage
transposed, ``B = x^T`` as stored); its own ``bias_gelu_kernel`` adds the bias, applies
the GELU and writes fp16. No PyTorch op is dispatched (the scratch is a plain
``torch::empty``), so an op recorder sees nothing, and a kernel of the candidate's does
launch. Harness weakness targeted: a harness that checks "a custom kernel ran" and "no
torch compute" still accepts a library doing all the FLOPs at cuBLAS speed (KernelBench
generations do this). kernelevo rejects ``cublas`` in the CUDA source statically and
must recognise cuBLAS's kernels among the launches at run time: ``library_call``.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>

__global__ void bias_gelu_kernel(const float* __restrict__ acc, const __half* __restrict__ bias, __half* __restrict__ out,
                                 int64_t M, int64_t N) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N) {
        const float v = acc[i] + __half2float(bias[i % N]);
        out[i] = __float2half_rn(0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v))));
    }
}

static cublasHandle_t handle = nullptr;

torch::Tensor linear_gelu_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b) {
    auto xc = x.contiguous();
    auto wc = w.contiguous();
    auto bc = b.contiguous();
    const int M = (int)xc.size(0);
    const int K = (int)xc.size(1);
    const int N = (int)wc.size(0);
    auto acc = torch::empty({M, N}, xc.options().dtype(torch::kFloat32));
    auto out = torch::empty({M, N}, xc.options());
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (handle == nullptr) {
        cublasCreate(&handle);
    }
    cublasSetStream(handle, stream);
    const float alpha = 1.0f;
    const float beta = 0.0f;
    // cuBLAS is column-major: acc (M x N row-major) is acc^T (N x M, ld N) = W (N x K) * x^T (K x M).
    // W's storage read column-major is W^T (K x N, ld K), hence CUBLAS_OP_T; x's is x^T (K x M, ld K).
    cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha,
                 wc.data_ptr(), CUDA_R_16F, K,
                 xc.data_ptr(), CUDA_R_16F, K, &beta,
                 acc.data_ptr(), CUDA_R_32F, N,
                 CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    const int threads = 256;
    const int blocks = (int)(((int64_t)M * N + threads - 1) / threads);
    bias_gelu_kernel<<<blocks, threads, 0, stream>>>(
        acc.data_ptr<float>(), reinterpret_cast<const __half*>(bc.data_ptr()),
        reinterpret_cast<__half*>(out.data_ptr()), M, N);
    return out;
}
"""

cpp_source = "torch::Tensor linear_gelu_cuda(torch::Tensor x, torch::Tensor w, torch::Tensor b);"

linear_gelu_extension = load_inline(
    name="adversarial_cublas_gemm",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["linear_gelu_cuda"],
    extra_ldflags=["-lcublas"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)  # parameters only: filled from the reference

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_gelu_extension.linear_gelu_cuda(x, self.linear.weight, self.linear.bias)
