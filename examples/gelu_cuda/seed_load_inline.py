"""A persistent CUDA GELU (tanh approximation) in KernelBench's ``load_inline`` form: float4 grid-stride loop.

The extension is built by ``torch.utils.cpp_extension.load_inline`` exactly as KernelBench
generations do it: a CUDA source with the ``__global__`` kernel and a C++ host function
``gelu_cuda`` (allocates with ``torch::empty_like``, launches on
``at::cuda::getCurrentCUDAStream()``), a C++ declaration, and ``functions=["gelu_cuda"]``
for the Python binding.

The kernel is persistent: the host launches a small multiple of the SM count (8 blocks of
256 threads per SM, 64 of an SM's 64 warp slots), never more blocks than there is work,
and each thread walks a grid-stride loop, ``i, i + stride, i + 2 stride, ...``. At each
step neighbouring threads touch neighbouring ``float4``s (16 bytes each, one vectorised
load), so loads stay coalesced and DRAM sees one sequential sweep, while setup and the
block scheduler are paid once per block instead of once per 1024 elements. The last
``n % 4`` elements (one in the ``odd`` variant's 4593) go through a scalar grid-stride
loop. If either pointer is not 16-byte aligned (a view with an odd storage offset), the
host passes ``vectorize = false`` and the scalar loop does everything.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cstdint>

__device__ __forceinline__ float gelu_tanh(float x) {
    // gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    const float k0 = 0.7978845608028654f;
    const float k1 = 0.044715f;
    const float inner = k0 * fmaf(k1 * x, x * x, x);
    return 0.5f * x * (1.0f + tanhf(inner));
}

__global__ void gelu_grid_stride_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t n,
                                        bool vectorize) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t first = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t n_vec = vectorize ? n / 4 : 0;  // whole float4s
    const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);
    float4* __restrict__ out4 = reinterpret_cast<float4*>(out);
    for (int64_t i = first; i < n_vec; i += stride) {
        float4 v = x4[i];
        v.x = gelu_tanh(v.x);
        v.y = gelu_tanh(v.y);
        v.z = gelu_tanh(v.z);
        v.w = gelu_tanh(v.w);
        out4[i] = v;
    }
    // scalar tail: elements [4 n_vec, n), at most 3 of them when vectorized
    for (int64_t i = 4 * n_vec + first; i < n; i += stride) {
        out[i] = gelu_tanh(x[i]);
    }
}

torch::Tensor gelu_cuda(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "gelu_cuda: x must be a CUDA tensor");
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t n = xc.numel();
    if (n == 0) {
        return out;
    }
    const float* xp = xc.data_ptr<float>();
    float* op = out.data_ptr<float>();
    const bool vectorize = reinterpret_cast<uintptr_t>(xp) % 16 == 0 && reinterpret_cast<uintptr_t>(op) % 16 == 0;

    const int threads = 256;
    int device = 0;
    int sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    const int64_t work = vectorize ? (n + 3) / 4 : n;  // items of the longer loop
    const int64_t needed = (work + threads - 1) / threads;
    const int64_t resident = 8 * (int64_t)(sms > 0 ? sms : 1);
    const int blocks = (int)(needed < resident ? needed : resident);

    gelu_grid_stride_kernel<<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(xp, op, n, vectorize);
    return out;
}
"""

cpp_source = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu_extension = load_inline(
    name="kernelevo_gelu_grid_stride",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gelu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.gelu = gelu_extension

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gelu.gelu_cuda(x)
