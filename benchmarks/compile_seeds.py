"""Seeds from torch.compile on a GPU: capture what inductor writes for each spec, convert it, judge it.

Per spec (by default the no-seed suite, benchmarks/suite/): inductor's module and launch
facts are captured in an isolated child (kernelevo.variation.seeding.inductor_capture) and written
to ``--captures`` as JSON (the CPU tests keep a few under tests/variation/inductor_captures/);
then, with ``--judge``, the converted candidate is judged against eager and torch.compile
in one evaluator. A spec with no seed gets its reason.

With ``--structures``, every seed a run makes is judged, inductor's structural options
included (``kernelevo.variation.seeding.compile_seeds.STRUCTURES``): per seed its verdict, its time
against torch.compile and its archive cell (the default descriptors), per structure that made
no seed the reason.

    python benchmarks/compile_seeds.py --captures $OUT/captures --judge --out benchmarks/results/compile_seeds-h200.json
    python benchmarks/compile_seeds.py --captures $OUT/captures --structures \
        --out benchmarks/results/compile_structures-h200.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.variation.seeding.compile_seeds import capture_for_seed  # noqa: E402
from kernelevo.variation.seeding.inductor_capture import CaptureError  # noqa: E402


def captured(path: Path, captures: Path) -> dict:
    """Capture ``path``'s spec as a run does (``capture_for_seed``); the row, with the captures."""
    spec = read_spec(str(path))
    row: dict = {"spec": spec.name}
    started = time.perf_counter()
    try:
        generic, by_sizes = capture_for_seed(spec)
    except CaptureError as exc:
        return row | {"capture_s": time.perf_counter() - started, "reason": str(exc)}
    row["capture_s"] = time.perf_counter() - started
    (captures / f"{spec.name}.json").write_text(generic.to_json())
    for c in by_sizes:
        (captures / f"{spec.name}.{c.variant}.static.json").write_text(c.to_json())
    row["specialized"] = generic.fixed_sizes
    row["kernels"] = {k: {"config": v.config, "num_warps": v.num_warps, "num_stages": v.num_stages}
                      for c in (generic, *by_sizes) for k, v in c.kernels.items()}
    return row | {"_captures": (generic, by_sizes), "_path": path}


def judged(row: dict, captures: Path) -> dict:
    """Convert the capture and judge the candidate against eager and torch.compile in one evaluator."""
    from kernelevo.evaluation import EvalOptions, Evaluator
    from kernelevo.variation.seeding.inductor_seed import ConversionError, to_candidate

    (generic, by_sizes), path = row.pop("_captures"), row.pop("_path")
    try:
        source = to_candidate(generic, by_sizes)
    except ConversionError as exc:
        return row | {"reason": f"conversion: {exc}"}
    (captures / f"{generic.spec_name}.seed.py").write_text(source)
    evaluator = Evaluator(read_spec(str(path)), EvalOptions(baselines=["eager", "compile"]))
    try:
        result = evaluator.evaluate(source)
    finally:
        evaluator.close()
    return row | {"correct": result.correct, "error": str(result.error) if result.error else None,
                  "message": (result.message or "")[:600],
                  "kernel_ms": result.kernel.median_ms if result.kernel else None,
                  "compile_ms": result.compiled.median_ms if result.compiled else None,
                  "roofline": result.roofline.fraction if result.roofline else None,
                  "speedup_eager": result.speedup_eager, "speedup_compile": result.speedup_compile}


def structures(path: Path, captures: Path, only: list[str] | None = None, judge: bool = True) -> dict:
    """Every seed a run makes for ``path``'s spec (the captures' wall times: seeding's), judged in one
    evaluator (unless not ``judge``), with its archive cell."""
    from kernelevo.archive.descriptors import descriptor_set
    from kernelevo.evaluation import EvalOptions, Evaluator
    from kernelevo.variation.seeding.compile_seeds import inductor_seeds
    from kernelevo.variation.seeding.inductor_seed import ConversionError

    spec = read_spec(str(path))
    row: dict = {"spec": spec.name}
    started = time.perf_counter()
    try:
        found = inductor_seeds(spec, structures=only)
    except (CaptureError, ConversionError) as exc:
        return row | {"capture_s": time.perf_counter() - started, "reason": str(exc)}
    row |= {"capture_s": time.perf_counter() - started, "capture_parts_s": found.seconds, "skipped": found.skipped,
            "seed_names": [n for n, _ in found.seeds]}
    for name, capture in found.captures.items():
        (captures / f"{spec.name}.{name}.json").write_text(capture.to_json())
    generic, *by_sizes = found.default
    (captures / f"{spec.name}.json").write_text(generic.to_json())
    for c in by_sizes:
        (captures / f"{spec.name}.{c.variant}.static.json").write_text(c.to_json())
    if not judge:
        for name, source in found.seeds:
            (captures / f"{name}.py").write_text(source)
        return row
    grid = descriptor_set("levels")
    evaluator = Evaluator(spec, EvalOptions(baselines=["eager", "compile"]))
    seeds = {}
    try:
        for name, source in found.seeds:
            (captures / f"{name}.py").write_text(source)
            result = evaluator.evaluate(source)
            seeds[name] = {
                "correct": result.correct, "error": str(result.error) if result.error else None,
                "message": (result.message or "")[:400],
                "kernel_ms": result.kernel.median_ms if result.kernel else None,
                "compile_ms": result.compiled.median_ms if result.compiled else None,
                "speedup_compile": result.speedup_compile,
                "cell": [int(d(source, result)) for d in grid]}
    finally:
        evaluator.close()
    cells = {tuple(s["cell"]) for s in seeds.values() if s["correct"]}
    return row | {"seeds": seeds, "cells": len(cells)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", help="spec files (default: benchmarks/suite/*.py)")
    parser.add_argument("--captures", type=Path, required=True, help="folder for the captures (JSON)")
    parser.add_argument("--judge", action="store_true", help="convert each capture and judge the candidate")
    parser.add_argument("--structures", action="store_true",
                        help="make and judge every seed a run makes, inductor's structural options included")
    parser.add_argument("--only", help="with --structures: these structures (comma-separated; '' for none), not all")
    parser.add_argument("--no-judge", action="store_true", help="with --structures: make the seeds, judge none")
    parser.add_argument("--jobs", type=int, default=1, help="captures at once")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    args.captures.mkdir(parents=True, exist_ok=True)
    paths = [Path(p) for p in args.specs] or sorted((ROOT / "benchmarks" / "suite").glob("*.py"))
    if args.structures:
        only = [n for n in args.only.split(",") if n] if args.only is not None else None
        rows = []

        def one(path: Path) -> dict:
            try:
                return structures(path, args.captures, only, judge=not args.no_judge)
            except Exception as exc:  # one spec's failure is a row, not the end of the benchmark
                return {"spec": path.stem, "reason": f"{type(exc).__name__}: {exc}"}

        # specs side by side (--jobs): for collecting captures; time seeding with --jobs 1
        with ThreadPoolExecutor(args.jobs) as pool:
            for row in pool.map(one, paths):
                rows.append(row)
                print(json.dumps(row), flush=True)
                if args.out:  # after each spec: a run cut short keeps what it measured
                    args.out.write_text(json.dumps({"date": dt.datetime.now(dt.UTC).isoformat(), "rows": rows},
                                                   indent=1))
        return
    def safely(path: Path) -> dict:
        try:
            row = captured(path, args.captures)
        except Exception as exc:  # one spec's failure is a row, not the end of the benchmark
            row = {"spec": path.stem, "reason": f"{type(exc).__name__}: {exc}"}
        print(json.dumps({k: v for k, v in row.items() if not k.startswith("_")}), flush=True)
        return row

    with ThreadPoolExecutor(args.jobs) as pool:  # captures at once; judges one at a time, alone on the GPU
        rows = list(pool.map(safely, paths))
    rows = [judged(r, args.captures) if args.judge and "_captures" in r else
            {k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    if args.out:
        args.out.write_text(json.dumps({"date": dt.datetime.now(dt.UTC).isoformat(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
