"""The machine an evaluation runs on: what it is, and its measured and rated ceilings."""

from __future__ import annotations

import platform
import re
import shutil
import socket
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

import torch

from kernelevo.records.result import Environment, Floor

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
    """Memory bandwidths (measured) and peak FLOP/s (rated) of one device.

    ``bandwidth_gbs`` is a device-to-device copy's (bytes read plus bytes written), and
    ``read_bandwidth_gbs`` a read-only pass's (bytes read): a kernel that only reads runs
    faster than a copy, which mixes reads and writes on the same memory bus.
    """

    bandwidth_gbs: float | None
    peak_tflops: dict[str, float]
    read_bandwidth_gbs: float | None = None

    def floor(self, bytes_read: int, bytes_written: int, flops: int, dtype: str) -> tuple[float, Floor] | None:
        """The floor of a kernel's time in ms and which bound sets it; None when the bandwidth is unknown.

        Memory: a copy of N bytes reads N and writes N in ``2 N / copy`` seconds, and a pure read
        of N takes ``N / read``. So a written byte costs what a copy leaves after its read,
        ``2 / copy - 1 / read``, and a kernel that reads more than it writes gets
        ``bytes_read / read + bytes_written * (2 / copy - 1 / read)`` (the ``read`` floor): exactly
        the read floor for a reduction, exactly the copy floor for a copy, and below the copy floor
        in between. (On an H100, read at 1.046 times the copy bandwidth, Triton kernels that read
        2 and 4 bytes per byte written ran at 1.010 and 1.026 times it; this floor allows 1.015 and
        1.027.) A single threshold ("read" below 1 byte written per 8 read) would jump at it, and
        ``max(bytes_read / read, bytes_moved / copy)`` gives a reduction the copy floor again.

        A kernel that writes as much as it reads, or more, keeps the copy floor,
        ``(bytes_read + bytes_written) / copy``, as before: it is never raised. (A write-only fill
        ran at 1.09 times the copy bandwidth on that H100, so a kernel that mostly writes can pass
        100% of it by as much.) ``compute`` (FLOPs / peak) applies where it is the larger.
        """
        if self.bandwidth_gbs is None:
            return None
        copy_s = 1 / (self.bandwidth_gbs * 1e9)  # per byte moved
        floor_ms, kind = (bytes_read + bytes_written) * copy_s * 1e3, Floor.COPY
        if self.read_bandwidth_gbs is not None and bytes_written < bytes_read:
            read_s = 1 / (self.read_bandwidth_gbs * 1e9)  # per byte read
            mixed_ms = (bytes_read * read_s + bytes_written * (2 * copy_s - read_s)) * 1e3
            if mixed_ms < floor_ms:
                floor_ms, kind = mixed_ms, Floor.READ
        peak = self.peak_tflops.get(dtype)
        if flops and peak and flops / (peak * 1e12) * 1e3 > floor_ms:
            floor_ms, kind = flops / (peak * 1e12) * 1e3, Floor.COMPUTE
        return floor_ms, kind


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
    free, _ = torch.cuda.mem_get_info(device)
    nbytes = min(nbytes, free // 8)
    ms = _copy_ms(device, nbytes, copies=copies, reps=reps)
    torch.cuda.empty_cache()  # the buffers went with _copy_ms's frame
    return 2 * nbytes / (ms * 1e-3) / 1e9


def measure_read_bandwidth(device: torch.device, *, nbytes: int = 1 << 30, passes: int = 8, reps: int = 5) -> float:
    """Read-only bandwidth in GB/s, counting bytes read, timed as :func:`measure_copy_bandwidth` is.

    ``passes`` back-to-back read passes over ``nbytes`` (:mod:`kernelevo.evaluation.judge.read_pass`, a
    Triton kernel that writes one float for every 32 KiB it reads: the fastest read found), median
    of ``reps``. A reduction reads at this rate, faster than a copy (1.046 times on an H100; about
    1.1 times on an H200, where sums reached 108 to 110% of a copy's floor).
    """
    from kernelevo.evaluation.judge.read_pass import chunk

    free, _ = torch.cuda.mem_get_info(device)
    nbytes = min(nbytes, free // 8) // (4 * chunk()) * (4 * chunk())
    ms = _read_ms(device, nbytes, passes=passes, reps=reps)
    torch.cuda.empty_cache()
    return nbytes / (ms * 1e-3) / 1e9


def _copy_ms(device: torch.device, nbytes: int, *, copies: int, reps: int) -> float:
    src, dst = torch.randn(nbytes // 4, device=device), torch.empty(nbytes // 4, device=device)
    return _back_to_back_ms(device, lambda: dst.copy_(src), calls=copies, reps=reps)


def _read_ms(device: torch.device, nbytes: int, *, passes: int, reps: int) -> float:
    from kernelevo.evaluation.judge.read_pass import chunk, read_pass

    floats = nbytes // 4
    src, out = torch.randn(floats, device=device), torch.empty(floats // chunk(), device=device)
    return _back_to_back_ms(device, lambda: read_pass(src, out), calls=passes, reps=reps)


def _back_to_back_ms(device: torch.device, call: Callable[[], object], *, calls: int, reps: int) -> float:
    """The median over ``reps`` of one call's GPU time in ms, ``calls`` calls queued while the GPU sleeps.

    The buffers are many times the L2, so nothing one call leaves in the cache serves the next.
    """
    from kernelevo.evaluation.common.timing import cover_cycles

    call()  # warm-up: first-touch of the pages, the kernel's load (and compile)
    sleep = cover_cycles(1.0)
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize(device)
        torch.cuda._sleep(sleep)
        start.record()
        for _ in range(calls):
            call()
        end.record()
        torch.cuda.synchronize(device)
        times.append(start.elapsed_time(end) / calls)
    return sorted(times)[reps // 2]


def ceilings(device: torch.device, hardware: str) -> Ceilings:
    """Measured bandwidths (copy and read) and rated peaks; unknown on a CPU (interpreted timings are not speeds)."""
    if device.type != "cuda":
        return Ceilings(bandwidth_gbs=None, peak_tflops={})
    return Ceilings(bandwidth_gbs=measure_copy_bandwidth(device), peak_tflops=DATASHEET_PEAK_TFLOPS.get(hardware, {}),
                    read_bandwidth_gbs=measure_read_bandwidth(device))
