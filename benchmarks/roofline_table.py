"""The memory-bound suite against its floor, per GPU, composed from recorded searches (`search_examples.py --out`).

Issue 37 asks, for the suite's memory-bound specs (the families below) searched for 3 minutes with no seed
and no LLM on an H100 or H200:
- every best kernel at at least 85% of its floor;
- at least 1.3x geometric mean over `torch.compile` on the specs where `torch.compile` is below 75% of it.

A spec's floor is the larger of its bytes over the bandwidth that applies (a copy's, or a read's where the
kernel mostly reads: the row's `floor` says which; rows from before that field used the copy's) and its
FLOPs over the peak. `torch.compile`'s fraction is the same floor over its time, measured in the same
worker as the best kernel's. Rows are kept as `suite_table.py` keeps them: per (GPU, spec) the last
report's, so list older reports first.

    python benchmarks/roofline_table.py benchmarks/results/suite_search-*-h100.json \\
        --out benchmarks/results/roofline_table-h100.json
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from rich.console import Console
from rich.table import Table
from suite_table import SUITE, family_of, latest_rows

MEMORY_BOUND = ("activation", "loss", "norm", "pooling", "reduction", "scan")
MIN_FRACTION = 0.85  # of the floor, for every best kernel
COMPILE_SLOW = 0.75  # torch.compile below this fraction of the floor: where the algorithm must change
MIN_GEOMEAN_WHERE_SLOW = 1.3


def roofline_rows(rows: dict[str, dict]) -> list[dict]:
    """One GPU's memory-bound specs: the floor that applies, the best kernel's and torch.compile's fraction."""
    out = []
    for spec in SUITE:
        if family_of(spec) not in MEMORY_BOUND:
            continue
        r = rows.get(spec)
        if r is None or not r.get("best_ms") or not r.get("floor_ms"):
            out.append({"spec": spec, "family": family_of(spec), "measured": r is not None})
            continue
        out.append({
            "spec": spec, "family": family_of(spec), "measured": True, "floor": r.get("floor", "copy"),
            "floor_ms": r["floor_ms"], "best_ms": r["best_ms"], "compile_ms": r.get("compile_ms"),
            "best_fraction": r["floor_ms"] / r["best_ms"],
            "compile_fraction": r["floor_ms"] / r["compile_ms"] if r.get("compile_ms") else None,
            "speedup_compile": r.get("speedup_compile"), "report": r["report"],
        })
    return out


def targets(rows: list[dict]) -> dict:
    timed = [r for r in rows if r.get("best_ms")]
    slow = [r for r in timed if r["compile_fraction"] is not None and r["compile_fraction"] < COMPILE_SLOW]
    speedups = [r["speedup_compile"] for r in slow if r.get("speedup_compile")]
    return {
        "memory_bound_specs": len(rows),
        "measured": len(timed),
        "not_measured": [r["spec"] for r in rows if not r.get("best_ms")],
        "below_85_percent": [r["spec"] for r in timed if r["best_fraction"] < MIN_FRACTION],
        "compile_below_75_percent": [r["spec"] for r in slow],
        "geomean_speedup_where_compile_slow": (math.exp(sum(map(math.log, speedups)) / len(speedups))
                                               if speedups else None),
    }


def print_rows(console: Console, hardware: str, rows: list[dict], checked: dict) -> None:
    table = Table(title=f"memory-bound suite on {hardware}: fraction of the floor")
    for col in ("spec", "family", "floor", "floor ms", "best", "torch.compile", "x compile", "report"):
        table.add_column(col, justify="left" if col in ("spec", "family", "floor", "report") else "right")
    for r in rows:
        if not r.get("best_ms"):
            table.add_row(r["spec"], r["family"], "", "", "not measured" if not r["measured"] else "no kernel",
                          "", "", "")
            continue
        compile_fraction = r["compile_fraction"]
        table.add_row(r["spec"], r["family"], r["floor"], f"{r['floor_ms']:.4f}", f"{r['best_fraction']:.0%}",
                      "-" if compile_fraction is None else f"{compile_fraction:.0%}",
                      f"{r['speedup_compile']:.3f}" if r.get("speedup_compile") else "-", r["report"])
    console.print(table)
    g = checked["geomean_speedup_where_compile_slow"]
    console.print(f"measured {checked['measured']} of {checked['memory_bound_specs']}; "
                  f"below {MIN_FRACTION:.0%} of the floor: {', '.join(checked['below_85_percent']) or 'none'}")
    console.print(f"torch.compile below {COMPILE_SLOW:.0%}: {', '.join(checked['compile_below_75_percent']) or 'none'}"
                  f"; geomean x compile there: {'-' if g is None else f'{g:.3f}'} "
                  f"(target {MIN_GEOMEAN_WHERE_SLOW}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=Path, help="search_examples.py reports, oldest first")
    parser.add_argument("--out", type=Path, help="write the rows and the targets per GPU as JSON")
    args = parser.parse_args()
    console = Console(width=160)
    result = {}
    for hardware, rows in sorted(latest_rows(args.reports).items()):
        memory_bound = roofline_rows(rows)
        checked = targets(memory_bound)
        print_rows(console, hardware, memory_bound, checked)
        result[hardware] = {"rows": memory_bound, "targets": checked}
    if args.out:
        args.out.write_text(json.dumps({"reports": [p.name for p in args.reports], "gpus": result}, indent=2))


if __name__ == "__main__":
    main()
