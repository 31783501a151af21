"""Check every spec of the no-seed suite (`benchmarks/suite/`) on this machine, and size its timed variant.

For each spec: its family (`benchmarks/suite/families.json`); its `small` and `odd` variants run through
kernelevo's own spec checker (`check_spec` on the CPU: an isolated child builds the model and the inputs,
runs the reference twice and requires the same outputs); and the `default` variant, the one timed on a
GPU, sized without allocating it: its inputs, outputs and parameters on PyTorch's meta device
(`kernelevo.spec.sizes.live_data`) and the FLOPs of its matmuls, convolutions and attention counted there
(`torch.utils.flop_counter`; on the meta device an LSTM or GRU runs as its matmuls, so they count too, as
they do not on the CPU).
From those it estimates the reference's time on an H100 (FLOPs at 50 TFLOP/s in fp32 or 400 in fp16/bf16,
bytes at 3 TB/s, whichever takes longer) and flags a default that breaks the suite's bounds: at most
4 GiB of inputs, outputs and parameters (the judge holds several copies), at least 4 MiB (not
launch-bound), and an estimated 0.05 to 50 ms.

    python benchmarks/suite_check.py > benchmarks/results/suite_check-cpu.txt
    python benchmarks/suite_check.py benchmarks/suite/conv2d.py benchmarks/suite/lstm.py --no-cpu
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch
from rich.console import Console
from rich.table import Table
from torch.utils.flop_counter import FlopCounterMode

from kernelevo.spec import SpecError, check_spec, read_spec
from kernelevo.spec.loaded import LoadedSpec
from kernelevo.spec.sizes import live_data

ROOT = Path(__file__).resolve().parent.parent
SUITE_DIR = ROOT / "benchmarks" / "suite"
FAMILIES = json.loads((SUITE_DIR / "families.json").read_text())
MIB, GIB = 1 << 20, 1 << 30
MAX_BYTES, MIN_BYTES = 4 * GIB, 4 * MIB
MIN_MS, MAX_MS = 0.05, 50.0
# H100 rates for the estimate: fp32 without tensor cores (cuBLAS's default; cuDNN's TF32 is faster, so an
# fp32 convolution's estimate is an upper bound), fp16/bf16 on tensor cores, HBM3 bandwidth
FLOPS_PER_S = {"float32": 50e12, "float16": 400e12, "bfloat16": 400e12}
BYTES_PER_S = 3e12

log = logging.getLogger(__name__)


@dataclass
class Row:
    spec: str
    family: str
    dtype: str
    default_bytes: int | None = None  # inputs + outputs + parameters of the default variant
    flops: int | None = None  # the default variant's, counted on the meta device
    small: str = "-"
    odd: str = "-"
    small_elements: int | None = None  # the small variant's largest input or output, in elements
    seconds: float = 0.0  # the CPU check's wall time
    error: str = ""

    @property
    def est_ms(self) -> float | None:
        if self.default_bytes is None or self.flops is None:
            return None
        return 1e3 * max(self.flops / FLOPS_PER_S.get(self.dtype, 50e12), self.default_bytes / BYTES_PER_S)

    def flags(self) -> list[str]:
        out = []
        if self.default_bytes is not None and self.default_bytes > MAX_BYTES:
            out.append("over 4 GiB")
        if self.default_bytes is not None and self.default_bytes < MIN_BYTES:
            out.append("under 4 MiB")
        ms = self.est_ms
        if ms is not None and not MIN_MS <= ms <= MAX_MS:
            out.append(f"est. outside {MIN_MS}-{MAX_MS} ms")
        if self.small not in ("ok", "-") or self.odd not in ("ok", "-"):
            out.append("variant failed")
        if self.error:
            out.append(self.error)
        return out


def size_default(problem: LoadedSpec) -> tuple[int | None, int | None]:
    """(bytes of inputs, outputs and parameters, FLOPs) of the default variant, on the meta device."""
    live = live_data(problem, "default", outputs_above=0)
    if live.output_bytes is None:  # the reference has no meta kernel: its size is unknown here
        return None, None
    meta = torch.device("meta")
    model = problem.model("default", 0, meta)
    inputs = problem.inputs("default", 0, meta)
    counter = FlopCounterMode(display=False)
    with counter:
        problem.forward(model, "default", inputs)
    return live.total_bytes, counter.get_total_flops()


def check(path: Path, *, cpu: bool) -> Row:
    spec = read_spec(str(path))
    row = Row(spec=spec.name, family=FAMILIES.get(spec.name, "?"), dtype=spec.settings.dtype or "float32")
    try:
        row.default_bytes, row.flops = size_default(LoadedSpec(spec))
    except SpecError as exc:
        row.error = f"default: {exc}"
    if cpu:
        start = time.perf_counter()
        for variant in ("small", "odd"):
            try:
                report = check_spec(spec, device="cpu", variants=[variant])
                setattr(row, variant, "ok")
                if variant == "small":
                    info = report.variant(variant)
                    row.small_elements = max(math.prod(t.shape) for t in (*info.inputs, *info.outputs))
            except SpecError as exc:
                setattr(row, variant, "FAIL")
                row.error = f"{variant}: {exc}"
        row.seconds = time.perf_counter() - start
    return row


def print_table(console: Console, rows: list[Row]) -> None:
    table = Table(title=f"the no-seed suite: {len(rows)} specs, their CPU variants checked, their default sized")
    for col in ("spec", "family", "dtype", "default MiB", "GFLOP", "est. H100 ms", "small", "small elems", "odd",
                "check s", "flags"):
        table.add_column(col, justify="left" if col in ("spec", "family", "flags") else "right")
    for r in sorted(rows, key=lambda r: (r.family, r.spec)):
        ms = r.est_ms
        table.add_row(r.spec, r.family, r.dtype,
                      "?" if r.default_bytes is None else f"{r.default_bytes / MIB:.0f}",
                      "?" if r.flops is None else f"{r.flops / 1e9:.1f}",
                      "?" if ms is None else f"{ms:.3f}", r.small,
                      "-" if r.small_elements is None else str(r.small_elements), r.odd, f"{r.seconds:.1f}",
                      "; ".join(r.flags()) or "")
    console.print(table)
    by_family: dict[str, int] = {}
    for r in rows:
        by_family[r.family] = by_family.get(r.family, 0) + 1
    console.print("specs by family: " + ", ".join(f"{f} {n}" for f, n in sorted(by_family.items())))
    flagged = [r.spec for r in rows if r.flags()]
    console.print(f"flagged: {', '.join(flagged) or 'none'}")
    sized = [r for r in rows if r.default_bytes is not None]
    if sized:
        console.print(f"default variants: {min(r.default_bytes for r in sized) / MIB:.0f} MiB to "
                      f"{max(r.default_bytes for r in sized) / GIB:.2f} GiB; estimated reference time "
                      f"{min(r.est_ms or math.inf for r in sized):.3f} to {max(r.est_ms or 0 for r in sized):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", type=Path, help="spec files (default: benchmarks/suite/*.py)")
    parser.add_argument("--no-cpu", action="store_true", help="size the default variants only; do not run the "
                        "small and odd variants in the spec checker")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    paths = args.specs or sorted(SUITE_DIR.glob("*.py"))
    missing = sorted(p.stem for p in paths if p.stem not in FAMILIES)
    if missing:
        log.warning("no family in families.json for: %s", ", ".join(missing))
    rows = []
    for path in paths:
        rows.append(check(path, cpu=not args.no_cpu))
        log.info("%s: %s", path.stem, "; ".join(rows[-1].flags()) or "ok")
    print_table(Console(width=200), rows)
    if any(r.small == "FAIL" or r.odd == "FAIL" or r.error for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
