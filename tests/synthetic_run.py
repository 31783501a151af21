"""A long run written through the search's own writer (:class:`RunRecorder`), for storage and dashboard
measurements at the size of a real long search (10,000 candidates) without a GPU.

Each candidate is a real kernel source (the GELU seed with a changed block size) with a
parent among the earlier ones, made, then evaluated with a full GPU-shaped result (timings,
baselines, roofline, compile metadata that spreads the kernels over the metadata descriptors'
cells, environment, memory), then a progress snapshot, as the loop writes them.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.records.candidate import Candidate, Evaluated
from kernelevo.records.progress import Progress
from kernelevo.records.result import (
    Environment,
    EvalResult,
    Floor,
    KernelMetadata,
    MemoryUse,
    Roofline,
    Stage,
    Timing,
)
from kernelevo.search.state import SearchState
from kernelevo.spec import read_spec
from kernelevo.storage.database import Database
from kernelevo.storage.recorder import RunRecorder
from kernelevo.storage.runs import create_run, save_spec

GELU = Path(__file__).resolve().parent.parent / "examples" / "gelu"


def timing(ms: float) -> Timing:
    return Timing(median_ms=ms, iqr_ms=ms * 0.01, min_ms=ms * 0.99, mean_ms=ms * 1.001, repetitions=280,
                  method="cuda_events", l2_flushed=True, input_sets=3, host_launch_ms=0.03, bracket_ms=0.0023)


def gpu_result(i: int) -> EvalResult:
    """A result shaped like a real H100 evaluation (every field a judge fills); one in five is wrong."""
    ms = 0.35 + (i % 97) / 1000
    env = Environment(device="cuda:0", device_name="NVIDIA H100 80GB HBM3", hardware="h100", compute_capability="9.0",
                      sm_count=132, l2_bytes=52428800, driver="580.159.04", cuda="13.0", torch="2.11.0+cu130",
                      triton="3.6.0", python="3.12.3", hostname="gpu-host")
    return EvalResult(
        correct=i % 5 != 0, stage=Stage.VERDICT, error=None if i % 5 else "wrong_output",
        message="" if i % 5 else "wrong output: output[0] of variant 'odd' (fresh inputs): 12/4593 elements outside",
        variants_checked=["small", "odd", "default"], timed_variant="default", kernel=timing(ms),
        eager=timing(0.357), compiled=timing(0.357), speedup_eager=0.357 / ms, speedup_compile=0.357 / ms,
        roofline=Roofline(bytes_moved=1073741824, bytes_read=536870912, bytes_written=536870912, flops=0,
                          bandwidth_gbs=3012.0, read_bandwidth_gbs=3150.0, peak_tflops=494.7, floor_ms=0.3565,
                          fraction=0.3565 / ms, floor=Floor.COPY),
        kernels=[KernelMetadata(name="gelu_kernel", launches=12, registers=16 + (i * 7) % 240,
                                spills=0, shared_bytes=((i * 13) % 200) * 1024, num_warps=1 << (i % 6),
                                num_stages=3)],
        launches=12, environment=env,
        memory=MemoryUse(live_data_bytes=1073741824, judge_peak_bytes=1902116864, child_peak_bytes=2254438400,
                         child_limit_bytes=81675878400, device_bytes=84465090560))


def snapshot(state: SearchState, i: int) -> Progress:
    """What the loop's progress snapshot holds, for a run evaluating 40 candidates a minute on 4 GPUs."""
    best = state.best("h100")
    archives = list(state.archives.values())
    speedup = best[0].objective if best else None
    return Progress.model_validate({"evaluations": i + 1, "correct": state.correct_count(), "candidates": i + 1,
            "evaluations_per_min": 40.0, "busy": 0.9 + (i % 10) / 100, "workers": 4, "elapsed_s": i * 1.5,
            "session_s": i * 1.5, "hardware": "h100", "interpreted": False,
            "best_speedup_eager": math.exp(speedup) if speedup is not None else None,
            "best_speedup_compile": math.exp(speedup) if speedup is not None else None, "best_roofline": 0.9,
            "best_roofline_floor": "copy",
            "coverage": {"h100": {"filled": sum(len(a) for a in archives),
                                  "cells": archives[0].cells if archives else 1, "qd_score": 0.0}},
            "calls": 0, "tokens": 0, "dollars": 0.0})


def write_run(db: Database, candidates: int, *, descriptors: str = "metadata", progress_every: int = 50,
              batch: int = 1) -> dict[str, Any]:
    """A run of ``candidates`` evaluated candidates; its id and the milliseconds each took to write.

    A progress snapshot is written after every ``progress_every``-th evaluation (the others are held
    back by the once-a-second limit); a real run, whose evaluations come more than a second apart,
    writes one after each: ``progress_every=1``. ``batch`` candidates with their evaluations go in one
    transaction, as a busy driver's loop writes them (RunRecorder.batched); one each by default.
    """
    seed = (GELU / "seed.py").read_text()
    with db.session() as session:
        spec = save_spec(session, read_spec(str(GELU / "spec.py")))
        run_id = create_run(session, spec_id=spec.id, config={"descriptors": descriptors}, owner="synthetic").id
    recorder = RunRecorder(db, run_id)
    state = SearchState(descriptors=descriptor_set(descriptors), tie_tolerance=0.08, operators=["template"])
    write_ms = []
    with recorder.batched():
        for i in range(candidates):
            source = seed.replace("BLOCK_SIZE=1024", f"BLOCK_SIZE={1 << (6 + i % 8)}") + f"\n# candidate {i}\n"
            candidate = Candidate(id=i, source=source, operator="seed" if i < 2 else "template",
                                  parent_ids=[] if i < 2 else [(i * 37) % i], note=f"candidate {i}")
            state.add_candidate(candidate)
            started = time.perf_counter()
            recorder.add_candidate(candidate)
            told: list[Evaluated] = [state.tell(candidate, "h100", gpu_result(i))]
            recorder.add_evaluations(told)
            recorder.progress(snapshot(state, i), force=i % progress_every == 0)
            if i % batch == batch - 1:
                recorder.commit()
            write_ms.append((time.perf_counter() - started) * 1e3)
        recorder.flush()
    return {"run_id": run_id, "write_ms": write_ms, "state": state, "recorder": recorder}
