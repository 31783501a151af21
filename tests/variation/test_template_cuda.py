"""The template operator on CUDA C++ candidates: tunables, linked literals, limits, and mutants that compile."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from cuda_nvcc import jobs, needs_nvcc, nvcc_many

from kernelevo.variation.moves.template import apply, crossover, describe, find_tunables, mutate, sweep
from kernelevo.variation.source import cuda_limits
from kernelevo.variation.source.tunable import Tunable

CORPUS = Path(__file__).parent / "cuda_corpus"
KERNELS = sorted(CORPUS.glob("*.py"))


def corpus(name: str) -> str:
    return (CORPUS / f"{name}.py").read_text()


def tunable(source: str, key: str) -> Tunable:
    return next(t for t in find_tunables(source) if t.key == key)


def changed(before: str, after: str) -> list[str]:
    """The lines of ``after`` that differ from ``before``, stripped."""
    return [b.strip() for a, b in zip(before.splitlines(), after.splitlines(), strict=True) if a != b]


def test_the_corpus_holds_both_forms() -> None:
    texts = [p.read_text() for p in KERNELS]
    assert len(texts) >= 8
    assert sum("RawModule" in t for t in texts) >= 4 and sum("load_inline" in t for t in texts) >= 3


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_every_corpus_kernel_is_tunable_and_within_the_limits(path: Path) -> None:
    source = path.read_text()
    assert find_tunables(source)
    assert cuda_limits.problems(source) == []
    for new, _ in sweep(source):
        ast.parse(new)
        assert cuda_limits.problems(new) == []


@pytest.mark.slow
@needs_nvcc
def test_every_sweep_mutant_of_the_corpus_compiles_for_sm90() -> None:
    units = [(f"{path.stem}: {note}", unit) for path in KERNELS
             for new, note in sweep(path.read_text()) for unit in jobs(new)]
    assert len(units) > 3 * len(KERNELS)
    errors = nvcc_many([unit for _, unit in units])
    assert {what: e[-800:] for (what, _), e in zip(units, errors, strict=True) if e} == {}


def test_a_define_moves_with_launch_bounds_block_and_grid() -> None:
    source = corpus("relu_define")
    block = tunable(source, "define:BLOCK#0")
    assert (block.value, len(block.links)) == (256, 4)
    assert changed(source, apply(source, {block: 512})) == [
        "#define BLOCK 512",
        'extern "C" __global__ void __launch_bounds__(512) relu(const float* x, float* y, int n) {',
        "RELU(((n + 511) // 512,), (512,), (x.data_ptr(), y.data_ptr(), cp.int32(n)))",
    ]


def test_a_python_constant_moves_with_its_define_option() -> None:
    source = corpus("options_threads")
    assert [t.key for t in find_tunables(source)] == ["define:THREADS#0"]  # the launch says (THREADS,)
    new = apply(source, {find_tunables(source)[0]: 128})
    assert changed(source, new) == [
        "THREADS = 128",
        'ROW_SUM = cp.RawModule(code=SOURCE, options=("-DTHREADS=128", "--use_fast_math")).get_function("row_sum")',
    ]


def test_tuple_assigned_python_constants_move_with_their_ifndef_defaults() -> None:
    source = corpus("matmul_register_tile")
    assert {t.name for t in find_tunables(source)} == {"BM", "BN", "BK", "TM", "TN"}
    new = apply(source, {tunable(source, "define:BN#0"): 128})
    assert changed(source, new) == ["BM, BN, BK = 64, 128, 8  # the block's tile of C and the K step", "#define BN 128"]


def test_a_template_argument_moves_with_the_block_and_the_grid() -> None:
    source = corpus("scale_template")
    (block,) = find_tunables(source)
    assert (block.key, block.value) == ("template:BLOCK#0", 256)
    assert changed(source, apply(source, {block: 128})) == [
        "long blocks = (n + 127) / 128;",
        "scale_kernel<128><<<blocks, 128, 0, at::cuda::getCurrentCUDAStream()>>>(",
    ]


def test_cupy_instantiation_names_move_together() -> None:
    source = corpus("name_expressions")
    (threads,) = find_tunables(source)
    lines = changed(source, apply(source, {threads: 256}))
    assert lines[0].endswith('name_expressions=["l2_norm<256>"])')
    assert lines[1] == 'L2_NORM = MODULE.get_function("l2_norm<256>")'
    assert lines[2].startswith("L2_NORM((rows,), (256,),")


def test_dim3_dimensions_follow_their_named_sizes() -> None:
    source = corpus("transpose_dim3")
    tile, rows = tunable(source, "define:TILE_DIM#0"), tunable(source, "define:BLOCK_ROWS#0")
    assert changed(source, apply(source, {tile: 16})) == [
        "#define TILE_DIM 16", "dim3 block(16, 8);", "dim3 grid((cols + 15) / 16, (rows + 15) / 16);"]
    assert changed(source, apply(source, {rows: 4})) == ["#define BLOCK_ROWS 4", "dim3 block(32, 4);"]


def test_a_two_dimensional_tile_moves_block_grid_and_nothing_else() -> None:
    source = corpus("matmul_tiled")
    tile, unroll = tunable(source, "define:TILE#0"), tunable(source, "unroll:unroll#0")
    assert changed(source, apply(source, {tile: 32})) == [
        "#define TILE 32", "grid = ((n + 31) // 32, (m + 31) // 32)",
        "MATMUL(grid, (32, 32), (a.data_ptr(), b.data_ptr(), c.data_ptr(), cp.int32(m), cp.int32(n), cp.int32(k)))"]
    assert changed(source, apply(source, {unroll: 16})) == ["#pragma unroll 16"]  # an unroll factor stands alone


def test_per_warp_shared_arrays_follow_the_block() -> None:
    source = corpus("softmax_warp")
    threads = tunable(source, "constexpr:THREADS#0")
    assert "__shared__ float red[8];" in changed(source, apply(source, {threads: 256}))[1]
    assert "__shared__ float red[1];" in apply(source, {threads: 32})
    layernorm = corpus("layernorm_welford")
    (block,) = find_tunables(layernorm)
    assert "__shared__ float s_mean[32], s_m2[32], s_count[32];" in apply(layernorm, {block: 1024})


def test_mma_fragment_shapes_are_not_tunable() -> None:
    source = corpus("wmma_warps")
    assert [t.key for t in find_tunables(source)] == ["define:WARPS#0"]
    assert len(tunable(source, "define:WARPS#0").links) == 1  # the Python WARPS that sizes the launch


def test_mutants_beyond_1024_threads_are_dropped() -> None:
    source = apply(corpus("matmul_tiled"), {tunable(corpus("matmul_tiled"), "define:TILE#0"): 32})
    tile = tunable(source, "define:TILE#0")
    assert tile.neighbours() == [16, 64]
    assert cuda_limits.problems(apply(source, {tile: 64})) == ["matmul: 4096 threads per block, more than 1024"]
    assert [note for _, note in sweep(source) if note.startswith("TILE")] == ["TILE 32 -> 16"]
    for i in range(30):
        result = mutate(source, random.Random(i), jump_rate=1.0)
        assert result is not None and cuda_limits.problems(result[0]) == []


def test_warp_synchronous_kernels_keep_whole_warps() -> None:
    source = corpus("softmax_warp")
    threads = tunable(source, "constexpr:THREADS#0")
    small = apply(source, {threads: 32})
    assert cuda_limits.problems(apply(small, {tunable(small, "constexpr:THREADS#0"): 16})) == [
        "softmax: 16 threads per block is not whole warps, and the kernel is warp-synchronous"]
    assert "THREADS 32 -> 16" not in [note for _, note in sweep(small)]


def test_shared_memory_launch_bounds_asserts_and_thread_arrays_are_limits() -> None:
    big = corpus("name_expressions").replace("l2_norm<512>", "l2_norm<16384>").replace("(512,)", "(1024,)")
    assert cuda_limits.problems(big) == ["l2_norm: 65536 bytes of static shared memory, more than 49152"]
    bounded = corpus("relu_define").replace("(256,)", "(512,)")
    assert cuda_limits.problems(bounded) == ["relu: 512 threads per block, more than its __launch_bounds__(256)"]
    tiles = corpus("matmul_register_tile")
    uneven = tiles.replace("TM = 4 ", "TM = 128 ")
    assert "static_assert(BM % TM == 0 && BN % TN == 0) fails" in cuda_limits.problems(uneven)
    wide = tiles.replace("TM = 4 ", "TM = 32 ").replace("TN = 4 ", "TN = 32 ")
    assert "matmul: a per-thread array acc of 1024 elements" in cuda_limits.problems(wide)
    dynamic = corpus("relu_define").replace("cp.int32(n)))", "cp.int32(n)), shared_mem=240 * 1024)")
    assert cuda_limits.problems(dynamic) == ["relu: 245760 bytes of shared memory per block, more than 232448"]


def test_mutate_is_deterministic_and_describes_the_primary_value() -> None:
    source = corpus("persistent_rows")
    runs = [[mutate(source, random.Random(5)) for _ in range(3)] for _ in range(2)]
    assert runs[0] == runs[1]
    keys = {t.key for t in find_tunables(source)}
    for i in range(40):
        result = mutate(source, random.Random(i))
        assert result is not None
        new, note = result
        assert {t.key for t in find_tunables(new)} == keys  # a mutant stays in the same family
        moved = {t: _values(new)[t.key] for t in find_tunables(source) if _values(new)[t.key] != t.value}
        assert set(note.split(", ")) == set(describe(moved).split(", "))


def _values(source: str) -> dict[str, int]:
    return {t.key: t.value for t in find_tunables(source)}


def test_crossover_takes_linked_values_from_the_donor() -> None:
    source = corpus("transpose_dim3")
    donor = apply(source, {tunable(source, "define:TILE_DIM#0"): 16, tunable(source, "define:BLOCK_ROWS#0"): 4})
    seen = set()
    for i in range(20):
        result = crossover(source, donor, random.Random(i))
        assert result is not None and result[1].startswith("crossover: ")
        child = result[0]
        seen.add(tuple(sorted(_values(child).items())))
        if _values(child)["define:TILE_DIM#0"] == 16:
            assert "dim3 grid((cols + 15) / 16, (rows + 15) / 16);" in child
    assert len(seen) > 1
    assert crossover(source, corpus("relu_define"), random.Random(0)) is None  # other tunables


def test_shared_memory_of_device_functions_and_macro_expressions_counts() -> None:
    source = '''import cupy as cp

SOURCE = r"""
#define BM 128
#define BK 32
#define PAD 8
#define LDS (BK + PAD)
#define TILE_HALVES ((BM + BM) * LDS)
template <bool VEC>
__device__ void tile(const unsigned short* x) {
    __shared__ __align__(128) unsigned short smem[2 * TILE_HALVES];
    smem[threadIdx.x] = x[threadIdx.x];
}
extern "C" __global__ void k(const unsigned short* x) { tile<true>(x); }
"""
K = cp.RawModule(code=SOURCE).get_function("k")
'''
    assert cuda_limits.problems(source) == []  # 2 * 256 * 40 halves: 40 KiB
    bm = tunable(source, "define:BM#0")
    assert cuda_limits.problems(apply(source, {bm: 256})) == [
        "k: 81920 bytes of static shared memory, more than 49152"]
    assert [note for _, note in sweep(source) if note.startswith("BM")] == ["BM 128 -> 64"]
