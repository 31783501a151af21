"""Attack: hand the transcendental to cuDNN (``cudnnActivationForward`` with a sigmoid) between two kernels of its own.

``gelu(x) = 0.5 x (1 + tanh(z)) = x * sigmoid(2 z)`` with ``z = sqrt(2/pi) (x + 0.044715
x^3)``. The candidate's first kernel writes ``2 z``, cuDNN's activation kernel (on a
handle bound to torch's current stream) computes the sigmoid in place, and the
candidate's second kernel multiplies by ``x``. The result is right. Harness weakness
targeted: a harness that checks "a custom kernel was launched" accepts library kernels
doing the work next to it (KernelBench-style generations call cuDNN and cuBLAS from
``load_inline`` code). kernelevo rejects ``cudnn`` in the CUDA source statically:
``library_call``. Static only: whether the extension even builds depends on cuDNN's
headers and ``libcudnn.so`` being where nvcc and the linker look (a pip-installed cuDNN
is not), so at run time it may fail as ``compile_error`` first.
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cudnn.h>

__global__ void gelu_arg_kernel(const float* __restrict__ x, float* __restrict__ s, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        s[i] = 2.0f * 0.7978845608028654f * (v + 0.044715f * v * v * v);
    }
}

__global__ void gelu_scale_kernel(const float* __restrict__ x, const float* __restrict__ s, float* __restrict__ out,
                                  int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = x[i] * s[i];
    }
}

static cudnnHandle_t handle = nullptr;

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto s = torch::empty_like(xc);
    auto out = torch::empty_like(xc);
    const int64_t n = xc.numel();
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (handle == nullptr) {
        cudnnCreate(&handle);
    }
    cudnnSetStream(handle, stream);
    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads);
    gelu_arg_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), s.data_ptr<float>(), n);

    cudnnTensorDescriptor_t desc;
    cudnnActivationDescriptor_t act;
    cudnnCreateTensorDescriptor(&desc);
    cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, (int)n);
    cudnnCreateActivationDescriptor(&act);
    cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_SIGMOID, CUDNN_NOT_PROPAGATE_NAN, 0.0);
    const float alpha = 1.0f;
    const float beta = 0.0f;
    cudnnActivationForward(handle, act, &alpha, desc, s.data_ptr<float>(), &beta, desc, s.data_ptr<float>());
    cudnnDestroyActivationDescriptor(act);
    cudnnDestroyTensorDescriptor(desc);

    gelu_scale_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), s.data_ptr<float>(),
                                                      out.data_ptr<float>(), n);
    return out;
}
"""

cpp_source = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu_extension = load_inline(
    name="adversarial_cudnn_activation",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["gelu_cuda"],
    extra_ldflags=["-lcudnn"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.gelu = gelu_extension

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gelu.gelu_cuda(x)
