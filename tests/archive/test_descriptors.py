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
