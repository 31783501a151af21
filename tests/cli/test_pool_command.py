"""``kernelevo pool status | stop`` as a person runs them, against a real local Ray holding a shared pool of
simulated evaluator actors (a sleep each, no GPU) that one run uses."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GELU = ROOT / "examples" / "gelu"


def kernelevo(*args: str, address: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    if address is not None:
        env["RAY_ADDRESS"] = address
    return subprocess.run([sys.executable, "-m", "kernelevo.cli", "pool", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A local Ray with two logical GPUs; its address, for the commands to attach to."""
    import ray

    from kernelevo.distributed.cluster import local_options
    from kernelevo.distributed.shared_client import stop_shared_pool

    if ray.is_initialized():
        ray.shutdown()
    ray.init(**local_options(2))
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        stop_shared_pool()
        ray.shutdown()


def join_pool(run_id: str, weight: float) -> None:
    """Register a run with the cluster's pool (created now, with two simulated actors) and evaluate one candidate;
    the run stays registered (for 30 s without a heartbeat: longer than this test needs)."""
    from kernelevo.distributed.shared_client import SharedEvaluatorPool
    from kernelevo.distributed.simulated import SimulatedEvaluatorActor
    from kernelevo.evaluation import EvalOptions
    from kernelevo.records.candidate import Candidate
    from kernelevo.spec import read_spec

    pool = SharedEvaluatorPool(read_spec(str(GELU / "spec.py")), EvalOptions(device="cpu", static_checks=False),
                               run_id=run_id, weight=weight, actors=2, actor_class=SimulatedEvaluatorActor)

    async def once() -> None:
        await pool.start()
        ((_, result),) = await pool.evaluate(Candidate(id=1, source="x = 1\n", operator="seed"))
        assert result.ok

    asyncio.run(once())


def test_without_a_cluster_the_commands_say_so_in_one_line() -> None:
    unnamed = kernelevo("status")
    assert unnamed.returncode == 2 and "set RAY_ADDRESS or pass --address" in unnamed.stderr
    refused = kernelevo("stop", "--address", "127.0.0.1:1")
    assert refused.returncode == 2 and "no Ray cluster answers at 127.0.0.1:1" in refused.stderr
    for done in (unnamed, refused):
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_status_and_stop_of_a_pool_a_run_uses(ray_address: str) -> None:
    import ray

    from kernelevo.distributed.shared_client import find_pool

    none_yet = kernelevo("status", address=ray_address)
    assert none_yet.returncode == 2 and "no shared evaluator pool runs on this Ray cluster" in none_yet.stderr
    assert len(none_yet.stderr.strip().splitlines()) == 1

    join_pool("7", weight=3.0)
    table = kernelevo("status", address=ray_address)
    assert table.returncode == 0, table.stderr
    assert "kernelevo-evaluator-pool: 2 evaluator actor(s) on 2 GPU(s)" in table.stdout
    assert "Evaluator actors" in table.stdout and "Runs" in table.stdout and "gelu" in table.stdout
    as_json = kernelevo("status", "--json", "--address", ray_address)
    snapshot = json.loads(as_json.stdout)
    assert snapshot["exists"] and [(r["run_id"], r["weight"]) for r in snapshot["runs"]] == [("7", 3.0)]
    assert [a["judges"] for a in snapshot["actors"]] == [["gelu"], ["gelu"]]
    assert sum(a["evaluations"] for a in snapshot["actors"]) == 1

    refused = kernelevo("stop", address=ray_address)  # a run uses it: not without --force
    assert refused.returncode == 2 and "serves 1 run(s) (7)" in refused.stderr and "--force" in refused.stderr
    assert find_pool() is not None
    stopped = kernelevo("stop", "--force", address=ray_address)
    assert stopped.returncode == 0, stopped.stderr
    assert "stopped the shared evaluator pool: 2 evaluator actor(s) ended" in stopped.stdout
    deadline = time.monotonic() + 30  # its evaluator actors die with it: their GPUs are free again
    while (find_pool() is not None or ray.available_resources().get("GPU", 0) < 2) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert find_pool() is None and ray.available_resources().get("GPU", 0) == 2
    gone = kernelevo("stop", address=ray_address)
    assert gone.returncode == 2 and "no shared evaluator pool runs" in gone.stderr
