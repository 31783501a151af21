"""Each documented example kernel lands in its level; the examples' seeds spread over the grid."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.archive.descriptors import LEVELS, METADATA, descriptor_set
from kernelevo.records.result import EvalResult, KernelMetadata

EXAMPLES = Path(__file__).parent / "descriptor_examples"
CASES = sorted(EXAMPLES.glob("*_[0-3].py"))


def test_there_is_an_example_per_level() -> None:
    assert {p.stem for p in CASES} == {f"{d}_{level}" for d in LEVELS for level in range(4)}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_example_lands_in_its_level(path: Path) -> None:
    name, level = path.stem.rsplit("_", 1)
    assert LEVELS[name](path.read_text()) == int(level)


def test_inductors_persistent_gemm_is_a_persistent_program() -> None:
    """Inductor's persistent TMA GEMM strides over its tiles by ``NUM_SMS``, a constant it declares, not
    ``tl.num_programs``: it is persistent all the same, and its tiles' loop over K is not what makes it so."""
    fixture = (Path(__file__).parents[1] / "variation" / "gpu_kernels" / "gemm_bias_gelu_persistent_tma.py").read_text()
    # its GELU kernel was made grid-stride (by tl.num_programs): one block a program again, so that only the GEMM counts
    gelu_loop = "tl.range(tl.program_id(0), tl.cdiv(xnumel, XBLOCK), tl.num_programs(0))"
    assert gelu_loop in fixture
    source = fixture.replace(gelu_loop, "tl.range(tl.program_id(0), tl.program_id(0) + 1)")
    assert LEVELS["parallelism"](source) == 2
    one_tile_a_program = source.replace("tl.range(start_pid, num_tiles, NUM_SMS)", "tl.range(start_pid, start_pid + 1)")
    assert LEVELS["parallelism"](one_tile_a_program) < 2


def test_example_seeds(examples_dir: Path) -> None:
    levels = {p.parent.name: tuple(d(p.read_text()) for d in descriptor_set("levels"))
              for p in examples_dir.glob("*/seed.py")}
    assert levels["gelu"] == (1, 1, 0)
    assert levels["rmsnorm"] == (2, 0, 1)  # 2-D tiles; reads x twice; a 2-D grid
    assert levels["matmul_epilogue"] == (3, 3, 1)  # pipelined (num_stages=3); tl.dot; grouped tiles


def test_metadata_descriptors() -> None:
    result = EvalResult(kernels=[KernelMetadata(name="a", registers=40, shared_bytes=2048, num_warps=8),
                                 KernelMetadata(name="b", registers=96, shared_bytes=0, num_warps=4)])
    assert METADATA["registers"]("", result) == 96
    assert METADATA["shared_kib"]("", result) == 2
    assert METADATA["warps"]("", result) == 3
    assert METADATA["registers"]("", None) == 0


def test_unknown_descriptor_names_are_refused() -> None:
    assert [d.name for d in descriptor_set("memory,warps")] == ["memory", "warps"]
    with pytest.raises(ValueError, match="unknown descriptor"):
        descriptor_set("colour")


def test_a_fallback_marked_keep_and_a_grid_stride_loop_do_not_change_what_the_kernel_is() -> None:
    from kernelevo.archive.descriptors import compute_level, parallelism_level

    timed = '''
import torch
import triton
import triton.language as tl


@triton.jit
def softmax(x_ptr, y_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.maximum(tl.max(x, 0), -3.0e38))
    tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, 0), mask=cols < n_cols)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        softmax[(x.shape[0],)](x, y, x.shape[0], x.shape[1], BLOCK=1024)
        return y
'''
    assert (compute_level(timed), parallelism_level(timed)) == (1, 0)
    # a second launch in a fallback the timing never runs is not a second pass
    fallback = timed.replace("        return y\n", "        return y\n\n"
                             "    def _fallback(self, x):  # kernelevo: keep\n"
                             "        y = torch.empty_like(x)\n"
                             "        softmax[(x.shape[0],)](x, y, x.shape[0], x.shape[1], BLOCK=4096)\n"
                             "        softmax[(x.shape[0],)](y, y, x.shape[0], x.shape[1], BLOCK=4096)\n"
                             "        return y\n")
    assert compute_level(fallback) == 1 and compute_level(fallback.replace("  # kernelevo: keep", "")) == 0
    # rows walked by a grid-stride loop: a running max over the loop's steps is not an online softmax
    loop = "    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):\n"
    strided = timed.replace("    row = tl.program_id(0)\n", loop)
    strided = strided.replace("\n    cols", "\n        cols").replace("\n    x = ", "\n        x = ")
    strided = strided.replace("\n    e = ", "\n        e = ").replace("\n    tl.store", "\n        tl.store")
    assert (compute_level(strided), parallelism_level(strided)) == (1, 2)
