"""The no-seed suite's standing per GPU, composed from recorded searches (`search_examples.py --out`).

Issue 13 asks for every spec of `benchmarks/suite/` searched for 3 minutes with no seed and no LLM, and
allows the runs to be spread over several sessions. This reads the reports those runs wrote, keeps for
each (GPU, spec) the row of the last report given that has it (so list older reports first), and checks
each GPU's rows against the targets: a correct kernel on every spec, at least 1.0x `torch.compile` on
every spec, a geometric mean of at least 1.1x, and at least 4 archive cells on every spec. A spec with
no row on a GPU is listed as missing there, never filled in from another GPU. The standing is also given
per family of op (`benchmarks/suite/families.json`: gemm, conv, pooling, norm, ...): its specs, those
measured, those with a correct kernel, those at 1.0x `torch.compile` or better, their geometric mean
over `torch.compile`, and, where the rows carry it (`seeding_s`, absent from older reports), the median
and the longest time seeding took.

    python benchmarks/suite_table.py benchmarks/results/suite_search-fast-tanh-h100.json \\
        benchmarks/results/suite_search-rerun-a-h100.json benchmarks/results/suite_search-rerun-b-h100.json
    # the next two specs to search on an H100:
    python benchmarks/search_examples.py --seed-from compile --minutes 3 \\
        --specs "$(python benchmarks/suite_table.py --missing h100 --take 2 benchmarks/results/suite_search-*h100.json)"
    # the specs that miss a target on an H200 (or were never searched there), to search again; the
    # reports oldest first, as results/suite_table.json lists them (a glob sorts them by name):
    cd benchmarks/results && python ../suite_table.py --failing h200 suite_search-h200.json \\
        suite_search-structures-h200.json suite_search-2pct-h200.json suite_search-autotune-h200.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
SUITE_DIR = ROOT / "benchmarks" / "suite"
SUITE = sorted(p.stem for p in SUITE_DIR.glob("*.py"))
# spec -> family of op; a spec the file does not name is counted under "other"
FAMILIES: dict[str, str] = json.loads((SUITE_DIR / "families.json").read_text())
MIN_SPEEDUP, MIN_GEOMEAN, MIN_CELLS = 1.0, 1.1, 4


def family_of(spec: str) -> str:
    return FAMILIES.get(spec, "other")


def latest_rows(reports: list[Path]) -> dict[str, dict[str, dict]]:
    """{hardware: {spec: row}}, a later report's row replacing an earlier one's; each row names its report."""
    rows: dict[str, dict[str, dict]] = {}
    for path in reports:
        document = json.loads(path.read_text())
        if not isinstance(document, dict) or "examples" not in document:  # e.g. a --steady-from list
            print(f"{path.name}: not a search_examples.py report, left out", file=sys.stderr)
            continue
        # a search that judged no kernel on the GPU records no hardware: it ran where the report's others did
        known = [r["hardware"] for r in document["examples"] if r.get("hardware")]
        fallback = max(set(known), key=known.count) if known else "unknown"
        for row in document["examples"]:
            if row["example"] not in SUITE:  # an example's search, not the suite's
                continue
            kept = {**row, "report": path.name, "date": document.get("date")}
            rows.setdefault(row.get("hardware") or fallback, {})[row["example"]] = kept
    return rows


def standing(rows: dict[str, dict]) -> dict:
    """The targets, checked on one GPU's rows: what is met, and the specs that miss each."""
    speedups = {spec: r.get("speedup_compile") for spec, r in rows.items()}
    measured = [s for s in speedups.values() if s]
    return {
        "missing": [spec for spec in SUITE if spec not in rows],
        "no_correct_kernel": [spec for spec, r in rows.items() if not r.get("best_ms")],
        # a correct kernel, but torch.compile's time failed: no speedup, and left out of the mean
        "no_compile_time": [spec for spec, r in rows.items() if r.get("best_ms") and not speedups[spec]],
        "below_1x": [spec for spec, s in speedups.items() if s and s < MIN_SPEEDUP],
        # of those, the ones whose shortfall is within the best kernel's own timing spread (its IQR over its
        # median): a tie, typically the same library call as torch.compile's; still counted in below_1x
        "below_1x_within_noise": [spec for spec, s in speedups.items() if s and s < MIN_SPEEDUP
                                  and 1 - s <= _spread(rows[spec])],
        "below_4_cells": [spec for spec, r in rows.items() if r.get("cells_filled", 0) < MIN_CELLS],
        "geomean_speedup_compile": math.prod(measured) ** (1 / len(measured)) if measured else None,
        "geomean_over": len(measured),
    }


def _spread(row: dict) -> float:
    """The best kernel's interquartile range over its median time (0 where the report has none)."""
    best, iqr = row.get("best_ms"), row.get("best_iqr_ms")
    return iqr / best if best and iqr else 0.0


def geomean(values: list[float]) -> float | None:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def summary(specs: list[str], rows: dict[str, dict]) -> dict:
    """One family's (or the whole suite's) numbers on one GPU: ``specs`` are the family's, ``rows`` the GPU's."""
    measured = [rows[s] for s in specs if s in rows]
    speedups = [r["speedup_compile"] for r in measured if r.get("best_ms") and r.get("speedup_compile")]
    seeding = sorted(r["seeding_s"] for r in measured if r.get("seeding_s") is not None)
    return {
        "specs": len(specs),
        "measured": len(measured),
        "correct": sum(1 for r in measured if r.get("best_ms")),
        "at_least_1x": sum(1 for x in speedups if x >= MIN_SPEEDUP),
        "geomean_speedup_compile": geomean(speedups),
        "geomean_over": len(speedups),
        # the rows' seeding_s (seconds the search spent on its seeds); None where no row carries it
        "seeding_median_s": statistics.median(seeding) if seeding else None,
        "seeding_max_s": seeding[-1] if seeding else None,
    }


def by_family(rows: dict[str, dict]) -> dict[str, dict]:
    """{family: summary} over every family of the suite, then "overall" over all its specs."""
    families: dict[str, list[str]] = {}
    for spec in SUITE:
        families.setdefault(family_of(spec), []).append(spec)
    out = {family: summary(specs, rows) for family, specs in sorted(families.items())}
    out["overall"] = summary(SUITE, rows)
    return out


def print_families(console: Console, hardware: str, families: dict[str, dict]) -> None:
    table = Table(title=f"no-seed suite on {hardware}, by family of op")
    for col in ("family", "specs", "measured", "correct", f">= {MIN_SPEEDUP}x compile", "geomean x compile",
                "seeding s (median / max)"):
        table.add_column(col, justify="left" if col == "family" else "right")
    for family, f in families.items():
        g = f["geomean_speedup_compile"]
        seeding = ("-" if f["seeding_median_s"] is None
                   else f"{f['seeding_median_s']:.1f} / {f['seeding_max_s']:.1f}")
        table.add_row(family, str(f["specs"]), str(f["measured"]), str(f["correct"]), str(f["at_least_1x"]),
                      "-" if g is None else f"{g:.3f} (of {f['geomean_over']})", seeding,
                      end_section=family == list(families)[-2])
    console.print(table)


def print_table(console: Console, hardware: str, rows: dict[str, dict], checked: dict) -> None:
    table = Table(title=f"no-seed suite on {hardware}: the latest search of each spec")
    columns = ("spec", "family", "evals (correct)", "cells", "QD", "best ms", "compile ms", "x compile", "steady /min",
               "report")
    for col in columns:
        table.add_column(col, justify="right")
    for spec in SUITE:
        r = rows.get(spec)
        if r is None:
            table.add_row(spec, family_of(spec), "not measured", *[""] * 7)
            continue
        x = r.get("speedup_compile")
        table.add_row(spec, family_of(spec), f"{r['evaluations']} ({r['correct']})", str(r.get("cells_filled", 0)),
                      f"{r.get('qd_score', 0):.1f}", f"{r['best_ms']:.4f}" if r.get("best_ms") else "-",
                      f"{r['compile_ms']:.4f}" if r.get("compile_ms") else "-", f"{x:.3f}" if x else "-",
                      f"{r['steady_evals_per_min']:.1f}" if r.get("steady_evals_per_min") else "-", r["report"])
    console.print(table)
    geomean = checked["geomean_speedup_compile"]
    console.print(f"geometric mean over {checked['geomean_over']} specs: "
                  f"{'-' if geomean is None else f'{geomean:.3f}x'} (target {MIN_GEOMEAN}x over all {len(SUITE)})")
    for key, label in (("missing", "not measured"), ("no_correct_kernel", "no correct kernel"),
                       ("no_compile_time", "no torch.compile time"),
                       ("below_1x", f"below {MIN_SPEEDUP}x"),
                       ("below_1x_within_noise", f"of those, within the best kernel's IQR of {MIN_SPEEDUP}x"),
                       ("below_4_cells", f"under {MIN_CELLS} cells")):
        console.print(f"{label}: {', '.join(checked[key]) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=Path, help="search_examples.py reports, oldest first")
    parser.add_argument("--out", type=Path, help="write the composed rows and the standing as JSON")
    parser.add_argument("--missing", metavar="GPU", help="only print the specs not measured on GPU (h100, h200), "
                        "as search_examples.py --specs takes them")
    parser.add_argument("--failing", metavar="GPU", help="only print the specs that miss a target on GPU or were "
                        "not measured there, as search_examples.py --specs takes them")
    parser.add_argument("--take", type=int, default=None, help="with --missing or --failing: at most this many")
    parser.add_argument("--family", help="with --missing or --failing: only specs of these families (comma-separated, "
                        "as benchmarks/suite/families.json names them: gemm, conv, ...)")
    args = parser.parse_args()
    if args.missing or args.failing:
        checked = standing(latest_rows(args.reports).get(args.missing or args.failing, {}))
        keys = ("missing",) if args.missing else ("missing", "no_correct_kernel", "no_compile_time", "below_1x",
                                                          "below_4_cells")
        wanted = set(args.family.split(",")) if args.family else None
        if wanted and wanted - set(FAMILIES.values()):
            parser.error(f"--family: no family {', '.join(sorted(wanted - set(FAMILIES.values())))} "
                         f"(the suite's: {', '.join(sorted(set(FAMILIES.values())))})")
        chosen = [spec for spec in SUITE if any(spec in checked[key] for key in keys)
                  and (wanted is None or family_of(spec) in wanted)][:args.take]
        print(",".join(f"benchmarks/suite/{spec}.py" for spec in chosen))
        return
    console = Console(width=160)
    composed = {}
    for hardware, rows in sorted(latest_rows(args.reports).items()):
        checked = standing(rows)
        families = by_family(rows)
        print_table(console, hardware, rows, checked)
        print_families(console, hardware, families)
        keep = ("example", "report", "date", "evaluations", "correct", "cells_filled", "qd_score", "best_ms",
                "compile_ms", "speedup_compile", "steady_evals_per_min", "seeding_s")
        composed[hardware] = {"rows": [{"family": family_of(s), **{k: rows[s].get(k) for k in keep}}
                                       for s in SUITE if s in rows],
                              **checked, "families": families}
    if args.out:
        args.out.write_text(json.dumps({"reports": [p.name for p in args.reports], "by_hardware": composed}, indent=2))


if __name__ == "__main__":
    main()
