"""Sizing the CPU-side work of a GPU evaluator from the host's cores."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kernelevo.evaluation import EvalOptions
from kernelevo.records import options as options_module
from kernelevo.utils import devices


@pytest.fixture
def uncached() -> Iterator[None]:
    """cores_per_gpu() asked afresh (it is cached for the process)."""
    devices.cores_per_gpu.cache_clear()
    yield
    devices.cores_per_gpu.cache_clear()


def test_cores_per_gpu_shares_the_cores_among_the_hosts_gpus(monkeypatch: pytest.MonkeyPatch, uncached: None) -> None:
    monkeypatch.setattr(devices.os, "sched_getaffinity", lambda pid: set(range(32)))
    monkeypatch.setattr(devices, "_cgroup_cpu_quota", lambda: None)
    monkeypatch.setattr(devices.glob, "glob", lambda pattern: ["/dev/nvidia0", "/dev/nvidia1"])
    assert devices.cores_per_gpu() == 16
    devices.cores_per_gpu.cache_clear()
    monkeypatch.setattr(devices, "_cgroup_cpu_quota", lambda: 8)  # a container limited to 8 cores
    assert devices.cores_per_gpu() == 4
    devices.cores_per_gpu.cache_clear()
    monkeypatch.setattr(devices.glob, "glob", lambda pattern: [])  # no GPU: every core
    assert devices.cores_per_gpu() == 8


@pytest.mark.parametrize(("cores", "spares", "ahead", "threads"), [
    (2, 1, 2, 1),  # this CI machine: the floor
    (8, 2, 4, 2),
    (16, 4, 8, 2),  # the H100 host: 8 compiling ahead in 2 threads each, below the judge's priority
    (64, 4, 8, 4),  # capped: the GPU takes candidates no faster
])
def test_compile_ahead_is_sized_from_the_cores_per_gpu(monkeypatch: pytest.MonkeyPatch, cores: int, spares: int,
                                                       ahead: int, threads: int) -> None:
    monkeypatch.setattr(options_module, "cores_per_gpu", lambda: cores)
    options = EvalOptions(device="cuda")
    assert (options.spares(gpu=True), options.ahead(), options.compile_threads()) == (spares, ahead, threads)
    assert options.ahead() <= options.most_ahead()  # a Ray actor never takes more than its concurrency allows
    chosen = EvalOptions(device="cuda", spare_children=0, precompile_ahead=1, precompile_threads=6)
    assert (chosen.spares(gpu=True), chosen.ahead(), chosen.compile_threads(), chosen.most_ahead()) == (0, 1, 6, 1)


def test_cuda_present_is_decided_without_importing_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Device files, CUDA_VISIBLE_DEVICES and torch's build, as torch itself would see them."""
    devices.cuda_present.cache_clear()
    monkeypatch.setattr(devices.glob, "glob", lambda pattern: ["/dev/nvidia0"])
    monkeypatch.setattr(devices, "_torch_cuda_version", lambda: "13.0")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    try:
        assert devices.cuda_present()
        for hidden in ("", "-1"):
            devices.cuda_present.cache_clear()
            monkeypatch.setenv("CUDA_VISIBLE_DEVICES", hidden)
            assert not devices.cuda_present()
        devices.cuda_present.cache_clear()
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
        monkeypatch.setattr(devices, "_torch_cuda_version", lambda: None)  # a CPU build of torch
        assert not devices.cuda_present()
    finally:
        devices.cuda_present.cache_clear()


def test_the_installed_torch_reports_its_build() -> None:
    import torch

    assert devices._torch_cuda_version() == torch.version.cuda
