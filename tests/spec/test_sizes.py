"""Sizing a spec before allocating it: a spec too big for where it runs is a spec error naming the sizes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from kernelevo.spec import SpecError, check_spec, read_spec
from kernelevo.spec.loaded import LoadedSpec
from kernelevo.spec.sizes import GIB, ensure_fits, live_data, size_globals

ROOT = Path(__file__).resolve().parents[2]
HUGE = Path(__file__).parent / "specs" / "log_softmax_kernelbench.py"


def test_live_data_from_the_meta_device(examples_dir: Path) -> None:
    problem = LoadedSpec(read_spec(str(examples_dir / "rmsnorm" / "spec.py")))
    live = live_data(problem, "default", outputs_above=0)
    elements = 16 * 128 * 256 * 256
    assert live.input_bytes == live.output_bytes == 4 * elements
    assert live.param_bytes == 4 * 128  # the weight
    assert live.total_bytes == 8 * elements + 512
    quick = live_data(problem, "default", outputs_above=live.input_bytes + 1)  # far from any limit: not run
    assert quick.output_bytes is None and quick.input_bytes == live.input_bytes
    assert quick.total_bytes >= 2 * live.input_bytes  # unknown outputs count as large as the inputs


def test_a_kernelbench_sized_spec_is_sized_without_allocating_it() -> None:
    problem = LoadedSpec(read_spec(str(HUGE)))
    live = live_data(problem, "default", outputs_above=0)  # 6 GiB if it were allocated: on the meta device, nothing is
    assert live.input_bytes == live.output_bytes == 4096 * 393216 * 4 == 6 * GIB
    assert size_globals(problem) == "batch_size=4096, dim=393216"
    with pytest.raises(SpecError) as info:
        ensure_fits(live, torch.device("cpu"), cpu_limit_bytes=12 * GIB, size_names=size_globals(problem))
    message = str(info.value)
    assert "6.00 GiB of inputs" in message and "12.00 GiB of live data" in message
    assert 'add a "small" variant' in message and "batch_size=4096, dim=393216" in message


def test_on_a_gpu_two_copies_must_fit() -> None:
    problem = LoadedSpec(read_spec(str(HUGE)))
    live = live_data(problem, "default", outputs_above=0)
    ensure_fits(live, torch.device("cuda"), cpu_limit_bytes=0, gpu_free_bytes=30 * GIB)  # 24 GiB needed: fits
    with pytest.raises(SpecError, match=r"at least 24.00 GiB, but the GPU has 20.00 GiB free.*64.00 GiB"):
        ensure_fits(live, torch.device("cuda"), cpu_limit_bytes=0, gpu_free_bytes=20 * GIB)


def test_checking_a_spec_too_big_for_the_cpu_says_so_instead_of_dying() -> None:
    with pytest.raises(SpecError, match="too big to judge on the CPU"):
        check_spec(read_spec(str(HUGE)), device="cpu")


def test_eval_of_a_spec_too_big_for_the_cpu_exits_2_with_one_line(examples_dir: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "kernelevo.cli", "eval", str(HUGE),
                           str(examples_dir / "softmax" / "seed.py"), "--device", "cpu"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "too big to judge on the CPU" in done.stderr and "small" in done.stderr
    assert "Traceback" not in done.stderr and "SIGKILL" not in done.stderr + done.stdout
