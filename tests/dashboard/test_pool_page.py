"""The dashboard's pool page in a real browser against a real server attached to a real local Ray.

The shared evaluator pool runs simulated evaluator actors (a sleep each, no GPU) on two logical
GPUs; two runs registered through the API (weights 3 and 1) keep candidates queued in it from a
thread of this process, as their drivers would. The page is opened before the pool exists (its
note), follows the pool by polling while the runs are busy (actors, judges, the run each serves,
queues), shows the API's numbers once they are still, and the note again after the pool stops.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_server import GELU, Server, gelu_spec_body, start_server

pytestmark = pytest.mark.slow  # a local Ray, a server and a browser: about 40 s on 2 cores
WEIGHTS = (3.0, 1.0)


@dataclass
class Cluster:
    server: Server
    run_ids: list[int]
    spec: Any


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A local Ray with two logical GPUs and no pool yet, and a server (launching nothing) attached to it, holding
    two queued runs of the GELU spec."""
    import ray

    from kernelevo.distributed.cluster import local_options
    from kernelevo.distributed.shared_client import stop_shared_pool
    from kernelevo.spec import read_spec

    if ray.is_initialized():
        ray.shutdown()
    ray.init(**local_options(2))
    address = ray.get_runtime_context().gcs_address
    try:
        for server in start_server(tmp_path_factory.mktemp("pool"), "--no-launch", env={"RAY_ADDRESS": address}):
            with server.client() as client:
                spec = client.post("/api/specs", json=gelu_spec_body())
                assert spec.status_code == 201, spec.text
                runs = [client.post("/api/runs", json={"spec_id": spec.json()["id"], "config": {
                    "evaluation": {"device": "cpu"}, "pool": "shared", "weight": w}}) for w in WEIGHTS]
                assert all(r.status_code == 201 for r in runs), [r.text for r in runs]
            yield Cluster(server, [r.json()["id"] for r in runs], read_spec(str(GELU / "spec.py")))
    finally:
        stop_shared_pool()
        ray.shutdown()


@dataclass
class Drivers:
    """Two runs' drivers on a thread of their own: busy (four candidates each in flight), then idle but
    registered, then gone."""

    cluster: Cluster
    idle: threading.Event = field(default_factory=threading.Event)
    leave: threading.Event = field(default_factory=threading.Event)
    left: threading.Event = field(default_factory=threading.Event)
    error: list[BaseException] = field(default_factory=list)

    def start(self, busy_s: float) -> threading.Thread:
        thread = threading.Thread(target=self._main, args=(busy_s,), daemon=True)
        thread.start()
        return thread

    def _main(self, busy_s: float) -> None:
        try:
            asyncio.run(self._drive(busy_s))
        except BaseException as exc:  # the test reports it
            self.error.append(exc)
            self.idle.set()
            self.left.set()

    async def _drive(self, busy_s: float) -> None:
        from kernelevo.distributed.shared_client import SharedEvaluatorPool
        from kernelevo.distributed.simulated import SimulatedEvaluatorActor
        from kernelevo.evaluation import EvalOptions
        from kernelevo.records.candidate import Candidate

        options = EvalOptions(device="cpu", static_checks=False)
        pools = [SharedEvaluatorPool(self.cluster.spec, options, run_id=str(run_id), weight=weight, actors=2,
                                     actor_class=SimulatedEvaluatorActor)
                 for run_id, weight in zip(self.cluster.run_ids, WEIGHTS, strict=True)]
        for pool in pools:
            await pool.start()
        until = asyncio.get_running_loop().time() + busy_s

        async def keep_busy(pool: SharedEvaluatorPool, worker: int) -> None:
            i = 0
            while asyncio.get_running_loop().time() < until:
                await pool.evaluate(Candidate(id=i, source=f"x = {worker}\n# {i}\n", operator="seed"))
                i += 1

        await asyncio.gather(*(keep_busy(p, w) for p in pools for w in range(4)))
        self.idle.set()
        while not self.leave.is_set():
            await asyncio.sleep(0.1)
        await asyncio.gather(*(p.close() for p in pools))
        self.left.set()


def snapshot(server: Server) -> dict[str, Any]:
    reply = httpx.get(f"{server.url}/api/pool", timeout=60)
    assert reply.status_code == 200, reply.text
    return reply.json()


def pct(x: float) -> str:
    """As the dashboard writes a fraction (JavaScript's toFixed(0) of a percentage)."""
    return f"{100 * x:.0f}%"


def test_the_pool_page_follows_a_shared_pool_serving_two_runs(cluster: Cluster, page: Any,
                                                               screenshots: Path | None) -> None:
    from playwright.sync_api import expect

    from kernelevo.distributed.shared_client import stop_shared_pool

    server, (a, b) = cluster.server, cluster.run_ids
    page.goto(f"{server.url}/#/")
    page.get_by_role("link", name="Evaluator pool").click()
    expect(page.locator("h1")).to_have_text("Shared evaluator pool")
    assert page.locator("nav a[href='#/pool']").get_attribute("aria-current") is not None
    # no pool yet: the API's reason, not an error
    expect(page.locator("[data-state=no-pool]")).to_contain_text("no shared evaluator pool runs on this Ray cluster")

    drivers = Drivers(cluster)
    drivers.start(busy_s=6.0)
    # the page polls: the pool appears, with its two actors, the judge warm on each and both runs queueing
    expect(page.locator("table.pool-actors tbody tr")).to_have_count(2, timeout=30_000)
    expect(page.locator("table.pool-runs tbody tr")).to_have_count(2, timeout=15_000)
    for judges in page.locator("table.pool-actors [data-field=judges]").all_inner_texts():
        assert judges == cluster.spec.name
    page.wait_for_function("() => [...document.querySelectorAll('table.pool-runs [data-field=queued]')]"
                           ".some((c) => Number(c.textContent) > 0)", timeout=15_000)
    page.wait_for_function("() => [...document.querySelectorAll('table.pool-actors [data-field=serving] a')]"
                           ".length > 0", timeout=15_000)
    serving = set(page.locator("table.pool-actors [data-field=serving] a").all_inner_texts())
    assert serving <= {f"#{a}", f"#{b}"}, serving
    assert page.locator(f"tr[data-run='{a}'] [data-field=weight]").inner_text() == "3"
    assert page.locator(f"tr[data-run='{a}'] a").get_attribute("href") == f"#/runs/{a}"
    if screenshots:  # once the shares mean something: eight evaluations or more
        page.wait_for_function("() => [...document.querySelectorAll('table.pool-runs [data-field=evaluations]')]"
                               ".reduce((n, c) => n + Number(c.textContent), 0) >= 8", timeout=15_000)
        page.screenshot(path=str(screenshots / "dashboard-pool.png"), full_page=True)

    # the runs idle but stay registered: the page shows the API's numbers (shares over the window, queues)
    assert drivers.idle.wait(30) and not drivers.error, drivers.error
    api = snapshot(server)
    runs = {int(r["run_id"]): r for r in api["runs"]}
    assert runs[a]["evaluations"] + runs[b]["evaluations"] >= 6 and runs[a]["queued"] == runs[b]["queued"] == 0
    for run_id, run in runs.items():
        row = page.locator(f"table.pool-runs tr[data-run='{run_id}']")
        expect(row.locator("[data-field=share]")).to_have_text(re.compile(rf"{pct(run['share'])}$"), timeout=10_000)
        expect(row.locator("[data-field=queued]")).to_have_text("0")
    assert runs[a]["share"] > runs[b]["share"]  # weight 3 against 1 (not measured here: too few evaluations)
    expect(page.locator("[data-tile=queued] .value")).to_have_text("0")
    assert page.locator("[data-tile=gpus] .value").inner_text() == "2"

    # the runs leave: their rows go, the judge stays warm; then the pool is stopped and the note comes back
    drivers.leave.set()
    assert drivers.left.wait(30) and not drivers.error, drivers.error
    expect(page.locator(".pool .empty")).to_contain_text("No run uses the pool now", timeout=10_000)
    expect(page.locator("table.pool-judges")).to_contain_text("none: kept warm")
    expect(page.locator("table.pool-judges")).to_contain_text(re.compile(r"yes, in \d+\.\d s"))
    assert stop_shared_pool()
    expect(page.locator("[data-state=no-pool]")).to_be_visible(timeout=30_000)
