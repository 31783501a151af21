"""The API under load while a run writes: latency of reads, errors, and whether the writer ever stalls.

A database is filled with a run of ``--history`` evaluated candidates (real kernel sources,
GPU-shaped results; the archive as the search would leave it). Then, at once:

- ``kernelevo serve --no-launch`` serves it, in a process of its own, on 127.0.0.1;
- a writer process keeps the run going through the search's own writer (a candidate, its
  evaluation, a progress snapshot), at ``--writes-per-s``, timing each write;
- this process runs ``--clients`` concurrent HTTP clients for ``--seconds``, each reading the
  run's status and its archive in turn, one request every ``--interval`` seconds (a dashboard
  polling four times a second by default; 0: back to back, which measures the server's
  capacity rather than the latency a client sees).

Reported: requests, errors (by kind: a status other than 200, a timeout at ``--timeout``
seconds, a dropped connection), p50, p95 and p99 latency per route; the lines of the server's
log that name an error (a pool that ran out: ``QueuePool limit``); the writer's median and
largest write, and its writes over 100 ms (stalls). Targets: no errors, p99 under
``--target-p99-ms`` (500 ms for 100 pollers on 2 cores), no write over 100 ms. On SQLite and
(``--postgres auto``) on PostgreSQL; ``--database`` picks one.

    python benchmarks/api_load.py --postgres auto --out benchmarks/results/api_load-cpu.json
    python benchmarks/api_load.py --clients 100 --seconds 60 --interval 1 --postgres auto --database postgresql \
        --out benchmarks/results/api_load-100-postgres-cpu2.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import multiprocessing
import os
import platform
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from storage_cost import databases  # noqa: E402
from synthetic_run import gpu_result, write_run  # noqa: E402

from kernelevo.records.candidate import Candidate  # noqa: E402
from kernelevo.records.progress import Progress  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402
from kernelevo.storage.recorder import RunRecorder  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system) the process has used so far (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_busy_s() -> float:
    """CPU seconds the whole machine has spent busy (every core; /proc/stat, less idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def writer(url: str, run_id: int, first: int, rate: float, seconds: float, out: Any, elite_every: int = 1) -> None:
    """A run that goes on: candidates and evaluations at ``rate`` per second, each write timed (ms); every
    ``elite_every``-th evaluation takes a cell of the archive (1: each does, so the archive a client reads
    changes with every write, as early in a search)."""
    db = open_database(url)
    recorder = RunRecorder(db, run_id)
    seed = (ROOT / "examples" / "gelu" / "seed.py").read_text()
    times, i, deadline = [], first, time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        recorder.add_candidate(Candidate(id=i, source=seed + f"\n# live {i}\n", operator="template", parent_ids=[0]))
        from kernelevo.records.candidate import Evaluated

        takes = elite_every > 0 and i % elite_every == 0
        recorder.add_evaluations([Evaluated(candidate_id=i, hardware="h100", result=gpu_result(i),
                                            objective=0.1 + i * 1e-4, measures=[1.0, 1.0, 1.0], cell=(i * 7) % 64,
                                            archive_status="improved" if takes else "worse")])
        recorder.progress(Progress(evaluations=i + 1, correct=i))
        times.append((time.perf_counter() - started) * 1e3)
        i += 1
        time.sleep(max(0.0, 1 / rate - times[-1] / 1e3))
    out.put(times)


ROUTES = ("status", "archive", "best")


async def clients(url: str, run_id: int, count: int, seconds: float, interval: float,
                  timeout: float) -> dict[str, Any]:
    """``count`` clients on one aiohttp session (a lean client: httpx's own cost blurred the server's tail),
    each reading the run's status, its archive and its best kernels in turn."""
    import aiohttp

    latencies: dict[str, list[float]] = {name: [] for name in ROUTES}
    errors: dict[str, int] = {}
    deadline = time.monotonic() + seconds

    async def one(session: aiohttp.ClientSession, n: int) -> None:
        paths = {"status": f"{url}/api/runs/{run_id}", "archive": f"{url}/api/runs/{run_id}/archive",
                 "best": f"{url}/api/runs/{run_id}/best"}
        k = n
        await asyncio.sleep(interval * n / count)  # the clients' requests spread over the interval
        while time.monotonic() < deadline:
            name = ROUTES[k % len(ROUTES)]
            k += 1
            started = time.perf_counter()
            error = None
            try:
                async with session.get(paths[name]) as response:
                    await response.read()
                    if response.status != 200:
                        error = f"{name}: HTTP {response.status}"
            except TimeoutError:
                error = f"{name}: timed out at {timeout:g} s"
            except aiohttp.ClientError as exc:
                error = f"{name}: {type(exc).__name__}"
            took = time.perf_counter() - started
            latencies[name].append(took * 1e3)
            if error:
                errors[error] = errors.get(error, 0) + 1
            await asyncio.sleep(max(0.0, interval - took))  # a dashboard polls; interval 0: as fast as it can

    connector = aiohttp.TCPConnector(limit=count)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=timeout)) as session:
        await asyncio.gather(*(one(session, n) for n in range(count)))
    return {"latencies": latencies, "errors": errors}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def run_one(name: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    db = open_database(url)
    run_id = write_run(db, args.history)["run_id"]
    db.dispose()
    port = _free_port()
    env = {**os.environ, "KERNELEVO_DATABASE_URL": url}
    log_path = Path(args.log_dir or ".") / f"api_load-{name}-server.log"
    log = log_path.open("w")
    # --unsafe-local: a load test on loopback, not a server anyone else reaches
    server = subprocess.Popen([sys.executable, "-m", "kernelevo.cli", "serve", "--no-launch", "--unsafe-local",
                               "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            time.sleep(0.2)
        results: Any = multiprocessing.get_context("spawn").Queue()
        write = multiprocessing.get_context("spawn").Process(
            target=writer, args=(url, run_id, args.history, args.writes_per_s, args.seconds, results,
                                 args.elite_every))
        write.start()
        cpu_before, mine_before, busy_before = _cpu_s(server.pid), _cpu_s(os.getpid()), _machine_busy_s()
        write_before = _cpu_s(write.pid) if write.pid else 0.0
        read = asyncio.run(clients(base, run_id, args.clients, args.seconds, args.interval, args.timeout))
        server_cpu_s = _cpu_s(server.pid) - cpu_before
        ours = server_cpu_s + _cpu_s(os.getpid()) - mine_before + (_cpu_s(write.pid) - write_before if write.pid and
                                                                   write.is_alive() else 0.0)
        others_cores = max(0.0, _machine_busy_s() - busy_before - ours) / args.seconds
        writes = results.get(timeout=120)
        write.join()
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    logged = [line.strip() for line in log_path.read_text(errors="replace").splitlines()
              if any(word in line for word in ("Error", "error", "QueuePool", "Traceback"))]
    row: dict[str, Any] = {"database": name, "clients": args.clients, "seconds": args.seconds,
                           "interval_s": args.interval, "writes_per_s": args.writes_per_s,
                           "elite_every": args.elite_every, "timeout_s": args.timeout, "history": args.history,
                           "errors": sum(read["errors"].values()), "error_kinds": read["errors"],
                           "server_log_errors": logged[:20]}
    everything: list[float] = []
    for route in ROUTES:
        values = read["latencies"][route]
        everything += values
        row[route] = {"requests": len(values), "p50_ms": percentile(values, 0.5), "p95_ms": percentile(values, 0.95),
                      "p99_ms": percentile(values, 0.99), "max_ms": max(values) if values else None}
    row["all"] = {"requests": len(everything), "per_s": len(everything) / args.seconds,
                  "p50_ms": percentile(everything, 0.5), "p95_ms": percentile(everything, 0.95),
                  "p99_ms": percentile(everything, 0.99), "max_ms": max(everything) if everything else None}
    # the server's own CPU time per request: what the load costs, whatever else the machine runs
    row["server_cpu_s"] = server_cpu_s
    # cores the machine's other processes kept busy meanwhile (a shared machine): above ~0.3 the latencies
    # measure the contention, not the server
    row["other_processes_cores"] = others_cores
    row["server_cpu_ms_per_request"] = server_cpu_s * 1e3 / max(1, len(everything))
    row["met"] = row["errors"] == 0 and row["all"]["p99_ms"] < args.target_p99_ms
    row["writer"] = {"writes": len(writes), "median_ms": percentile(writes, 0.5), "max_ms": max(writes),
                     "over_100ms": sum(w > 100 for w in writes)}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=0.25,
                        help="seconds between one client's requests (a dashboard polling); 0: back to back")
    parser.add_argument("--history", type=int, default=2000, help="evaluated candidates already in the run")
    parser.add_argument("--writes-per-s", type=float, default=10.0, help="evaluations the writer adds a second")
    parser.add_argument("--elite-every", type=int, default=1,
                        help="every Nth evaluation written takes an archive cell (1: each; 0: none)")
    parser.add_argument("--postgres", default=None, help="a PostgreSQL URL, or 'auto' to start a throwaway server")
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default=None, help="only this one")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a request counts as an error")
    parser.add_argument("--target-p99-ms", type=float, default=500.0)
    parser.add_argument("--log-dir", default=None, help="where the server's log goes (default: here)")
    parser.add_argument("--note", default="", help="recorded with the results (what else the machine ran)")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = []
    with databases(args.postgres) as found:
        for name, url in found:
            if args.database and name != args.database:
                continue
            row = run_one(name, url, args)
            rows.append(row)
            write = row["writer"]
            routes = "; ".join(f"{r} p50 {row[r]['p50_ms']:.1f} p95 {row[r]['p95_ms']:.1f} "
                               f"p99 {row[r]['p99_ms']:.1f} ms" for r in ROUTES)
            print(f"{name} ({args.clients} clients, interval {args.interval:g} s): {row['all']['requests']} requests "
                  f"({row['all']['per_s']:.0f}/s), {row['errors']} errors {row['error_kinds'] or ''}; {routes}; "
                  f"all p99 {row['all']['p99_ms']:.1f} ms; writer {write['writes']} writes, median "
                  f"{write['median_ms']:.1f} ms, max {write['max_ms']:.1f}, {write['over_100ms']} over 100 ms; "
                  f"server log errors: {len(row['server_log_errors'])}; server CPU "
                  f"{row['server_cpu_ms_per_request']:.2f} ms a request; other processes' load "
                  f"{row['other_processes_cores']:.2f} cores; target met: {row['met']}")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
            "cpus": os.cpu_count(), "load_average_1_5_15": os.getloadavg(), "note": args.note,
            "targets": f"no errors, p99 under {args.target_p99_ms:g} ms, no write over 100 ms",
            "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
