"""What storing a run costs: time and bytes per evaluated candidate, and resuming a run of 10,000 candidates.

A synthetic run is written through the search's own writer (:class:`RunRecorder`): each
candidate a real kernel source (the GELU seed with a changed block size), made, then
evaluated with a full GPU-shaped result (timings, baselines, roofline, compile metadata,
environment, memory), then a progress snapshot, as the loop does. Then the run is resumed
as ``kernelevo run --resume`` does: every record read back (:func:`load_run`) and replayed
into the archive (:func:`replay`, with the stored descriptors). Target: resume under 5 s.

    python benchmarks/storage_cost.py --candidates 10000 [--postgres URL|auto] --out results/storage_cost-cpu.json
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from kernelevo.archive.descriptors import descriptor_set  # noqa: E402
from kernelevo.records.candidate import Candidate, Evaluated  # noqa: E402
from kernelevo.records.result import (  # noqa: E402
    Environment,
    EvalResult,
    KernelMetadata,
    MemoryUse,
    Roofline,
    Stage,
    Timing,
)
from kernelevo.search.state import SearchState, replay  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import Database, open_database  # noqa: E402
from kernelevo.storage.recorder import RunRecorder, load_run  # noqa: E402
from kernelevo.storage.runs import create_run, save_spec  # noqa: E402

GELU = ROOT / "examples" / "gelu"


def timing(ms: float) -> Timing:
    return Timing(median_ms=ms, iqr_ms=ms * 0.01, min_ms=ms * 0.99, mean_ms=ms * 1.001, repetitions=280,
                  method="cuda_events", l2_flushed=True, input_sets=3, host_launch_ms=0.03, bracket_ms=0.0023)


def gpu_result(i: int) -> EvalResult:
    """A result shaped like a real H100 evaluation (every field a judge fills)."""
    ms = 0.35 + (i % 97) / 1000
    env = Environment(device="cuda:0", device_name="NVIDIA H100 80GB HBM3", hardware="h100", compute_capability="9.0",
                      sm_count=132, l2_bytes=52428800, driver="580.159.04", cuda="13.0", torch="2.11.0+cu130",
                      triton="3.6.0", python="3.12.3", hostname="gpu-host")
    return EvalResult(
        correct=i % 5 != 0, stage=Stage.VERDICT, error=None if i % 5 else "wrong_output",
        message="" if i % 5 else "wrong output: output[0] of variant 'odd' (fresh inputs): 12/4593 elements outside",
        variants_checked=["small", "odd", "default"], timed_variant="default", kernel=timing(ms),
        eager=timing(0.357), compiled=timing(0.357), speedup_eager=0.357 / ms, speedup_compile=0.357 / ms,
        roofline=Roofline(bytes_moved=1073741824, flops=0, bandwidth_gbs=3012.0, peak_tflops=494.7, floor_ms=0.3565,
                          fraction=0.3565 / ms),
        kernels=[KernelMetadata(name="gelu_kernel", launches=12, registers=30, spills=0, shared_bytes=0, num_warps=4,
                                num_stages=3)],
        launches=12, environment=env,
        memory=MemoryUse(live_data_bytes=1073741824, judge_peak_bytes=1902116864, child_peak_bytes=2254438400,
                         child_limit_bytes=81675878400, device_bytes=84465090560))


@contextlib.contextmanager
def databases(postgres: str | None) -> Iterator[list[tuple[str, str]]]:
    with tempfile.TemporaryDirectory() as folder:
        found = [("sqlite", f"sqlite:///{folder}/kernelevo.db")]
        if postgres == "auto":
            from postgres_server import postgres_url

            with postgres_url() as url:
                yield [*found, ("postgresql", url)]
            return
        if postgres:
            found.append(("postgresql", postgres))
        yield found


def write_run(db: Database, candidates: int) -> dict[str, Any]:
    seed = (GELU / "seed.py").read_text()
    with db.session() as session:
        spec = save_spec(session, read_spec(str(GELU / "spec.py")))
        run_id = create_run(session, spec_id=spec.id, config={"descriptors": "levels"}, owner="benchmark").id
    recorder = RunRecorder(db, run_id)
    state = SearchState(descriptors=descriptor_set("levels"), tie_tolerance=0.08, operators=["template"])
    write_ms = []
    for i in range(candidates):
        source = seed.replace("BLOCK_SIZE=1024", f"BLOCK_SIZE={1 << (6 + i % 8)}") + f"\n# candidate {i}\n"
        candidate = Candidate(id=i, source=source, operator="seed" if i < 2 else "template",
                              parent_ids=[] if i < 2 else [i % 2], note=f"candidate {i}")
        state.add_candidate(candidate)
        started = time.perf_counter()
        recorder.add_candidate(candidate)
        told: list[Evaluated] = [state.tell(candidate, "h100", gpu_result(i))]
        recorder.add_evaluations(told)
        recorder.progress({"evaluations": i + 1, "correct": state.correct_count()}, force=i % 50 == 0)
        write_ms.append((time.perf_counter() - started) * 1e3)
    return {"run_id": run_id, "write_ms": write_ms}


def measure(name: str, url: str, candidates: int) -> dict[str, Any]:
    db = open_database(url)
    written = write_run(db, candidates)
    ms = written["write_ms"]
    size = os.path.getsize(url.removeprefix("sqlite:///")) if url.startswith("sqlite") else None
    started = time.perf_counter()
    stored = load_run(db, written["run_id"])
    loaded = time.perf_counter() - started
    state = replay(stored, descriptors=descriptor_set("levels"), tie_tolerance=0.08, operators=["template"])
    resumed = time.perf_counter() - started
    assert state.evaluated_count() == candidates
    db.dispose()
    return {"database": name, "candidates": candidates, "write_ms_per_candidate_median": statistics.median(ms),
            "write_ms_per_candidate_p99": sorted(ms)[int(0.99 * len(ms))], "write_ms_max": max(ms),
            "bytes_per_candidate": size / candidates if size else None, "load_s": loaded, "resume_s": resumed,
            "cells": sum(len(a) for a in state.archives.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=10_000)
    parser.add_argument("--postgres", default=None, help="a PostgreSQL URL, or 'auto' to start a throwaway server")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = []
    with databases(args.postgres) as found:
        for name, url in found:
            row = measure(name, url, args.candidates)
            rows.append(row)
            print(f"{name}: {row['candidates']} candidates; write {row['write_ms_per_candidate_median']:.2f} ms "
                  f"(p99 {row['write_ms_per_candidate_p99']:.2f}); "
                  + (f"{row['bytes_per_candidate'] / 1024:.1f} KiB each; " if row["bytes_per_candidate"] else "")
                  + f"resume {row['resume_s']:.2f} s (reading {row['load_s']:.2f} s)")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
            "cpus": os.cpu_count(), "target": "resume of 10,000 candidates under 5 s", "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
