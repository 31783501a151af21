"""The template operator on a corpus of Triton kernels written the ways people and LLMs write them
(``triton_corpus/``): each exposes its sizes, and its mutants stay correct.

The full sweep of every kernel is benchmarks/template_corpus.py (its result is in
benchmarks/results/); here every kernel and two random mutants of each run through the
evaluator on Triton's CPU interpreter.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.spec import read_spec
from kernelevo.variation.moves.template import find_tunables, mutate, sweep

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).parent / "triton_corpus"
KERNELS = sorted(CORPUS.glob("*.py"))


def spec_of(kernel: Path) -> Path:
    match = re.search(r"^Spec: (\S+)", kernel.read_text(), re.M)
    assert match, f"{kernel.name} names no spec"
    return ROOT / match.group(1)


def test_the_corpus_holds_twenty_kernels_over_several_specs() -> None:
    assert len(KERNELS) >= 20
    assert len({spec_of(k) for k in KERNELS}) >= 3
    for kernel in KERNELS:
        assert ast.get_docstring(ast.parse(kernel.read_text())), f"{kernel.name} has no docstring"


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda p: p.stem)
def test_every_kernel_exposes_a_block_size_and_every_neighbour_parses(kernel: Path) -> None:
    source = kernel.read_text()
    tunables = find_tunables(source)
    assert any(t.name not in ("num_warps", "num_stages") for t in tunables), (
        f"{kernel.name}: only {[t.key for t in tunables]} found; its sizes are invisible to the operator")
    neighbours = sweep(source)
    assert neighbours
    for new, what in neighbours:
        ast.parse(new)
        assert new != source, what


def _by_spec() -> dict[Path, list[Path]]:
    by_spec: dict[Path, list[Path]] = {}
    for kernel in KERNELS:
        by_spec.setdefault(spec_of(kernel), []).append(kernel)
    return by_spec


# one test a spec: the test workers share the four specs' judges out
@pytest.mark.parametrize("spec", sorted(_by_spec()), ids=lambda p: p.parent.name)
def test_seeds_and_random_mutants_are_correct_on_the_cpu_interpreter(spec: Path) -> None:
    options = EvalOptions(device="cpu", baselines=["eager"], aot_metadata=False, warmup_reps=0, warmup_ms=0,
                          min_reps=1, min_measure_ms=0, max_reps=1, timing_input_sets=1, floor_check=False)
    rng = random.Random(f"7 {spec.parent.name}")
    failures, total = [], 0
    with Evaluator(read_spec(str(spec)), options) as evaluator:
        for kernel in _by_spec()[spec]:
            source = kernel.read_text()
            seed = evaluator.evaluate(source)
            assert seed.correct, f"{kernel.name} itself: {seed.error}: {seed.message}"
            for _ in range(2):
                drawn = mutate(source, rng)
                assert drawn is not None
                result = evaluator.evaluate(drawn[0])
                total += 1
                if not result.correct:
                    failures.append(f"{kernel.name} ({drawn[1]}): {result.error}: {(result.message or '')[:200]}")
    assert len(failures) <= 0.05 * total, f"{len(failures)} of {total} mutants rejected:\n" + "\n".join(failures)
