"""How long compiling a candidate's kernels ahead takes on this host's CPU, by compile threads.

For each example seed, a :class:`~kernelevo.evaluation.child.precompile.Precompiler` child (CUDA
hidden, compiling for sm_90 as it does beside an H200) compiles the seed's kernels for every
variant into a fresh Triton cache, ``--reps`` times per thread count, each time in a fresh
child as in a search; the median wall time is reported. Triton 3.6 also builds each
kernel's C launcher with the host compiler here.

    python benchmarks/precompile_threads.py --threads 1,2,3 --out benchmarks/results/precompile_threads-h200.json

With ``--side-by-side 4x3,6x2`` it measures what one GPU's evaluator does instead: that many
precompilers at once (4 with 3 threads each, then 6 with 2), each compiling ``--reps`` fresh
copies of the seed one after the other, and reports candidates compiled a minute: the most a
search can judge when the CPU's compiling, not the GPU, is what it waits for.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.evaluation.child.precompile import PrecompileRequest, PrecompileSetup  # noqa: E402
from kernelevo.evaluation.common.protocol import GpuTarget  # noqa: E402
from kernelevo.evaluation.judge.child_pool import ChildPool  # noqa: E402
from kernelevo.isolation.sandbox import Limits, Sandbox  # noqa: E402
from kernelevo.spec import Spec, read_spec  # noqa: E402
from kernelevo.utils.devices import cores_per_gpu  # noqa: E402

HIDDEN_CUDA = {"CUDA_VISIBLE_DEVICES": "", "TRITON_INTERPRET": "0", "OMP_NUM_THREADS": "1"}


def last_seed(example: str) -> tuple[Spec, str]:
    """The example's spec and last seed: the online softmax, the autotuned matmul."""
    spec = read_spec(str(ROOT / "examples" / example / "spec.py"))
    return spec, spec.seed_sources()[-1][1]


def measure(example: str, threads: int, reps: int) -> dict[str, object]:
    """Each rep in a fresh precompiler, as each candidate gets one (its start is not timed)."""
    spec, source = last_seed(example)
    times, kernels = [], 0
    for _ in range(reps):
        box = Sandbox("kernelevo.evaluation.child.precompile:Precompiler",
                      PrecompileSetup(spec, threads=threads), env=HIDDEN_CUDA, name="precompile")
        box.start()
        try:
            box.wait_ready(180)
            with tempfile.TemporaryDirectory() as cache:
                started = time.perf_counter()
                reply = box.call(PrecompileRequest(source, spec.correctness_variants(gpu=True), cache, GpuTarget()),
                                 {"*": 300})
                times.append(time.perf_counter() - started)
        finally:
            box.kill()
        if reply.error:
            raise RuntimeError(f"{example}: {reply.error}")
        kernels = len(reply.kernels)
    return {"example": example, "threads": threads, "kernels": kernels, "median_s": statistics.median(times),
            "times_s": times}


def side_by_side(example: str, boxes: int, threads: int, reps: int) -> dict[str, object]:
    """``boxes`` precompilers at once, each compiling ``reps`` candidates, from a pool as the evaluator's."""
    spec, source = last_seed(example)
    variants = spec.correctness_variants(gpu=True)
    pool = ChildPool("kernelevo.evaluation.child.precompile:Precompiler", PrecompileSetup(spec, threads=threads),
                     env=HIDDEN_CUDA, spare=boxes, limits=Limits(16 * 2**30), name="precompile", fork=True)
    pool.take()[0].kill()  # waits for the fork server: it and the first children are started before the clock
    pool.fill()
    for box in pool.ready:
        box.wait_ready(180)
    each: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def compile_in_turn() -> None:
        for _ in range(reps):
            with lock:
                box, _ = pool.take()
            try:
                with tempfile.TemporaryDirectory() as cache:
                    started = time.perf_counter()
                    reply = box.call(PrecompileRequest(source, variants, cache, GpuTarget()), {"*": 300})
                    with lock:
                        each.append(time.perf_counter() - started)
                        if reply.error:
                            errors.append(reply.error)
            finally:
                box.kill()

    started = time.perf_counter()
    workers = [threading.Thread(target=compile_in_turn) for _ in range(boxes)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    pool.close()
    wall = time.perf_counter() - started
    if errors:
        raise RuntimeError(f"{example}: {errors[0]}")
    return {"example": example, "boxes": boxes, "threads": threads, "candidates": len(each), "wall_s": wall,
            "per_min": len(each) / wall * 60, "median_s": statistics.median(each)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", default="gelu,softmax,matmul_epilogue")
    parser.add_argument("--threads", default="1,2,3")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--side-by-side", default=None, help="BOXESxTHREADS,...: precompilers at once")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    import triton

    rows = []
    for example in args.examples.split(","):
        for setting in (args.side_by_side or args.threads).split(","):
            if args.side_by_side:
                row = side_by_side(example, *map(int, setting.split("x")), args.reps)
                shown = (f"{row['boxes']} x {row['threads']} threads  {row['candidates']} in {row['wall_s']:.1f} s  "
                         f"{row['per_min']:.1f}/min  median {row['median_s']:.2f} s")
            else:
                row = measure(example, int(setting), args.reps)
                shown = f"threads {row['threads']}  kernels {row['kernels']:>2}  median {row['median_s']:.2f} s"
            rows.append(row)
            print(f"{example:>16}  {shown}", flush=True)  # as it comes: a run cut short still says what it measured
    report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "host": platform.node(),
              "cores_per_gpu": cores_per_gpu(), "triton": triton.__version__, "rows": rows}
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
