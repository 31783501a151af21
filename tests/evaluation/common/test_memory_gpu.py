"""KernelBench-sized specs on a real GPU: an honest kernel fits in 5 x D + 4 GiB; an over-allocating one does not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kernelevo.evaluation import EvalOptions, Evaluator
from kernelevo.spec import read_spec

pytestmark = [pytest.mark.gpu, pytest.mark.slow]

GIB = 1 << 30
# The RMSNorm example at KernelBench's size (level 1, 36_RMSNorm_): 7 GiB in, 7 GiB out, fp32
BIG_SIZES = {"batch_size": 112, "features": 64, "dim1": 512, "dim2": 512}


@pytest.fixture(scope="module")
def big(examples_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = (examples_dir / "rmsnorm" / "spec.py").read_text()
    for name, value in BIG_SIZES.items():
        source, count = re.subn(rf"^{name} = \d+$", f"{name} = {value}", source, flags=re.M)
        assert count == 1
    path = tmp_path_factory.mktemp("spec") / "rmsnorm_7gib.py"
    path.write_text(source.replace('    "seeds": ["seed.py", "seed_single_pass.py"],\n', ""))
    return path


def test_an_honest_kernel_for_a_7_gib_spec_fits_in_5d_plus_4_gib(examples_dir: Path, big: Path) -> None:
    live = 2 * 7 * GIB + 4 * 64  # 7 GiB in, 7 GiB out, the weight
    budget_gb = (5 * live + 4 * GIB) / GIB  # 74 GiB: an 80 GB H100 has it
    options = EvalOptions(device="cuda", gpu_memory_gb=budget_gb, baselines=["eager"])
    seed = (examples_dir / "rmsnorm" / "seed.py").read_text()
    with Evaluator(read_spec(str(big)), options) as evaluator:
        result = evaluator.evaluate(seed)
        over = evaluator.evaluate(seed.replace("out = torch.empty_like(x)",
                                               "scratch = torch.empty(8 * x.numel(), device=x.device)\n"
                                               "        out = torch.empty_like(x)"))
    assert result.ok, result.message
    memory = result.memory
    assert memory is not None and memory.live_data_bytes == live
    assert memory.judge_peak_bytes and memory.child_peak_bytes and memory.child_limit_bytes
    assert memory.judge_peak_bytes + memory.child_peak_bytes <= 5 * live + 4 * GIB
    assert memory.child_peak_bytes <= memory.child_limit_bytes
    assert memory.child_peak_bytes >= live  # the child held the inputs and the outputs, once
    # 56 GiB more than an honest kernel needs: over the child's limit, so the kernel's fault
    assert over.error == "out_of_memory", over.message


def test_a_spec_larger_than_the_gpu_is_a_spec_error_naming_the_sizes(examples_dir: Path, big: Path) -> None:
    """24 GiB: the judge's side alone needs 22 (its 21 GiB reference peak), so no honest kernel could fit."""
    evaluator = Evaluator(read_spec(str(big)), EvalOptions(device="cuda", gpu_memory_gb=24, baselines=["eager"]))
    try:
        result = evaluator.evaluate((examples_dir / "rmsnorm" / "seed.py").read_text())
    finally:
        evaluator.close()
    assert result.error == "spec_error"
    assert "GiB" in result.message and "smaller variant" in result.message
