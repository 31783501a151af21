"""Attack: specialise the kernel to the one shape the harness's get_inputs() produces (8192 x 16384).

The default variant has 2**27 elements: a multiple of 4 and of the 1024 elements a block
of 256 float4 threads covers. So the launch geometry is baked in (131072 blocks, the
default's grid) and the kernel handles whole ``float4``s only: no scalar tail, because
2**27 has none. It keeps one bound, on the real number of whole vectors, so the smaller
shapes do not fault. The output is zero-filled first by a memset kernel of its own (under
the CUDA rules ``torch.zeros_like`` would count as torch compute), so what is not
computed reads 0 whatever the allocator hands back. Harness weakness targeted:
KernelBench checks correctness on inputs of the single shape ``get_inputs`` makes, so a
kernel that is only right for that shape passes (it is right on ``small``, 4 x 1000,
too). kernelevo checks every named variant: on ``odd`` (3 x 1531 = 4593 elements) the
last element is never written and stays 0 instead of ``gelu(x)``: ``wrong_output``. The
Triton twin is ``hardcoded_numel.py`` (which hard-codes the small variant instead).
"""

import cupy as cp
import torch
import torch.nn as nn

DEFAULT_NUMEL = 8192 * 16384  # the spec's batch_size x dim
THREADS = 256
BLOCKS = DEFAULT_NUMEL // 4 // THREADS  # 131072: the default's grid, whatever the input

CUDA_SRC = r"""
extern "C" __global__ void zero_kernel(float* __restrict__ out, long long n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = 0.0f;
    }
}

extern "C" __global__ void gelu_vec4_kernel(const float4* __restrict__ x, float4* __restrict__ out, long long n_vec) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n_vec) {  // whole float4s only: 2**27 elements leave no tail
        float4 v = x[i];
        v.x = 0.5f * v.x * (1.0f + tanhf(0.7978845608028654f * (v.x + 0.044715f * v.x * v.x * v.x)));
        v.y = 0.5f * v.y * (1.0f + tanhf(0.7978845608028654f * (v.y + 0.044715f * v.y * v.y * v.y)));
        v.z = 0.5f * v.z * (1.0f + tanhf(0.7978845608028654f * (v.z + 0.044715f * v.z * v.z * v.z)));
        v.w = 0.5f * v.w * (1.0f + tanhf(0.7978845608028654f * (v.w + 0.044715f * v.w * v.w * v.w)));
        out[i] = v;
    }
}
"""

_module = cp.RawModule(code=CUDA_SRC, options=("--std=c++17",))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        kernel = _module.get_function("gelu_vec4_kernel")
        with cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            _module.get_function("zero_kernel")(((n + THREADS - 1) // THREADS,), (THREADS,), (out.data_ptr(), cp.int64(n)))
            kernel((BLOCKS,), (THREADS,), (x.data_ptr(), out.data_ptr(), cp.int64(n // 4)))
        return out
