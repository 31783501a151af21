"""CUDA candidates get the documented levels: each example lands in its level and compiles."""

from __future__ import annotations

from pathlib import Path

import pytest
from cuda_nvcc import jobs, needs_nvcc, nvcc_many

from kernelevo.archive import cuda_descriptors
from kernelevo.archive.descriptors import LEVELS

EXAMPLES = Path(__file__).parent / "descriptor_examples" / "cuda"
CASES = sorted(EXAMPLES.glob("*_[0-3].py"))


def cupy(code: str) -> str:
    """A CuPy-form candidate around ``code``."""
    return f'import cupy as cp\n\nSOURCE = r"""\n{code}\n"""\nMOD = cp.RawModule(code=SOURCE)\n'


def levels(source: str) -> tuple[float, ...]:
    return tuple(LEVELS[name](source) for name in ("memory", "compute", "parallelism"))


def test_there_is_a_cuda_example_per_level() -> None:
    assert {p.stem for p in CASES} == {f"{d}_{level}" for d in LEVELS for level in range(4)}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_cuda_example_lands_in_its_level(path: Path) -> None:
    name, level = path.stem.rsplit("_", 1)
    assert LEVELS[name](path.read_text()) == int(level)


def test_both_candidate_forms_are_among_the_examples() -> None:
    texts = [p.read_text() for p in CASES]
    assert any("RawModule" in t for t in texts) and any("load_inline" in t for t in texts)


@needs_nvcc
def test_cuda_examples_compile_for_sm90() -> None:
    units = [(path.stem, unit) for path in CASES for unit in jobs(path.read_text())]
    assert len(units) == len(CASES)
    errors = nvcc_many([unit for _, unit in units])
    assert {name: e for (name, _), e in zip(units, errors, strict=True) if e} == {}


def test_triton_kernels_keep_the_triton_analysis() -> None:
    triton = Path(__file__).parent / "descriptor_examples" / "memory_1.py"
    assert LEVELS["memory"](triton.read_text()) == 1


MAP = "extern \"C\" __global__ void k(const float* x, float* y, int n) {{\n{body}\n}}"


@pytest.mark.parametrize(("body", "level"), [
    ("int i = threadIdx.x; y[i] = __ldg(&x[i]);", 1),
    ('asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(0), "l"(x));', 3),
    # shared memory holding per-thread partial results is scratch, not tiling
    ("__shared__ float part[256]; float s = 0.f; for (int j = threadIdx.x; j < n; j += 256) s += x[j];"
     " part[threadIdx.x] = s; __syncthreads(); if (threadIdx.x == 0) y[0] = part[0] + part[1];", 0),
    # through a pointer into dynamic shared memory
    ("extern __shared__ float smem[]; float* a = smem + 32; a[threadIdx.x] = x[threadIdx.x]; y[0] = a[1];", 2),
])
def test_memory_features(body: str, level: int) -> None:
    assert cuda_descriptors.memory_level(cupy(MAP.format(body=body))) == level


@pytest.mark.parametrize(("body", "level"), [
    ("float v = x[threadIdx.x]; v += __shfl_xor_sync(0xffffffff, v, 16); y[threadIdx.x] = v;", 2),
    ("float mean = 0.f, m2 = 0.f; for (int j = 0; j < n; ++j) { float d = x[j] - mean; mean += d / (j + 1);"
     " m2 += d * (x[j] - mean); } y[0] = m2 / n;", 2),  # Welford
    # an elementwise clamp with an exp is not a running maximum
    ("for (int i = threadIdx.x; i < n; i += 256) y[i] = fmaxf(x[i], 0.f) * expf(-x[i]);", 1),
    # a vectorized loop and its scalar tail read x once between them
    ("int n4 = n / 4; for (int i = threadIdx.x; i < n4; i += 256) { float4 v = reinterpret_cast<const float4*>(x)[i];"
     " y[i] = v.x + v.y + v.z + v.w; } for (int i = n4 * 4 + threadIdx.x; i < n; i += 256) y[i] = x[i];", 1),
    ("float s = 0.f; for (int j = 0; j < n; ++j) s += x[j]; for (int j = 0; j < n; ++j) y[j] = x[j] / s;", 0),
    ('asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {}" ::);', 3),
])
def test_compute_features(body: str, level: int) -> None:
    assert cuda_descriptors.compute_level(cupy(MAP.format(body=body))) == level


def test_two_kernels_launched_are_several_passes() -> None:
    source = cupy(MAP.format(body="y[0] = x[0];") + "\n" + MAP.format(body="y[1] = x[1];").replace(" k(", " k2("))
    assert cuda_descriptors.compute_level(source + 'A = MOD.get_function("k")\nB = MOD.get_function("k2")\n') == 0


@pytest.mark.parametrize(("body", "level"), [
    ("int bid = blockIdx.x; y[bid % n] = x[bid / n];", 1),
    ("y[threadIdx.y] = x[threadIdx.x];", 1),
    ("int stride = gridDim.x * blockDim.x; for (int i = threadIdx.x; i < n; i += stride) y[i] = x[i];", 2),
    ("atomicAdd(y, x[threadIdx.x]);", 2),
])
def test_parallelism_features(body: str, level: int) -> None:
    assert cuda_descriptors.parallelism_level(cupy(MAP.format(body=body))) == level


def test_several_instantiations_of_a_template_are_specialized_variants() -> None:
    code = "template <int B> __global__ void k(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x] * B; }"
    one = cupy(code).replace("RawModule(code=SOURCE)", 'RawModule(code=SOURCE, name_expressions=["k<128>"])')
    two = one.replace('["k<128>"]', '["k<128>", "k<512>"]')
    assert cuda_descriptors.parallelism_level(one) == 0
    assert cuda_descriptors.parallelism_level(two) == 3
    chevrons = code + "\nvoid run(float* x, float* y, int n) { if (n < 4096) k<128><<<1, 128>>>(x, y); " \
                      "else k<512><<<1, 512>>>(x, y); }"
    assert cuda_descriptors.parallelism_level(cupy(chevrons)) == 3


STAGED_IN_A_DEVICE_FUNCTION = """
__device__ void tile_sum(const float* a, float* out, int k) {
    __shared__ float smem[2][256];
    float* next = smem[1];
    float reg[2];
    for (int i = 0; i < 2; ++i) {  // global -> registers -> shared, the loop that reads global memory
        reg[i] = a[i * 256 + threadIdx.x];
        next[threadIdx.x] = reg[i];
    }
    __syncthreads();
    out[threadIdx.x] = smem[1][threadIdx.x];
}
extern "C" __global__ void k(const float* a, float* out, int k) { tile_sum(a, out, k); }
"""


def test_staging_through_registers_in_a_device_function_is_tiling() -> None:
    assert cuda_descriptors.memory_level(cupy(STAGED_IN_A_DEVICE_FUNCTION)) == 2
    # the same loop with the shared store outside it: the store is scratch
    scratch = STAGED_IN_A_DEVICE_FUNCTION.replace("next[threadIdx.x] = reg[i];\n    }",
                                                  "}\n    next[threadIdx.x] = reg[0];")
    assert cuda_descriptors.memory_level(cupy(scratch)) == 0


def test_fragment_loads_from_shared_memory_are_tiling() -> None:
    code = ("#include <mma.h>\nusing namespace nvcuda;\n"
            "extern \"C\" __global__ void k(const half* a, float* c) {\n"
            "    __shared__ half as[16 * 16];\n    const half* tile = as;\n"
            "    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;\n"
            "    wmma::load_matrix_sync(fa, tile, 16);\n}")
    assert cuda_descriptors.memory_level(cupy(code)) == 2


def test_a_scalar_tail_kernel_next_to_a_vectorized_one_is_one_pass() -> None:
    vec = 'extern "C" __global__ void body(const float4* x, float4* y) { y[threadIdx.x] = x[threadIdx.x]; }'
    tail = 'extern "C" __global__ void tail(const float* x, float* y) { y[threadIdx.x] = x[threadIdx.x]; }'
    launches = 'A = MOD.get_function("body")\nB = MOD.get_function("{}")\n'
    assert cuda_descriptors.compute_level(cupy(vec + "\n" + tail) + launches.format("tail")) == 1
    two_scalar = tail + "\n" + tail.replace("tail(", "again(")
    assert cuda_descriptors.compute_level(cupy(two_scalar) + launches.replace("body", "tail").format("again")) == 0
