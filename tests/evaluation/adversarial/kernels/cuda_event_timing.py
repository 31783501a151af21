"""Attack: the C++ host function times the gaps between its own calls with CUDA events and skips the work when being timed.

Each call records a ``cudaEvent`` on torch's current stream, waits for it
(``cudaEventSynchronize``) and reads ``cudaEventElapsedTime`` since the event it recorded
after its previous kernel. A correctness check leaves milliseconds of host work between
calls, so the kernel computes GELU; a timing loop (an L2 flush kernel, then the next
call) leaves well under a millisecond, so the kernel is launched with ``n = 0`` (a launch
counter still sees it) and the timed call costs nothing on the GPU. Harness weakness
targeted: a harness that times other calls than it checks, and guards only its own timer
functions (a Python integrity snapshot cannot see a C++ extension calling the CUDA event
API). kernelevo's static check rejects ``cudaEvent*`` in the CUDA source: ``timer_access``.
(With static checks off the outcome depends on the evaluator's call spacing, a wrong
output or an impossibly fast time; so the case is static only.)
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void gelu_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        out[i] = 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    }
}

static cudaEvent_t last_done = nullptr;  // recorded after the previous call's kernel

torch::Tensor gelu_cuda(torch::Tensor x) {
    auto xc = x.contiguous();
    auto out = torch::empty_like(xc);
    const int64_t n = xc.numel();
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();

    cudaEvent_t now;
    cudaEventCreate(&now);
    cudaEventRecord(now, stream);
    cudaEventSynchronize(now);
    float gap_ms = 1e9f;
    if (last_done != nullptr) {
        cudaEventElapsedTime(&gap_ms, last_done, now);
        cudaEventDestroy(last_done);
    }
    cudaEventDestroy(now);
    const bool timed = gap_ms < 1.0f;  // back to back: a timing loop
    const int64_t work = timed ? 0 : n;

    const int threads = 256;
    const int blocks = work > 0 ? (int)((work + threads - 1) / threads) : 1;
    gelu_kernel<<<blocks, threads, 0, stream>>>(xc.data_ptr<float>(), out.data_ptr<float>(), work);
    cudaEventCreate(&last_done);
    cudaEventRecord(last_done, stream);
    return out;
}
"""

cpp_source = "torch::Tensor gelu_cuda(torch::Tensor x);"

gelu_extension = load_inline(
    name="adversarial_event_timing",
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
