"""The template operator on Triton kernels as people and LLMs write them: where sizes hide, what moves together,
and which mutants are dropped before anyone compiles them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from kernelevo.variation.moves.template import apply, find_tunables, mutate, sweep
from kernelevo.variation.seeding.inductor_capture import Capture
from kernelevo.variation.seeding.inductor_seed import to_candidate
from kernelevo.variation.source.triton_limits import problems

HEADER = """import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass

"""


def module(body: str) -> str:
    return HEADER + body


def keys(source: str) -> dict[str, int]:
    return {t.key: t.value for t in find_tunables(source)}


def launch_lines(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines() if "kernel[" in line]


LITERAL_GRID = module("""
class ModelNew(torch.nn.Module):
    def forward(self, x):
        n = x.numel()
        kernel[(triton.cdiv(n, 1024),)](x, n, BLOCK=1024, num_warps=8)
        return x
""")


def test_a_block_size_in_the_grid_and_the_launch_moves_as_one() -> None:
    """The issue's GELU: changing BLOCK without the grid's 1024 left outputs unwritten in 41% of mutants."""
    [block] = [t for t in find_tunables(LITERAL_GRID) if t.name == "BLOCK"]
    assert len(block.links) == 1
    mutants = [new for new, what in sweep(LITERAL_GRID) if what.startswith("BLOCK")]
    assert mutants
    for new in mutants:
        [line] = launch_lines(new)
        grid, block_value = re.search(r"cdiv\(n, (\d+)\)", line), re.search(r"BLOCK=(\d+)", line)
        assert grid and block_value and grid.group(1) == block_value.group(1) != "1024", line


def test_num_warps_never_moves_with_a_grid_literal_of_the_same_value() -> None:
    source = module("""
def forward(x):
    kernel[(triton.cdiv(x.numel(), 8),)](x, x.numel(), BLOCK=8, num_warps=8)
""")
    by_name = {t.name: t for t in find_tunables(source)}
    assert len(by_name["BLOCK"].links) == 1 and by_name["num_warps"].links == ()


def test_a_ceiling_division_written_out_moves_both_literals() -> None:
    source = module("""
def forward(x):
    n = x.numel()
    kernel[((n + 511) // 512,)](x, n, BLOCK=512)
""")
    [block] = [t for t in find_tunables(source) if t.name == "BLOCK"]
    new = apply(source, {block: 128})
    assert "((n + 127) // 128,)" in new and "BLOCK=128" in new


def test_tuple_assigned_sizes_are_tunable_and_read_by_the_launch() -> None:
    """The issue's LayerNorm: `NCH, BLOCK = 256, 1024` in forward was invisible, so only num_warps moved."""
    source = module("""
class ModelNew(torch.nn.Module):
    def forward(self, x):
        NCH, BLOCK = 256, 1024
        kernel[(triton.cdiv(x.shape[0], NCH),)](x, x.numel(), NCH=NCH, BLOCK=BLOCK, num_warps=8)
        return x
""")
    assert keys(source) == {"constant:NCH#0": 256, "constant:BLOCK#0": 1024, "launch:num_warps#0": 8}
    [block] = [t for t in find_tunables(source) if t.name == "BLOCK"]
    assert "NCH, BLOCK = 256, 2048" in apply(source, {block: 2048})


def test_keyword_defaults_self_attributes_and_lower_case_names_that_reach_a_launch() -> None:
    source = module("""
class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = 512

    def forward(self, x, num_warps=4, rows=2):
        chunk = 64
        kernel[(triton.cdiv(x.numel(), self.block),)](x, x.numel(), BLOCK=self.block, ROWS=rows, NCH=chunk,
                                                     num_warps=num_warps)
        return x
""")
    assert keys(source) == {"constant:block#0": 512, "default:num_warps#0": 4, "default:rows#0": 2,
                            "constant:chunk#0": 64}


def test_a_constexpr_default_no_launch_passes_moves_with_the_grid() -> None:
    source = HEADER.replace("BLOCK: tl.constexpr)", "BLOCK: tl.constexpr = 1024, ROWS: tl.constexpr = 1)") + """
def forward(x):
    kernel[(triton.cdiv(x.numel(), 1024),)](x, x.numel(), ROWS=1)
"""
    [block] = [t for t in find_tunables(source) if t.name == "BLOCK"]
    assert block.key == "constexpr_default:BLOCK#0" and len(block.links) == 1
    assert "constexpr_default:ROWS#0" not in keys(source)  # always passed: changing it would change nothing
    new = apply(source, {block: 256})
    assert "BLOCK: tl.constexpr = 256" in new and "cdiv(x.numel(), 256)" in new


def test_a_launch_keyword_and_a_default_of_one_value_under_one_grid_move_together() -> None:
    source = HEADER.replace("BLOCK: tl.constexpr)", "BLOCK: tl.constexpr, NCH: tl.constexpr = 1024)") + """
def forward(x):
    kernel[(triton.cdiv(x.numel(), 1024),)](x, x.numel(), BLOCK=1024)
"""
    [leader] = find_tunables(source)  # the default leads (it comes first); BLOCK=1024 and the grid follow
    assert leader.name == "NCH" and len(leader.links) == 2
    assert apply(source, {leader: 64}).count("64") == 3


def test_heuristics_and_config_lists_are_tunable() -> None:
    source = HEADER.replace("@triton.jit", '@triton.heuristics({"BLOCK": lambda args: 1024})\n@triton.jit') + """
configs = [triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_warps=4, num_stages=2)]
"""
    assert keys(source) == {"heuristic:BLOCK#0": 1024, "config:BLOCK_M#0": 64, "config:BLOCK_N#0": 32,
                            "config:num_warps#0": 4, "config:num_stages#0": 2}


def test_meta_parameters_of_one_value_that_the_grid_cannot_tell_apart_move_together() -> None:
    source = module("""
def forward(a, M, N):
    kernel[(triton.cdiv(M, 64) * triton.cdiv(N, 64),)](a, M, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
""")
    by_name = {t.name: t for t in find_tunables(source)}
    assert "BLOCK_N" not in by_name  # a follower of BLOCK_M
    new = apply(source, {by_name["BLOCK_M"]: 128})
    assert "cdiv(M, 128) * triton.cdiv(N, 128)" in new and "BLOCK_M=128, BLOCK_N=128, BLOCK_K=32" in new


def test_every_mutant_of_a_linked_kernel_parses_and_keeps_its_links() -> None:
    import random

    rng = random.Random(0)
    for _ in range(50):
        mutant = mutate(LITERAL_GRID, rng)
        assert mutant is not None
        ast.parse(mutant[0])
        [line] = launch_lines(mutant[0])
        grid, block = re.search(r"cdiv\(n, (\d+)\)", line), re.search(r"BLOCK=(\d+)", line)
        assert grid and block and grid.group(1) == block.group(1)


MATMUL = module("""
def forward(a, M, N):
    kernel[(triton.cdiv(M, 128) * triton.cdiv(N, 256),)](a, M, BLOCK_M=128, BLOCK_N=256, BLOCK_K=64,
                                                         num_warps=8, num_stages=3)
""")


def test_tiles_that_cannot_fit_shared_memory_are_named_and_never_proposed() -> None:
    assert problems(MATMUL) == []  # 3 x (128x64 + 64x256) x 2 B = 144 KiB
    [k] = [t for t in find_tunables(MATMUL) if t.name == "BLOCK_K"]
    too_big = apply(MATMUL, {k: 128})  # 288 KiB at 2-byte elements
    [problem] = problems(too_big)
    assert "shared memory" in problem and "288 KiB" in problem
    proposed = [new for new, _ in sweep(MATMUL)]
    assert proposed and all(not problems(new) for new in proposed)
    assert too_big not in proposed
    import random

    rng = random.Random(1)
    for _ in range(40):
        mutant = mutate(MATMUL, rng)
        assert mutant is not None and not problems(mutant[0])


def test_warps_too_few_to_hold_the_accumulator_in_registers_are_named_and_never_proposed() -> None:
    [warps] = [t for t in find_tunables(MATMUL) if t.name == "num_warps"]
    assert not problems(MATMUL)  # 128 x 256 over 256 threads: 128 values a thread
    spilled = apply(MATMUL, {warps: 4})  # 256 values a thread, past a thread's 255 registers
    [problem] = problems(spilled)
    assert "128x256 accumulator over 4 warps is 256 values a thread" in problem
    proposed = [new for new, _ in sweep(MATMUL)]
    assert spilled not in proposed and all(not problems(new) for new in proposed)


def test_literals_on_lines_and_in_functions_marked_keep_are_left_alone() -> None:
    source = module("""
SPLITS = 4  # kernelevo: keep
CHUNK = 64


class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x.numel() == 4096:
            return self._timed(x)
        return self._fallback(x)

    def _timed(self, x):
        kernel[(triton.cdiv(4096, 1024),)](x, 4096, BLOCK=1024, num_warps=8)
        return x

    def _fallback(self, x):  # kernelevo: keep (the timing never runs these sizes)
        kernel[(triton.cdiv(x.numel(), 256),)](x, x.numel(), BLOCK=256, num_warps=4)
        return x
""")
    assert keys(source) == {"constant:CHUNK#0": 64, "launch:BLOCK#0": 1024, "launch:num_warps#0": 8}
    fallback = "triton.cdiv(x.numel(), 256),)](x, x.numel(), BLOCK=256, num_warps=4)"
    assert sweep(source) and all(fallback in new and "SPLITS = 4" in new for new, _ in sweep(source))


# inductor's template style: the configuration it chose declared in the kernel's body
BODY_TILES = """import torch
import triton
import triton.language as tl


@triton.jit
def persistent(a_ptr, M, N):
    BLOCK_M: tl.constexpr = 128
    BLOCK_N: tl.constexpr = 256
    BLOCK_K: tl.constexpr = 64
    GROUP_M: tl.constexpr = 8
    NUM_SMS: tl.constexpr = 132
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BLOCK_M) * tl.cdiv(N, BLOCK_N), NUM_SMS):
        pass


@triton.jit
def one_tile_a_program(a_ptr, M, N, K):
    BLOCK_M: tl.constexpr = 128
    BLOCK_N: tl.constexpr = 128
    BLOCK_K: tl.constexpr = 32
    pid = tl.program_id(0)
    for k in tl.range(0, K, BLOCK_K):  # strides by a tile, not by the program count
        pass


class ModelNew(torch.nn.Module):
    def forward(self, x):
        persistent[(132, 1, 1)](x, 4096, 4096, num_warps=8, num_stages=3)
        one_tile_a_program[(1024, 1, 1)](x, 4096, 4096, 4096, num_warps=8, num_stages=3)
        return x
"""


def test_a_persistent_kernels_tiles_in_its_body_are_tunable_and_a_one_tile_kernels_are_not() -> None:
    found = {(t.name, t.value): t for t in find_tunables(BODY_TILES) if t.context == "kernel_tile"}
    # the persistent kernel's: its grid (NUM_SMS programs) does not depend on them. The other kernel's
    # grid (1024 tiles of 128 x 128) would have to move with its tiles, and the literal cannot say how.
    assert set(found) == {("BLOCK_M", 128), ("BLOCK_N", 256), ("BLOCK_K", 64), ("GROUP_M", 8)}
    assert found[("BLOCK_N", 256)].choices() == (16, 32, 64, 128, 256)  # a dot's least, a TMA box's most
    assert found[("GROUP_M", 8)].choices() == (1, 2, 4, 8, 16, 32, 64)
    # 3 stages of 128x128 and 128x256 fp16 tiles: 288 KiB, more than a block's shared memory
    too_big = apply(BODY_TILES, {found[("BLOCK_K", 64)]: 128})
    assert [p.split(":")[0] for p in problems(too_big)] == ["line 29"] and not problems(BODY_TILES)  # the launch
    assert too_big not in [new for new, _ in sweep(BODY_TILES)]


def test_a_block_of_one_whose_grid_counts_programs_without_a_division_stays_one() -> None:
    one_row_a_program = module("""
class ModelNew(torch.nn.Module):
    def forward(self, x):
        kernel[(x.shape[0], 1, 1)](x, x.shape[0], BLOCK=1, GROUP_M=1, num_warps=8)
        return self.other(x)

    def other(self, x):
        kernel[(triton.cdiv(x.shape[0], 1), 1, 1)](x, x.shape[0], BLOCK=1, num_warps=8)
        return x
""")
    found = find_tunables(one_row_a_program)
    # the first launch's grid would not follow a new block; the second's cdiv does
    assert [(t.line, len(t.links)) for t in found if t.name == "BLOCK"] == [(17, 1)]
    assert [t.line for t in found if t.name in ("num_warps", "GROUP_M")] == [13, 13, 17]  # not blocks: they move


# inductor's sum over the middle dim of 128 x 4096 x 512 (the no-seed suite's sum_dim1), as captured on an H200:
# a looped reduction launched with XBLOCK=64, R0_BLOCK=64, a grid of cdiv(xnumel, 64) and an XBLOCK x R0_BLOCK
# accumulator carried through its loop
SUM_DIM1 = to_candidate(Capture.from_json((Path(__file__).parent / "inductor_captures" / "sum_dim1.json").read_text()))


def test_a_grid_over_inductors_xnumel_moves_xblock_and_leaves_an_equal_r0_block_alone() -> None:
    tunables = {t.name: t for t in find_tunables(SUM_DIM1)}
    assert tunables["XBLOCK"].value == tunables["R0_BLOCK"].value == 64
    assert len(tunables["XBLOCK"].links) == 1 and not tunables["R0_BLOCK"].links  # the grid's 64 only
    [launch] = [line for line in apply(SUM_DIM1, {tunables["XBLOCK"]: 32}).splitlines() if "XBLOCK=" in line]
    assert "cdiv(triton_red_fused_sum_0_xnumel, 32)" in launch and "XBLOCK=32, R0_BLOCK=64" in launch
    [launch] = [line for line in apply(SUM_DIM1, {tunables["R0_BLOCK"]: 128}).splitlines() if "XBLOCK=" in line]
    assert "cdiv(triton_red_fused_sum_0_xnumel, 64)" in launch and "XBLOCK=64, R0_BLOCK=128" in launch


def test_a_reduction_whose_accumulator_outgrows_the_registers_is_named_and_never_proposed() -> None:
    tunables = {t.name: t for t in find_tunables(SUM_DIM1)}
    assert not problems(SUM_DIM1)  # 64 x 64 over 16 warps: 8 values a thread
    spilled = apply(SUM_DIM1, {tunables["XBLOCK"]: 512, tunables["num_warps"]: 4})
    [problem] = problems(spilled)
    assert "a 512x64 block tensor over 4 warps is 256 values a thread" in problem
    assert not problems(apply(SUM_DIM1, {tunables["XBLOCK"]: 512, tunables["num_warps"]: 8}))  # 128 a thread
    import random

    rng = random.Random(2)
    for _ in range(200):
        mutant = mutate(SUM_DIM1, rng)
        assert mutant is not None and not problems(mutant[0])
