"""Every CUDA adversarial case and control on a GPU, each in its own evaluator: the verdicts, fast.

The pytest suite (``pytest -m gpu tests/evaluation/adversarial -k cuda``) judges the same
cases one after another, and each load_inline case builds a fresh extension (about a
minute of nvcc). This script runs them ``--jobs`` at a time, prints one line per case
(PASS when the verdict is the expected one) and, for a control or a failure, the message,
the kernels the GPU ran and the builds.

Several judges on one GPU share it: a timing-stage verdict (timer_mismatch,
below_physical_floor) under ``--jobs`` > 1 can be the neighbours' doing. Re-run such a
case with ``--jobs 1`` before calling it a bug.

    python benchmarks/cuda_cases.py --jobs 6 | tee benchmarks/results/cuda_cases-h100.log
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from cuda_kernels import CUPY, LOAD_INLINE  # noqa: E402

from kernelevo.evaluation import ErrorKind, Evaluator  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from tests.evaluation.adversarial.cases import CASES, CONTROLS, CUDA_GELU_SPEC, options  # noqa: E402

Task = tuple[str, str, tuple[bool, bool], Path, ErrorKind | None]


def tasks(only: list[str], slow: bool) -> list[Task]:
    found: list[Task] = [(f"control {c.name}", c.source(), (True, True), c.spec, None) for c in CONTROLS if c.gpu_only]
    found += [("CUPY", CUPY, (True, True), CUDA_GELU_SPEC, None), ("LOAD_INLINE", LOAD_INLINE, (True, True),
                                                                    CUDA_GELU_SPEC, None)]
    found += [(c.name, c.source(), c.checks, c.spec, c.expected) for c in CASES
              if c.name.startswith("cuda") and c.gpu_only and (slow or not c.slow)]
    return [t for t in found if not only or any(o in t[0] for o in only)]


def judge(name: str, source: str, checks: tuple[bool, bool], spec: Path, expected: ErrorKind | None) -> str:
    started = time.monotonic()
    evaluator = Evaluator(read_spec(str(spec)), options(*checks, spec))
    try:
        result = evaluator.evaluate(source)
        again = evaluator.evaluate(source) if name == "LOAD_INLINE" else None  # the extension cache
    finally:
        evaluator.close()
    ok = (result.correct and result.error is None) if expected is None else result.error == expected
    line = (f"{'PASS' if ok else 'FAIL'} {name} [{time.monotonic() - started:.1f}s] "
            f"expected={expected.value if expected else 'accepted'} got={result.error} stage={result.stage}")
    if again is not None:
        line += f" | again: ok={again.ok} cached={[b.cached for b in again.cuda]} s={[b.compile_s for b in again.cuda]}"
    if not ok or expected is None:
        builds = [(b.form, b.ahead_of_time, bool(b.ptx), bool(b.sass), b.cached, b.compile_s) for b in result.cuda]
        line += "\n   message: " + (result.message or "")[:1200].replace("\n", "\n   ")
        line += (f"\n   speedup over eager {result.speedup_eager}; kernels (name, registers, spills, shared B, "
                 f"launches) {[(k.name, k.registers, k.spills, k.shared_bytes, k.launches) for k in result.kernels]}"
                 f"\n   builds (form, ahead of time, PTX, SASS, cached, s) "
                 f"{builds}")
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="evaluators at once (each its own judge)")
    parser.add_argument("--only", default="", help="comma-separated parts of case names")
    parser.add_argument("--slow", action="store_true", help="also the cases that wait for a time limit (a hang)")
    args = parser.parse_args()
    chosen = tasks([o for o in args.only.split(",") if o], args.slow)
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(judge, *t) for t in chosen]
        lines = []
        for future in as_completed(futures):
            lines.append(future.result())
            print(lines[-1], flush=True)
    print(f"{sum(x.startswith('PASS') for x in lines)} of {len(lines)} as expected")


if __name__ == "__main__":
    main()
