"""Islands as Ray actors on a real local Ray: searching, migrating, and a killed island restarted from storage."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.distributed.cluster import ClusterInfo
from kernelevo.distributed.simulated import SimulatedPool
from kernelevo.driver import start_search
from kernelevo.evaluation import EvalOptions
from kernelevo.records.run_config import Budget, RunConfig
from kernelevo.search.scheduler import Scheduler
from kernelevo.spec import read_spec
from kernelevo.storage.recorder import load_run

pytestmark = pytest.mark.slow  # Ray actors start, restart and import the search: seconds each
ROOT = Path(__file__).resolve().parents[2]
CPU = EvalOptions(device="cpu")


@pytest.fixture(scope="module")
def gelu():
    return read_spec(str(ROOT / "examples" / "gelu" / "spec.py"))


@pytest.fixture(scope="module")
def matmul():  # many tunables: the template operator does not run out of new kernels
    return read_spec(str(ROOT / "examples" / "matmul_epilogue" / "spec.py"))


def views_of_record(outcome) -> list[dict[str, list[int]]]:
    """Each island's archive of record (the driver's), as island actors report their views."""
    state = outcome.state
    return [{hw: sorted(e.candidate_id for e in state.elites(i, hw)) for hw in state.hardware_types()}
            for i in range(outcome.loop.config.islands)]


def test_islands_on_ray_make_the_candidates_and_see_their_archives(local_ray: ClusterInfo, gelu, tmp_path: Path,
                                                                   db) -> None:
    """Two island actors make every candidate, for their own island, evaluated by Ray evaluators for real; each
    island's view of its elites, migrants included, is its archive of record when the run ends."""
    config = RunConfig(budget=Budget(evaluations=10), evaluation=CPU, workers=2, islands=2, migration_every=3)
    outcome = asyncio.run(start_search(db, gelu, config, out=tmp_path / "run"))
    assert outcome.status == "finished" and outcome.state.evaluated_count() == 10
    islands = outcome.loop.islands
    assert islands is not None and islands.restarts() == [0, 0]
    made = [c for c in outcome.state.candidates.values() if c.operator != "seed"]
    assert {c.island for c in made} == {0, 1}  # both islands asked
    assert all(c.operator == "template" for c in made)
    stored = load_run(db, outcome.run_id)
    ids = [e.candidate_id for e, _ in stored.evaluations]
    assert len(ids) == len(set(ids)) == 10
    assert [c.id for c in stored.candidates] == sorted(outcome.state.candidates)  # numbered by the driver
    assert islands.final_views == views_of_record(outcome)


def test_a_killed_island_restarts_from_storage_with_nothing_lost_or_doubled(local_ray: ClusterInfo, matmul,
                                                                            tmp_path: Path, db) -> None:
    """``ray.kill(island, no_restart=False)`` twice mid-run: Ray restarts it, it rebuilds its view from storage,
    the driver tells it again what it may have missed, and the run's budget and records are exact."""
    import ray

    names = [d.name for d in descriptor_set("levels")]
    pool = SimulatedPool(4, 0.05, descriptors=names, made_up_measures=True)
    config = RunConfig(budget=Budget(evaluations=5000), evaluation=CPU, islands=2, migration_every=10,
                       migration="random")
    kills: list[tuple[int, dict]] = []  # (the next candidate id, the restarted island's ready()) at each kill
    killers: list[asyncio.Task[None]] = []
    budget: list[int] = []

    async def restarted(actor, before: str) -> dict:
        while True:  # calls fail while Ray restarts it (and one queued before the kill may still answer)
            try:
                ready = await actor.ready.remote()
                if ready["incarnation"] != before:
                    return ready
            except ray.exceptions.RayActorError:
                pass
            await asyncio.sleep(0.1)

    def on_start(loop: Scheduler) -> None:
        async def killer() -> None:
            actor = loop.islands.channels[0].actor  # type: ignore[union-attr]
            for at in (40, 90):
                while loop.state.evaluated_count() < at:
                    await asyncio.sleep(0.01)
                before = (await actor.ready.remote())["incarnation"]
                ray.kill(actor, no_restart=False)
                ready = await restarted(actor, before)
                kills.append((loop.state.next_id(), ready))
            # the restarted island makes candidates again (or a minute passes: the asserts below say so);
            # then the run ends on an exact budget
            for _ in range(1200):
                if sum(c.island == 0 for c in loop.state.candidates.values() if c.id >= kills[-1][0]) >= 5:
                    break
                await asyncio.sleep(0.05)
            budget.append(loop.state.evaluated_count() + 40)
            loop.config.budget.evaluations = budget[0]

        killers.append(asyncio.get_running_loop().create_task(killer()))

    outcome = asyncio.run(start_search(db, matmul, config, out=tmp_path / "run", pool=pool, on_start=on_start))
    assert len(kills) == 2 and len(budget) == 1
    assert outcome.status == "finished" and outcome.state.evaluated_count() == budget[0]
    islands = outcome.loop.islands
    assert islands is not None and islands.restarts()[0] == 2 and islands.restarts()[1] == 0
    for _, ready in kills:
        assert ready["rebuilt"] > 0  # it read its island's evaluations back from storage
    stored = load_run(db, outcome.run_id)
    ids = [e.candidate_id for e, _ in stored.evaluations]
    assert len(ids) == len(set(ids)) == budget[0]  # none evaluated twice, the budget exact
    assert {c.id for c in stored.candidates} == set(outcome.state.candidates)
    made_after = Counter(c.island for c in stored.candidates if c.id >= kills[-1][0])
    assert made_after[0] >= 5 and made_after[1] > 0  # the restarted island made candidates again
    # its view, rebuilt from storage and told again what storage did not hold yet, is its archive of record
    assert islands.final_views == views_of_record(outcome)
