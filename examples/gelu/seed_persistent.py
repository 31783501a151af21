"""A persistent Triton GELU (tanh approximation): a few programs per SM walk the blocks in a grid stride.

The first seed launches one program per block: 131072 programs of 1024 elements at the
default size. This one launches only a small multiple of the SM count (132 SMs on an
H200) and has each program loop over blocks ``pid, pid + P, pid + 2P, ...``. Each
program does its setup once (offsets, constants) and stays resident, so the block
scheduler is out of the loop after the launch and there is no long tail of programs
trickling onto SMs at the end; consecutive programs still touch neighbouring blocks at
each step, so loads stay coalesced and DRAM sees one sequential sweep. Whether that
beats the plain grid on a memory-bound kernel depends on how much latency the resident
programs keep in flight, which is what the factor and the block size tune.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_persistent_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    num_blocks = tl.cdiv(n_elements, BLOCK_SIZE)
    lanes = tl.arange(0, BLOCK_SIZE)
    # grid stride: program p takes blocks p, p + P, p + 2P, ... until the tensor is covered
    for block in range(tl.program_id(0), num_blocks, tl.num_programs(0)):
        offsets = block * BLOCK_SIZE + lanes
        mask = offsets < n_elements  # only the last block is partial
        x = tl.load(x_ptr + offsets, mask=mask)
        # gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), with tanh(u) = 2 sigmoid(2u) - 1
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
        tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        # enough resident programs to cover every SM several times over (8 x 4 warps = 32 of
        # an H200 SM's 64 warp slots); off a GPU, two, so that each walks several blocks
        num_sms = torch.cuda.get_device_properties(x.device).multi_processor_count if x.is_cuda else 0
        max_programs = 8 * num_sms if x.is_cuda else 2
        # never more programs than blocks; the grid reads the block size from the launch's meta-parameters
        grid = lambda meta: (min(max_programs, triton.cdiv(n, meta["BLOCK_SIZE"])),)  # noqa: E731
        gelu_persistent_kernel[grid](x, out, n, BLOCK_SIZE=1024, num_warps=4)
        return out
