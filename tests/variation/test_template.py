"""The template operator: finding tunable literals, splicing new values in, mutation, sweep and crossover."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

from kernelevo.utils.cuda_source import is_cuda_source
from kernelevo.variation.moves.template import (
    JUMP_STEPS,
    MAX_BLOCK,
    STAGES,
    WARPS,
    apply,
    crossover,
    find_tunables,
    mutate,
    share_of,
    sweep,
)

MODULE_CONSTANTS = '''"""A kernel that exposes its block size as module constants."""
import triton
import triton.language as tl

BLOCK = 256  # elements per program
SPLITS = 4
eps = 8
X = 2


@triton.jit
def kernel(x_ptr, BLOCK_SIZE: tl.constexpr):
    INNER = 64
    offsets = tl.arange(0, 128)
    tl.store(x_ptr + offsets, tl.zeros([32], dtype=tl.float32))


def forward(x):
    HOST_SPLIT = 2
    kernel[(SPLITS,)](x, BLOCK_SIZE=BLOCK)
'''

NO_TUNABLES = '''import triton


@triton.jit
def kernel(x_ptr):
    BLOCK = 1024
    pass


def forward(x):
    kernel[(1,)](x)
'''


def seed(examples_dir: Path, op: str, name: str = "seed.py") -> str:
    return (examples_dir / op / name).read_text()


def values(source: str) -> dict[str, int]:
    return {t.key: t.value for t in find_tunables(source)}


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    old, new = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(old) == len(new)
    return [(a, b) for a, b in zip(old, new, strict=True) if a != b]


def test_gelu_seed_exposes_its_launch_block_size_and_warps(examples_dir: Path) -> None:
    tunables = find_tunables(seed(examples_dir, "gelu"))
    assert [(t.name, t.value, t.context) for t in tunables] == [("BLOCK_SIZE", 1024, "launch"),
                                                                ("num_warps", 4, "launch")]
    assert [t.key for t in tunables] == ["launch:BLOCK_SIZE#0", "launch:num_warps#0"]


def test_tunable_positions_point_at_the_literals(examples_dir: Path) -> None:
    source = seed(examples_dir, "gelu")
    lines = source.splitlines()
    for t in find_tunables(source):
        assert lines[t.line - 1][t.col:t.end_col] == str(t.value)


def test_matmul_seed_exposes_tiles_group_warps_and_stages(examples_dir: Path) -> None:
    tunables = find_tunables(seed(examples_dir, "matmul_epilogue"))
    assert [(t.name, t.value) for t in tunables] == [
        ("BLOCK_M", 128), ("BLOCK_N", 128), ("BLOCK_K", 32), ("GROUP_M", 8), ("num_warps", 8), ("num_stages", 3),
    ]
    assert {t.context for t in tunables} == {"launch"}


def test_autotuned_seed_exposes_its_config_keys_warps_and_stages(examples_dir: Path) -> None:
    tunables = find_tunables(seed(examples_dir, "matmul_epilogue", "seed_autotuned.py"))
    assert {t.context for t in tunables} == {"config"}
    first = [(t.name, t.value) for t in tunables[:6]]
    assert first == [("BLOCK_M", 128), ("BLOCK_N", 256), ("BLOCK_K", 64), ("GROUP_M", 8),
                     ("num_warps", 8), ("num_stages", 3)]
    assert len(tunables) == 4 * 6  # four configs of four meta-parameters, warps and stages
    assert [t.ordinal for t in tunables if t.name == "num_stages"] == [0, 1, 2, 3]
    assert [t.value for t in tunables if t.name == "num_stages"] == [3, 4, 3, 4]


def test_config_outside_a_jitted_function_is_tunable() -> None:
    source = ('import triton\n\n'
              'CONFIGS = [\n'
              '    triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_warps=4, num_stages=2),\n'
              '    triton.Config({"BLOCK_M": 128, "BLOCK_N": 32}, num_warps=8, num_stages=3),\n'
              ']\n')
    assert [(t.key, t.value) for t in find_tunables(source)] == [
        ("config:BLOCK_M#0", 64), ("config:BLOCK_N#0", 32), ("config:num_warps#0", 4), ("config:num_stages#0", 2),
        ("config:BLOCK_M#1", 128), ("config:BLOCK_N#1", 32), ("config:num_warps#1", 8), ("config:num_stages#1", 3),
    ]


def test_literals_inside_jit_bodies_are_not_tunable_but_module_and_host_constants_are() -> None:
    found = {t.name: (t.value, t.context) for t in find_tunables(MODULE_CONSTANTS)}
    # lower-case names and single letters are ordinary variables
    assert found == {"BLOCK": (256, "constant"), "SPLITS": (4, "constant"), "HOST_SPLIT": (2, "constant")}
    assert "INNER" not in found  # a constant in device code is part of the algorithm


def test_softmax_seed_computed_block_size_is_not_tunable(examples_dir: Path) -> None:
    # BLOCK_SIZE = triton.next_power_of_2(n_cols) is not a literal: only num_warps can move
    assert [t.key for t in find_tunables(seed(examples_dir, "softmax"))] == ["launch:num_warps#0"]


def test_every_seed_with_a_launch_has_num_warps(examples_dir: Path) -> None:
    for path in sorted(examples_dir.glob("*/seed*.py")):
        if "autotuned" in path.name or is_cuda_source(path.read_text()):
            continue  # its launch carries no meta-parameters; CUDA has no num_warps
        assert "launch:num_warps#0" in values(path.read_text()), path


def test_apply_changes_only_the_literals(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    tunables = {t.name: t for t in find_tunables(source)}
    # several changes on one line, including a longer and a shorter replacement
    new = apply(source, {tunables["BLOCK_M"]: 64, tunables["BLOCK_K"]: 128, tunables["num_stages"]: 4})
    diff = changed_lines(source, new)
    assert len(diff) == 1
    old_line, new_line = diff[0]
    assert new_line == old_line.replace("BLOCK_M=128", "BLOCK_M=64").replace("BLOCK_K=32", "BLOCK_K=128") \
        .replace("num_stages=3", "num_stages=4")
    assert values(new) == {**values(source), "launch:BLOCK_M#0": 64, "launch:BLOCK_K#0": 128,
                           "launch:num_stages#0": 4}


def test_apply_keeps_comments_and_layout_byte_identical() -> None:
    tunables = {t.name: t for t in find_tunables(MODULE_CONSTANTS)}
    new = apply(MODULE_CONSTANTS, {tunables["BLOCK"]: 1024})
    assert new == MODULE_CONSTANTS.replace("BLOCK = 256  # elements", "BLOCK = 1024  # elements")


def test_apply_with_no_changes_is_the_identity(examples_dir: Path) -> None:
    source = seed(examples_dir, "rmsnorm")
    assert apply(source, {}) == source


def test_apply_keeps_crlf_line_endings() -> None:
    source = "BLOCK = 256\r\nSPLITS = 4\r\n"
    tunables = find_tunables(source)
    assert apply(source, {tunables[1]: 8}) == "BLOCK = 256\r\nSPLITS = 8\r\n"


def test_apply_after_a_non_ascii_character_on_the_same_line() -> None:
    source = "def forward(x, σ):\n    kernel[(1,)](x, σ, BLOCK=1024)\n"
    (block,) = find_tunables(source)
    assert apply(source, {block: 2048}) == "def forward(x, σ):\n    kernel[(1,)](x, σ, BLOCK=2048)\n"


def test_choices_are_legal_for_each_kind_of_tunable() -> None:
    tunables = {t.name: t for t in find_tunables(
        "def f(x):\n    k[(1,)](x, BLOCK=1024, num_warps=4, num_stages=3)\n")}
    assert tunables["num_warps"].choices() == (1, 2, 4, 8, 16, 32)
    assert tunables["num_stages"].choices() == (1, 2, 3, 4, 5, 6)
    blocks = tunables["BLOCK"].choices()
    assert (blocks[0], blocks[-1]) == (1, MAX_BLOCK)  # down to 1 (group sizes, small tiles), up to the cap
    assert all(b * 2 == c for b, c in itertools.pairwise(blocks))  # consecutive powers of two
    assert tunables["num_warps"].neighbours() == [2, 8]
    assert tunables["num_stages"].neighbours() == [2, 4]
    assert tunables["BLOCK"].neighbours() == [512, 2048]


def test_neighbours_within_several_steps() -> None:
    tunables = {t.name: t for t in find_tunables("def f(x):\n    k[(1,)](x, BLOCK=1024, num_warps=2)\n")}
    assert tunables["num_warps"].neighbours(3) == [1, 4, 8, 16]
    assert tunables["BLOCK"].neighbours(2) == [256, 512, 2048, 4096]


def test_neighbours_stop_at_the_ends_of_the_range() -> None:
    tunables = {t.name: t for t in find_tunables(
        f"def f(x):\n    k[(1,)](x, BLOCK={MAX_BLOCK}, num_warps=32, num_stages=1)\n")}
    assert tunables["BLOCK"].neighbours() == [MAX_BLOCK // 2]
    assert tunables["num_warps"].neighbours() == [16]
    assert tunables["num_stages"].neighbours() == [2]


def test_a_power_of_two_outside_the_usual_range_can_move_back_into_it() -> None:
    (big,) = find_tunables(f"BLOCK = {MAX_BLOCK * 4}\n")
    assert big.neighbours() == [MAX_BLOCK * 2]
    assert MAX_BLOCK * 4 in big.choices()


def test_a_non_power_of_two_count_can_move_both_ways() -> None:
    (splits,) = find_tunables("SPLITS = 3\n")
    neighbours = splits.neighbours()
    assert any(v < 3 for v in neighbours)
    assert any(v > 3 for v in neighbours)


def moves(source: str, new: str) -> dict[str, tuple[int, int]]:
    """What ``mutate`` moved: key -> (old index, new index) along the tunable's choices."""
    before = {t.key: t for t in find_tunables(source)}
    after = values(new)
    assert after.keys() == before.keys()
    return {k: (before[k].choices().index(before[k].value), before[k].choices().index(v))
            for k, v in after.items() if v != before[k].value}


def test_mutate_moves_one_or_two_tunables_to_legal_neighbours(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    before = {t.key: t for t in find_tunables(source)}
    counts = set()
    for i in range(200):
        result = mutate(source, random.Random(i), jump_rate=0.0)
        assert result is not None
        new, note = result
        ast.parse(new)
        moved = {k: v for k, v in values(new).items() if v != before[k].value}
        counts.add(len(moved))
        for key, value in moved.items():
            assert value in before[key].neighbours()
            if before[key].name == "num_warps":
                assert value in WARPS
            elif before[key].name == "num_stages":
                assert value in STAGES
            else:
                assert value & (value - 1) == 0  # a power-of-two block stays one
            assert f"{before[key].name} {before[key].value} -> {value}" in note
        assert len(changed_lines(source, new)) == 1  # all six live on the launch line
    assert counts == {1, 2}


def test_mutate_jumps_at_most_jump_steps_along_the_choices(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    distances = set()
    for i in range(100):
        result = mutate(source, random.Random(i), jump_rate=1.0)
        assert result is not None
        ast.parse(result[0])
        distances |= {abs(new - old) for old, new in moves(source, result[0]).values()}
    assert distances == set(range(1, JUMP_STEPS + 1))


def test_mutate_by_default_mostly_moves_one_step(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    distances = []
    for i in range(200):
        result = mutate(source, random.Random(i))
        assert result is not None
        distances += [abs(new - old) for old, new in moves(source, result[0]).values()]
    assert distances.count(1) > len(distances) / 2
    assert max(distances) > 1


def test_mutate_with_a_single_tunable_changes_it(examples_dir: Path) -> None:
    source = seed(examples_dir, "softmax")
    seen = set()
    for i in range(20):
        result = mutate(source, random.Random(i), jump_rate=0.0)
        assert result is not None
        seen.add(values(result[0])["launch:num_warps#0"])
    assert seen == {4, 16}


def test_mutate_returns_none_without_tunables() -> None:
    assert mutate(NO_TUNABLES, random.Random(0)) is None
    assert find_tunables(NO_TUNABLES) == []


def test_mutate_is_deterministic_for_a_seeded_rng(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    runs = [[mutate(source, random.Random(7)) for _ in range(3)] for _ in range(2)]
    assert runs[0] == runs[1]
    rng_a, rng_b = random.Random(11), random.Random(11)
    assert [mutate(source, rng_a) for _ in range(10)] == [mutate(source, rng_b) for _ in range(10)]


def test_shares_of_a_parents_moves_make_disjoint_kernels_that_together_are_its_neighbourhood(
        examples_dir: Path) -> None:
    """Island actors varying the same seed each draw from their own share of its moves: none makes another's."""
    source = seed(examples_dir, "matmul_epilogue")
    unshared = {mutate(source, random.Random(i))[0] for i in range(600)}
    shares = [{made[0] for i in range(600) if (made := mutate(source, random.Random(i), partition=(k, 2)))}
              for k in range(2)]
    assert shares[0] and shares[1] and not shares[0] & shares[1]
    assert len(shares[0] | shares[1]) > 0.8 * len(unshared)  # the shares cover the neighbourhood between them
    tunables = {t.key: t for t in find_tunables(source)}
    for k, made in enumerate(shares):
        for new in made:
            changes = {tunables[key]: value for key, value in values(new).items() if value != tunables[key].value}
            assert share_of(changes, 2) == k


def test_sweep_lists_every_single_step_neighbour(examples_dir: Path) -> None:
    source = seed(examples_dir, "gelu")
    results = sweep(source)
    got = sorted((tuple(sorted(values(new).items())), note) for new, note in results)
    expected = sorted([
        ((("launch:BLOCK_SIZE#0", 512), ("launch:num_warps#0", 4)), "BLOCK_SIZE 1024 -> 512"),
        ((("launch:BLOCK_SIZE#0", 2048), ("launch:num_warps#0", 4)), "BLOCK_SIZE 1024 -> 2048"),
        ((("launch:BLOCK_SIZE#0", 1024), ("launch:num_warps#0", 2)), "num_warps 4 -> 2"),
        ((("launch:BLOCK_SIZE#0", 1024), ("launch:num_warps#0", 8)), "num_warps 4 -> 8"),
    ])
    assert got == expected
    for new, _ in results:
        ast.parse(new)
        assert len(changed_lines(source, new)) == 1


def test_sweep_moves_one_tunable_one_step_each_time(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    before = {t.key: t for t in find_tunables(source)}
    results = sweep(source)
    moved = []
    for new, note in results:
        ((key, (old, new_index)),) = moves(source, new).items()
        assert abs(new_index - old) == 1
        assert note == f"{before[key].name} {before[key].value} -> {values(new)[key]}"
        moved.append((key, values(new)[key]))
    assert sorted(moved) == sorted((t.key, v) for t in before.values() for v in t.neighbours())
    assert len(set(moved)) == len(moved)
    assert sweep(NO_TUNABLES) == []


def test_crossover_takes_values_from_the_donor(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    tunables = {t.name: t for t in find_tunables(source)}
    donor = apply(source, {tunables["BLOCK_M"]: 64, tunables["num_warps"]: 4, tunables["num_stages"]: 5})
    donor_values = values(donor)
    seen_subsets = set()
    for i in range(50):
        result = crossover(source, donor, random.Random(i))
        assert result is not None
        new, note = result
        assert note.startswith("crossover: ")
        ast.parse(new)
        child = values(new)
        taken = {k for k, v in child.items() if v != values(source)[k]}
        assert taken  # at least one value comes from the donor
        assert taken <= {"launch:BLOCK_M#0", "launch:num_warps#0", "launch:num_stages#0"}
        for key in taken:
            assert child[key] == donor_values[key]
        seen_subsets.add(frozenset(taken))
    assert len(seen_subsets) > 1


def test_crossover_needs_the_same_tunables_and_a_difference(examples_dir: Path) -> None:
    gelu, matmul = seed(examples_dir, "gelu"), seed(examples_dir, "matmul_epilogue")
    assert crossover(gelu, matmul, random.Random(0)) is None  # different tunables
    assert crossover(matmul, matmul, random.Random(0)) is None  # nothing differs
    assert crossover(NO_TUNABLES, NO_TUNABLES, random.Random(0)) is None
    # the persistent GELU has the same launch tunables with the same values: nothing to take
    assert crossover(gelu, seed(examples_dir, "gelu", "seed_persistent.py"), random.Random(0)) is None


def test_crossover_is_deterministic_for_a_seeded_rng(examples_dir: Path) -> None:
    source = seed(examples_dir, "matmul_epilogue")
    tunables = {t.name: t for t in find_tunables(source)}
    donor = apply(source, {t: t.neighbours()[0] for t in tunables.values()})
    assert crossover(source, donor, random.Random(3)) == crossover(source, donor, random.Random(3))
