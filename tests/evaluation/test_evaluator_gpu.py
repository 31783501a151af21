"""The evaluator on a real GPU: speeds, baselines, roofline and compile metadata (marked gpu)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.spec import read_spec

pytestmark = pytest.mark.gpu


def test_seed_on_the_gpu(examples_dir: Path) -> None:
    spec = read_spec(str(examples_dir / "gelu" / "spec.py"))
    with Evaluator(spec, EvalOptions(device="cuda")) as evaluator:
        result = evaluator.evaluate((examples_dir / "gelu" / "seed.py").read_text())
    assert result.ok, result.message
    assert not result.interpreted and result.timed_variant == "default"
    assert result.variants_checked == ["small", "odd", "default"]
    assert result.kernel is not None and result.kernel.method == "cuda_events" and result.kernel.l2_flushed
    assert result.eager is not None and result.compiled is not None, result.compile_baseline_error
    assert result.speedup_eager and result.speedup_compile
    roof = result.roofline
    assert roof is not None and roof.bandwidth_gbs and 1000 < roof.bandwidth_gbs < 10_000
    assert roof.fraction is not None and 0.2 < roof.fraction <= 1.0 / 0.8  # never past the floor margin
    (kernel,) = result.kernels
    assert kernel.source == "runtime" and kernel.registers and kernel.num_warps == 4
    assert result.environment is not None and result.environment.compute_capability is not None


def test_bad_kernel_does_not_poison_the_next(examples_dir: Path) -> None:
    """An illegal memory access kills its child only: the next candidate is judged normally."""
    spec = read_spec(str(examples_dir / "gelu" / "spec.py"))
    seed = (examples_dir / "gelu" / "seed.py").read_text()
    broken = seed.replace("x = tl.load(x_ptr + offsets, mask=mask)", "x = tl.load(x_ptr + offsets + (1 << 40))")
    with Evaluator(spec, EvalOptions(device="cuda")) as evaluator:
        assert evaluator.evaluate(broken).error in ("cuda_error", "crashed")
        assert evaluator.evaluate(seed).ok
