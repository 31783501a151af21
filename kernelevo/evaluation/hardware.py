"""The machine an evaluation runs on: what it is, and its measured and rated ceilings."""

from __future__ import annotations

import platform
import re
import shutil
import socket
import subprocess
from dataclasses import dataclass

import torch

from kernelevo.records.result import Environment

# Dense tensor-core peaks in TFLOP/s from the vendors' datasheets (SXM parts). They bound
# what any kernel can reach: a time below flops / peak is impossible. fp32 inputs count
# at the TF32 rate, since Triton's tl.dot uses TF32 for fp32 by default.
DATASHEET_PEAK_TFLOPS: dict[str, dict[str, float]] = {
    "h100": {"float64": 67.0, "float32": 494.7, "float16": 989.4, "bfloat16": 989.4},
    "h200": {"float64": 67.0, "float32": 494.7, "float16": 989.4, "bfloat16": 989.4},
    "a100": {"float64": 19.5, "float32": 156.0, "float16": 312.0, "bfloat16": 312.0},
    "l40s": {"float64": 1.4, "float32": 183.0, "float16": 362.0, "bfloat16": 362.0},
}


@dataclass(frozen=True)
class Ceilings:
    """Memory bandwidth (measured) and peak FLOP/s (rated) of one device."""

    bandwidth_gbs: float | None
    peak_tflops: dict[str, float]

    def floor_ms(self, bytes_moved: int, flops: int, dtype: str) -> float | None:
        """The larger of bytes / bandwidth and flops / peak, in ms; None when unknown."""
        if self.bandwidth_gbs is None:
            return None
        floor = bytes_moved / (self.bandwidth_gbs * 1e9) * 1e3
        peak = self.peak_tflops.get(dtype)
        if flops and peak:
            floor = max(floor, flops / (peak * 1e12) * 1e3)
        return floor


def hardware_key(device_name: str) -> str:
    """A short key for archives: 'NVIDIA H200' -> 'h200', 'NVIDIA H100 80GB HBM3' -> 'h100'."""
    name = device_name.lower().removeprefix("nvidia").strip()
    for known in DATASHEET_PEAK_TFLOPS:
        if re.search(rf"\b{known}\b", name):
            return known
    return re.sub(r"[^a-z0-9]+", "-", name).strip("-") or "gpu"


def environment(device: torch.device) -> Environment:
    """Versions and device facts for ``device``."""
    import triton

    versions = Environment(
        device=str(device),
        device_name=platform.processor() or platform.machine(),
        hardware="cpu-interpreter",
        torch=torch.__version__,
        triton=getattr(triton, "__version__", None),
        python=platform.python_version(),
        hostname=socket.gethostname(),
    )
    if device.type != "cuda":
        return versions
    props = torch.cuda.get_device_properties(device)
    return versions.model_copy(update={
        "device_name": props.name,
        "hardware": hardware_key(props.name),
        "compute_capability": f"{props.major}.{props.minor}",
        "sm_count": props.multi_processor_count,
        "l2_bytes": getattr(props, "L2_cache_size", None),
        "shared_per_sm_bytes": getattr(props, "shared_memory_per_multiprocessor", None),
        "driver": _driver_version(),
        "cuda": torch.version.cuda,
    })


def _driver_version() -> str | None:
    if shutil.which("nvidia-smi") is None:
        return None
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=10,
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.strip().splitlines()[0] if out.strip() else None


def measure_copy_bandwidth(device: torch.device, *, nbytes: int = 1 << 30, copies: int = 8, reps: int = 5) -> float:
    """Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes written.

    ``copies`` back-to-back copies of ``nbytes`` between one pair of events, queued while
    the GPU sleeps (so no launch gap is timed), median of ``reps``. (An event pair around
    one launched copy read 2,878 GB/s on an H100 that copies at 3,005; the same copies
    replayed from a CUDA graph read 2,434, as a graph's memcpy nodes can go to the copy
    engines instead of the SMs.)
    """
    from kernelevo.evaluation.timing import cover_cycles

    free, _ = torch.cuda.mem_get_info(device)
    nbytes = min(nbytes, free // 8)
    src = torch.randn(nbytes // 4, device=device)
    dst = torch.empty_like(src)
    dst.copy_(src)
    sleep = cover_cycles(1.0)
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize(device)
        torch.cuda._sleep(sleep)
        start.record()
        for _ in range(copies):
            dst.copy_(src)
        end.record()
        torch.cuda.synchronize(device)
        times.append(start.elapsed_time(end) / copies)
    del src, dst
    torch.cuda.empty_cache()
    return 2 * nbytes / (sorted(times)[reps // 2] * 1e-3) / 1e9


def ceilings(device: torch.device, hardware: str) -> Ceilings:
    """Measured bandwidth and rated peaks; both unknown on a CPU (interpreted timings are not speeds)."""
    if device.type != "cuda":
        return Ceilings(bandwidth_gbs=None, peak_tflops={})
    return Ceilings(bandwidth_gbs=measure_copy_bandwidth(device), peak_tflops=DATASHEET_PEAK_TFLOPS.get(hardware, {}))
