"""How many evaluators one driver keeps busy: 8 to 512 simulated evaluators, one search loop.

Each simulated evaluator answers after ``--delay`` seconds (1 s: 60 evaluations a minute,
the throughput target per GPU) with a made-up correct result, its descriptors made up with
it by default (``--measures``); everything else is the real driver: selection, the template
operator, the pyribs archive, the run store (SQLite, group commits) and progress snapshots.
Reported per count: results a second against the ideal (evaluators / delay), and the busy
fraction (time evaluators spent evaluating / evaluators x wall time), both in the steady
state: from two delays after the first evaluation started (the seeds' round) to the last
start (before the budget drains). At the largest count the driver is profiled, and its CPU
time is split by where it went.

With ``--islands 1,2,4,8`` each count is measured with each number of islands: one island is the
search in one process (the driver runs the operators); more are island actors on a local Ray
(:mod:`kernelevo.distributed.island`), one CPU each by Ray's count (``ray.init(num_cpus=...)`` gives
the machine as many logical CPUs as islands need, whatever its cores), which make the candidates
while the driver numbers, evaluates (the simulated pool, in the driver's process) and tells. Each run's CPU a
result is split into making candidates (the template operator's draws, timed where they ran) and the rest, and
each run with islands is set against the one-island run at its count: the most its CPU a result allows on the
cores it may use, and how much the split may add for issue 38's 1.6x (``split_bounds``).

    python benchmarks/driver_ceiling.py --out benchmarks/results/driver_ceiling-cpu.json
    python benchmarks/driver_ceiling.py --measures process --out benchmarks/results/driver_ceiling-process-cpu.json
    python benchmarks/driver_ceiling.py --counts 512,1024,2048 --islands 1,2,4,8 --no-profile \
        --out benchmarks/results/driver_ceiling-cpu2.json
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import datetime as dt
import json
import logging
import os
import platform
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from kernelevo.archive.descriptors import descriptor_set  # noqa: E402
from kernelevo.distributed.simulated import SimulatedPool  # noqa: E402
from kernelevo.driver import start_search  # noqa: E402
from kernelevo.evaluation import EvalOptions  # noqa: E402
from kernelevo.records.run_config import Budget, RunConfig  # noqa: E402
from kernelevo.spec import read_spec  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402

# Where a driver's CPU time goes, by the module of the function that spent it (cumulative
# time of the outermost call into each area; areas nest: "search state" holds the archive and
# the descriptors). Under cProfile every figure is inflated several times; compare them, not add.
AREAS = {
    "selection": ("kernelevo/search/selection.py",),
    "template operator": ("kernelevo/variation/moves/template.py", "kernelevo/variation/source/"),
    "archive (pyribs)": ("kernelevo/archive/elites.py", "ribs/"),
    "descriptors": ("kernelevo/archive/descriptors.py",),
    "store (SQLAlchemy, SQLite)": ("kernelevo/storage/", "sqlalchemy/"),
    "progress snapshots": ("kernelevo/search/progress.py",),
    "search state": ("kernelevo/search/state.py",),
    "island actors (asks, tells)": ("kernelevo/distributed/island.py",),
    "ray (client)": ("ray/_private", "ray/actor.py", "ray/_raylet"),
}


def measure(evaluators: int, delay: float, rounds: int, profile: bool, measures: str,
            islands: int = 1) -> dict[str, Any]:
    # the matmul seeds expose many tunables: the template operator does not run out of new kernels
    spec = read_spec(str(ROOT / "examples" / "matmul_epilogue" / "spec.py"))
    # one island: the search in one process; more: island actors on Ray (the simulated pool stays in-process)
    config = RunConfig(budget=Budget(evaluations=evaluators * rounds), workers=evaluators, ray=islands > 1,
                       islands=islands, evaluation=EvalOptions(device="cpu"))
    # Where each result's descriptors come from. "made-up": with the result, as recorded results from real
    # evaluators would bring them (the default: the driver's work alone); "process": measured for real in
    # one process beside the driver, which stands in for the evaluators' hosts and shares this machine's
    # cores with it; "driver": the driver parses every source itself, as before evaluators measured them.
    names = None if measures == "driver" else [d.name for d in descriptor_set(config.descriptors)]
    pool = SimulatedPool(evaluators, delay, descriptors=names, made_up_measures=measures == "made-up")
    profiler = cProfile.Profile() if profile else None
    # (time.monotonic(), the driver's CPU s, the islands' CPU s, the store's writer process's CPU s, Ray's own
    # processes' CPU s, the instant operators' draws and their CPU s, wherever they ran)
    samples: list[tuple[float, float, float, float, float, int, float]] = []
    queues: list[tuple[float, int, int]] = []  # (time.monotonic(), candidates ready, candidates in flight)

    def on_start(loop: Any) -> None:
        async def sample() -> None:  # CPU time of the driver, its island actors (same host) and its store writer
            daemons: list[int] | None = None  # with islands: Ray's own processes here (raylet, GCS, agents)
            while True:
                placed = loop.islands.placed if loop.islands is not None else []
                writer = getattr(loop.store, "process", None)  # (a version without a writer process: none)
                if placed and daemons is None:  # (listed once: reading every process's stat costs the driver)
                    daemons = descendants(os.getpid()) - {p["pid"] for p in placed} - {getattr(writer, "pid", 0)}
                now, cpu = time.monotonic(), (time.process_time(), sum(cpu_s(p["pid"]) for p in placed),
                                              cpu_s(writer.pid) if writer is not None else 0.0,
                                              sum(cpu_s(p) for p in daemons or ()))
                draws, draws_s = await instant_cost(loop)
                samples.append((now, *cpu, draws, draws_s))
                await asyncio.sleep(0.25)

        async def sample_queue() -> None:  # whether evaluators wait for candidates (none ready) or the driver
            while True:
                queues.append((time.monotonic(), len(loop.ready), len(loop.in_flight)))
                await asyncio.sleep(0.02)

        asyncio.get_running_loop().create_task(sample())
        asyncio.get_running_loop().create_task(sample_queue())

    with tempfile.TemporaryDirectory() as out:
        db = open_database(f"sqlite:///{out}/kernelevo.db")
        started, cpu_started = time.perf_counter(), time.process_time()
        if profiler:
            profiler.enable()
        outcome = asyncio.run(start_search(db, spec, config, out=out, pool=pool, on_start=on_start))
        if profiler:
            profiler.disable()
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        db.dispose()
    elapsed = outcome.loop.elapsed_s()
    n = outcome.state.evaluated_count()
    rate, busy, least_busy = pool.steady_state(warmup_s=2 * delay)  # the seeds' round and the first full one
    row: dict[str, Any] = {
        "evaluators": evaluators, "islands": islands, "evaluations": n, "search_s": elapsed, "wall_s": wall,
        "results_per_s": rate, "ideal_per_s": evaluators / delay, "efficiency": rate / (evaluators / delay),
        "busy_fraction": busy, "least_busy_fraction": least_busy, "whole_run_results_per_s": n / elapsed,
        "whole_run_busy_fraction": pool.busy_s / (evaluators * elapsed),
        # kernels an operator made that were made before (with islands: mostly by another island, from the same seeds)
        "duplicates": sum(f.kind == "duplicate" for f in outcome.state.failures),
        # the driver process's CPU time (all its threads; not the descriptor process) per result
        "driver_cpu_ms_per_result": 1000 * cpu / n if n else None,
        **steady_cpu(samples, pool, 2 * delay),
        **steady_queue(queues, pool, 2 * delay),
    }
    if profiler:
        row["profile"] = split(profiler, elapsed)
    return row


async def instant_cost(loop: Any) -> tuple[int, float]:
    """The instant operators' draws so far and their CPU seconds: the driver's emitter's in one process, the
    island actors' summed with islands (an island that cannot answer counts nothing)."""
    if loop.islands is None:
        cost = loop.state.emitter.producer.instant_cost
        return cost.produced, cost.cpu_s
    answers = await asyncio.gather(*(c.actor.instant_cost.remote() for c in loop.islands.channels),
                                   return_exceptions=True)
    counted = [a for a in answers if isinstance(a, tuple)]
    return sum(a[0] for a in counted), sum(a[1] for a in counted)


def cpu_s(pid: int) -> float:
    """A process's CPU seconds (user and system, all its threads) from /proc; 0 once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rfind(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (from /proc): with islands, Ray's processes that the benchmark started."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rfind(")") + 2:].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def steady_cpu(samples: list[tuple[float, float, float, float, float, int, float]], pool: SimulatedPool,
               warmup_s: float) -> dict[str, Any]:
    """CPU per result in the steady state, the driver's, the island actors' and the store writer's apart, and
    the cores they kept busy: what one more island costs, where a whole run's figures also count start-up and
    the last round. Of it, what making the candidates cost (the instant operators' draws, wherever they ran),
    and the rest: the search's bookkeeping, and with islands what splitting it over processes adds."""
    window = pool.steady_window(warmup_s)
    inside = [s for s in samples if window and window[0] <= s[0] <= window[1]]
    if len(inside) < 2:
        return {}
    (t0, driver0, islands0, writer0, ray0, draws0, draws_s0) = inside[0]
    (t1, driver1, islands1, writer1, ray1, draws1, draws_s1) = inside[-1]
    results = sum(1 for _, end, _ in pool.spans if t0 <= end <= t1)
    if not results:
        return {}
    total = driver1 - driver0 + islands1 - islands0 + writer1 - writer0
    making = draws_s1 - draws_s0
    return {"steady_driver_cpu_ms_per_result": 1000 * (driver1 - driver0) / results,
            "steady_islands_cpu_ms_per_result": 1000 * (islands1 - islands0) / results,
            "steady_writer_cpu_ms_per_result": 1000 * (writer1 - writer0) / results,
            # Ray's raylet, GCS and agents, not in the CPU a result below: they share the cores all the same
            "steady_ray_cpu_ms_per_result": 1000 * (ray1 - ray0) / results,
            "steady_cores_busy": total / (t1 - t0),
            "steady_cpu_ms_per_result": 1000 * total / results,
            "steady_draws_per_result": (draws1 - draws0) / results,
            "steady_cpu_ms_per_draw": 1000 * making / (draws1 - draws0) if draws1 > draws0 else None,
            "steady_making_cpu_ms_per_result": 1000 * making / results,
            "steady_rest_cpu_ms_per_result": 1000 * (total - making) / results}


def steady_queue(queues: list[tuple[float, int, int]], pool: SimulatedPool, warmup_s: float) -> dict[str, Any]:
    """In the steady state, how often no candidate was ready for an evaluator that finished (the operators, or
    the islands, did not keep up) and how many were: the median of samples every 20 ms."""
    window = pool.steady_window(warmup_s)
    inside = [q for q in queues if window and window[0] <= q[0] <= window[1]]
    if not inside:
        return {}
    ready = sorted(q[1] for q in inside)
    return {"steady_none_ready_fraction": sum(1 for r in ready if r == 0) / len(ready),
            "steady_ready_median": ready[len(ready) // 2],
            "steady_in_flight_median": sorted(q[2] for q in inside)[len(inside) // 2]}


def split_bounds(rows: list[dict[str, Any]], cores: int) -> list[dict[str, Any]]:
    """Each run with islands against the run in one process at the same count: its ratio, and the most any
    number of results a second could be on ``cores`` cores at its CPU a result (every core busy), the ratio
    that allows, and how much CPU a result the split may add for 1.6x: the target's arithmetic, measured."""
    one = {r["evaluators"]: r for r in rows if r["islands"] == 1 and r.get("steady_cpu_ms_per_result")}
    bounds = []
    for r in rows:
        base = one.get(r["evaluators"])
        if r["islands"] == 1 or base is None or not r.get("steady_cpu_ms_per_result"):
            continue
        single, split_ms = base["steady_cpu_ms_per_result"], r["steady_cpu_ms_per_result"]
        usable = min(cores, r["islands"] + 1)  # the driver and its islands; more cores than that stay idle
        bounds.append({
            "evaluators": r["evaluators"], "islands": r["islands"], "cores": usable,
            "ratio": r["results_per_s"] / base["results_per_s"],
            # one process keeps about one core busy: it is CPU-bound at base's CPU a result
            "cpu_bound_ratio": usable * single / split_ms,
            "split_adds_cpu_ms_per_result": split_ms - single,
            # usable * single / (single + added) >= 1.6
            "split_may_add_for_1_6x_ms": usable * single / 1.6 - single,
            # the same bound with Ray's own processes counted (the one-process run starts none)
            "cpu_bound_ratio_with_ray": usable * single / (split_ms + r.get("steady_ray_cpu_ms_per_result", 0.0)),
        })
    return bounds


def split(profiler: cProfile.Profile, elapsed: float) -> dict[str, Any]:
    """The driver's CPU seconds by area, and the top functions by own time."""
    stats = pstats.Stats(profiler)
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, dict[Any, Any]]] = stats.stats  # type: ignore[attr-defined]
    areas: dict[str, float] = {}
    for area, prefixes in AREAS.items():
        # the outermost calls into the area: callers from outside it
        total = 0.0
        for (file, _, _), (_, _, _, cumulative, callers) in raw.items():
            if any(p in file for p in prefixes) and not any(any(p in c[0] for p in prefixes) for c in callers):
                total += cumulative
        areas[area] = round(total, 2)
    own = sorted(raw.items(), key=lambda kv: kv[1][2], reverse=True)[:12]
    top = [{"function": f"{Path(k[0]).name}:{k[1]} {k[2]}", "own_s": round(v[2], 3), "calls": v[1]} for k, v in own]
    return {"elapsed_s": round(elapsed, 2), "cpu_s_by_area": areas, "top_own_time": top}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay", type=float, default=1.0, help="seconds per simulated evaluation")
    parser.add_argument("--rounds", type=int, default=6, help="evaluations per evaluator")
    parser.add_argument("--counts", default="8,64,256,512")
    parser.add_argument("--measures", choices=("made-up", "process", "driver"), default="made-up",
                        help="each result's descriptors: made up with it (the driver alone), measured in one process "
                             "beside the driver (standing in for the evaluators' hosts), or by the driver")
    parser.add_argument("--islands", default="1",
                        help="numbers of islands, e.g. 1,2,4,8 (more than one: island actors on a local Ray)")
    parser.add_argument("--no-profile", action="store_true", help="skip the profiled run at the largest count")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    counts = [int(c) for c in args.counts.split(",")]
    island_counts = [int(i) for i in args.islands.split(",")]
    if max(island_counts) > 1:
        import ray

        from kernelevo.distributed.cluster import local_options

        # an island actor asks Ray for one CPU: as many logical CPUs as the most islands, on any machine
        ray.init(**{**local_options(0), "num_cpus": max(island_counts)})
    rows = []
    for n in counts:
        for islands in island_counts:
            rows.append(measure(n, args.delay, args.rounds, False, args.measures, islands))
            r = rows[-1]
            print(f"{n} evaluators, {islands} island(s): {r['results_per_s']:.0f} results/s, "
                  f"least busy {r['least_busy_fraction']:.0%}; steady CPU ms a result: driver "
                  f"{r.get('steady_driver_cpu_ms_per_result', 0):.2f}, islands "
                  f"{r.get('steady_islands_cpu_ms_per_result', 0):.2f}, store writer "
                  f"{r.get('steady_writer_cpu_ms_per_result', 0):.2f} ({r.get('steady_cores_busy', 0):.2f} cores); "
                  f"making candidates {r.get('steady_making_cpu_ms_per_result', 0):.2f}, the rest "
                  f"{r.get('steady_rest_cpu_ms_per_result', 0):.2f}; "
                  f"none ready {r.get('steady_none_ready_fraction', 0):.0%} of the time, median "
                  f"{r.get('steady_ready_median', 0)} ready, {r.get('steady_in_flight_median', 0)} in flight",
                  flush=True)
    profiled = None if args.no_profile else measure(counts[-1], args.delay, args.rounds, True,
                                                    args.measures, island_counts[-1])
    table = Table(title=f"one driver, simulated evaluators answering in {args.delay:g} s")
    for col in ("evaluators", "islands", "evaluations", "seconds", "results/s", "ideal/s", "efficiency", "busy",
                "least busy", "driver CPU ms/result", "steady: driver, islands, writer ms/result", "cores busy"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(str(r["evaluators"]), str(r["islands"]), str(r["evaluations"]), f"{r['search_s']:.1f}",
                      f"{r['results_per_s']:.1f}",
                      f"{r['ideal_per_s']:.0f}", f"{r['efficiency']:.0%}", f"{r['busy_fraction']:.0%}",
                      f"{r['least_busy_fraction']:.0%}", f"{r['driver_cpu_ms_per_result']:.2f}",
                      f"{r.get('steady_driver_cpu_ms_per_result', 0):.2f}, "
                      f"{r.get('steady_islands_cpu_ms_per_result', 0):.2f}, "
                      f"{r.get('steady_writer_cpu_ms_per_result', 0):.2f}", f"{r.get('steady_cores_busy', 0):.2f}")
    console = Console(width=140)
    console.print(table)
    if profiled:
        console.print(f"profiled at {counts[-1]}: {profiled['profile']['cpu_s_by_area']} "
                      f"(of {profiled['profile']['elapsed_s']} s)")
    cores = len(os.sched_getaffinity(0))  # (under taskset: the cores it may use, not the machine's)
    bounds = split_bounds(rows, cores)
    for b in bounds:
        console.print(f"{b['evaluators']} evaluators, {b['islands']} islands: {b['ratio']:.2f}x one island; the "
                      f"CPU a result allows at most {b['cpu_bound_ratio']:.2f}x on {b['cores']} cores (the split adds "
                      f"{b['split_adds_cpu_ms_per_result']:.2f} ms a result; 1.6x needs it at most "
                      f"{b['split_may_add_for_1_6x_ms']:.2f}); with Ray's own processes counted, at most "
                      f"{b['cpu_bound_ratio_with_ray']:.2f}x")
    if args.out:
        report = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                  "machine": f"{platform.node()}: {platform.processor() or platform.machine()}, CPU only "
                             f"({os.cpu_count()} cores, {cores} of them used; shared with other work: "
                             "indicative numbers)",
                  "delay_s": args.delay, "rounds": args.rounds,
                  "descriptors_measured_by": args.measures,
                  "rows": rows, "split_bounds": bounds, "profiled": profiled}
        Path(args.out).write_text(json.dumps(report, indent=2))
        console.print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
