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

Reported: requests, errors, p50 and p99 latency per route; the writer's median and largest
write, and its writes over 100 ms (stalls). Targets: p99 under 100 ms, no errors, no write
over 100 ms. On SQLite and (``--postgres auto``) on PostgreSQL.

    python benchmarks/api_load.py --postgres auto --out benchmarks/results/api_load-cpu.json
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

from storage_cost import databases, gpu_result, write_run  # noqa: E402

from kernelevo.records.candidate import Candidate  # noqa: E402
from kernelevo.storage.database import open_database  # noqa: E402
from kernelevo.storage.recorder import RunRecorder  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def writer(url: str, run_id: int, first: int, rate: float, seconds: float, out: Any) -> None:
    """A run that goes on: candidates and evaluations at ``rate`` per second, each write timed (ms)."""
    db = open_database(url)
    recorder = RunRecorder(db, run_id)
    seed = (ROOT / "examples" / "gelu" / "seed.py").read_text()
    times, i, deadline = [], first, time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        recorder.add_candidate(Candidate(id=i, source=seed + f"\n# live {i}\n", operator="template", parent_ids=[0]))
        from kernelevo.records.candidate import Evaluated

        recorder.add_evaluations([Evaluated(candidate_id=i, hardware="h100", result=gpu_result(i), objective=0.1,
                                            measures=[1.0, 1.0, 1.0], cell=21, archive_status="worse")])
        recorder.progress({"evaluations": i + 1, "correct": i})
        times.append((time.perf_counter() - started) * 1e3)
        i += 1
        time.sleep(max(0.0, 1 / rate - times[-1] / 1e3))
    out.put(times)


async def clients(url: str, run_id: int, count: int, seconds: float,
                  interval: float) -> dict[str, list[float] | int]:
    """``count`` clients on one aiohttp session (a lean client: httpx's own cost blurred the server's tail)."""
    import aiohttp

    latencies: dict[str, list[float]] = {"status": [], "archive": []}
    errors = 0
    deadline = time.monotonic() + seconds

    async def one(session: aiohttp.ClientSession, n: int) -> None:
        nonlocal errors
        routes = [("status", f"{url}/api/runs/{run_id}"), ("archive", f"{url}/api/runs/{run_id}/archive")]
        k = n
        await asyncio.sleep(interval * n / count)  # the clients' requests spread over the interval
        while time.monotonic() < deadline:
            name, path = routes[k % 2]
            k += 1
            started = time.perf_counter()
            try:
                async with session.get(path) as response:
                    await response.read()
                    ok = response.status == 200
            except aiohttp.ClientError:
                ok = False
            took = time.perf_counter() - started
            latencies[name].append(took * 1e3)
            errors += not ok
            await asyncio.sleep(max(0.0, interval - took))  # a dashboard polls; interval 0: as fast as it can

    connector = aiohttp.TCPConnector(limit=count)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as session:
        await asyncio.gather(*(one(session, n) for n in range(count)))
    return {**latencies, "errors": errors}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def run_one(name: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    db = open_database(url)
    run_id = write_run(db, args.history)["run_id"]
    db.dispose()
    port = _free_port()
    env = {**os.environ, "KERNELEVO_DATABASE_URL": url}
    # --unsafe-local: a load test on loopback, not a server anyone else reaches
    server = subprocess.Popen([sys.executable, "-m", "kernelevo.cli", "serve", "--no-launch", "--unsafe-local",
                               "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            time.sleep(0.2)
        results: Any = multiprocessing.get_context("spawn").Queue()
        write = multiprocessing.get_context("spawn").Process(
            target=writer, args=(url, run_id, args.history, args.writes_per_s, args.seconds, results))
        write.start()
        read = asyncio.run(clients(base, run_id, args.clients, args.seconds, args.interval))
        writes = results.get(timeout=120)
        write.join()
    finally:
        server.terminate()
        server.wait(timeout=30)
    row: dict[str, Any] = {"database": name, "clients": args.clients, "seconds": args.seconds,
                           "interval_s": args.interval, "history": args.history, "errors": read["errors"]}
    for route in ("status", "archive"):
        values = read[route]
        assert isinstance(values, list)
        row[route] = {"requests": len(values), "p50_ms": percentile(values, 0.5), "p99_ms": percentile(values, 0.99),
                      "max_ms": max(values) if values else None}
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
    parser.add_argument("--postgres", default=None, help="a PostgreSQL URL, or 'auto' to start a throwaway server")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rows = []
    with databases(args.postgres) as found:
        for name, url in found:
            row = run_one(name, url, args)
            rows.append(row)
            status, archive, write = row["status"], row["archive"], row["writer"]
            print(f"{name} (interval {args.interval:g} s): {status['requests'] + archive['requests']} requests, "
                  f"{row['errors']} errors; "
                  f"status p50 {status['p50_ms']:.1f} ms p99 {status['p99_ms']:.1f}; archive p50 "
                  f"{archive['p50_ms']:.1f} p99 {archive['p99_ms']:.1f}; writer {write['writes']} writes, "
                  f"median {write['median_ms']:.1f} ms, max {write['max_ms']:.1f}, {write['over_100ms']} over 100 ms")
    if args.out:
        Path(args.out).write_text(json.dumps({
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": platform.node(),
            "cpus": os.cpu_count(), "targets": "p99 under 100 ms, no errors, no write over 100 ms",
            "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
