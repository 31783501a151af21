"""Islands as Ray actors on a real local Ray: searching, migrating, and a killed island restarted from storage."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from llm_server import ScriptedLLMServer, kernel_responder

from kernelevo.archive.descriptors import descriptor_set
from kernelevo.distributed.cluster import ClusterInfo
from kernelevo.distributed.simulated import SimulatedPool
from kernelevo.driver import run_search, start_search
from kernelevo.evaluation import EvalOptions
from kernelevo.records.run_config import Budget, LLMConfig, RunConfig
from kernelevo.search.scheduler import Scheduler
from kernelevo.search.state import SearchState, replay
from kernelevo.spec import read_spec
from kernelevo.storage.recorder import StoredRun, load_run

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


def rebuilt(stored: StoredRun, like: SearchState) -> SearchState:
    """``stored`` replayed, as a resumed driver replays it."""
    return replay(stored, descriptors=like.descriptors, tie_tolerance=like.tie_tolerance, operators=like.operators)


def cells(state: SearchState) -> dict[tuple[int, str], list[tuple[int, int]]]:
    """Each archive's (cell, candidate) pairs."""
    return {key: sorted((e.cell, e.candidate_id) for e in archive.elites()) for key, archive in state.archives.items()}


@pytest.mark.parametrize("in_driver", [False, True], ids=["actors", "island-0-in-driver"])
def test_islands_on_ray_make_the_candidates_and_see_their_archives(local_ray: ClusterInfo, gelu, tmp_path: Path,
                                                                   db, in_driver: bool) -> None:
    """Two islands (two actors, or island 0 in the driver's process and an actor) make every candidate, for their
    own island, evaluated by Ray evaluators for real; each island's view of its elites, migrants included, is its
    archive of record when the run ends."""
    config = RunConfig(budget=Budget(evaluations=10), evaluation=CPU, workers=2, islands=2, migration_every=3,
                       island_in_driver=in_driver)
    outcome = asyncio.run(start_search(db, gelu, config, out=tmp_path / "run"))
    assert outcome.status == "finished" and outcome.state.evaluated_count() == 10
    islands = outcome.loop.islands
    assert islands is not None and islands.restarts() == [0, 0]
    assert islands.in_driver == in_driver and len(islands.placed) == 2 - in_driver
    made = [c for c in outcome.state.candidates.values() if c.operator != "seed"]
    assert {c.island for c in made} == {0, 1}  # both islands asked
    assert all(c.operator == "template" for c in made)
    stored = load_run(db, outcome.run_id)
    ids = [e.candidate_id for e, _ in stored.evaluations]
    assert len(ids) == len(set(ids)) == 10
    assert [c.id for c in stored.candidates] == sorted(outcome.state.candidates)  # numbered by the driver
    assert islands.final_views == views_of_record(outcome)
    # each seed judged once, in island 0, and every correct one held by island 1's archive too, where a resume
    # finds it again (stored as migrations)
    seeds = [c for c in outcome.state.candidates.values() if c.operator == "seed"]
    assert len(seeds) == len(gelu.seed_sources()) and {c.island for c in seeds} == {0}
    took = {c.id for c in seeds if any(e.took_cell for e in outcome.state.evaluations[c.id])}
    assert took and took <= {m.elite.candidate_id for m in stored.migrations if m.island == 1}
    assert cells(rebuilt(stored, outcome.state)) == cells(outcome.state)


def test_a_killed_island_restarts_from_storage_with_nothing_lost_or_doubled(local_ray: ClusterInfo, matmul,
                                                                            tmp_path: Path, db) -> None:
    """``ray.kill(island, no_restart=False)`` twice mid-run: Ray restarts it, it rebuilds its view from storage,
    the driver tells it again what it may have missed, and the run's budget and records are exact. Island 0 runs
    in the driver's process (as on a 2-core machine) and island 1, the actor, is killed."""
    import ray

    names = [d.name for d in descriptor_set("levels")]
    pool = SimulatedPool(4, 0.05, descriptors=names, made_up_measures=True)
    config = RunConfig(budget=Budget(evaluations=5000), evaluation=CPU, islands=2, migration_every=10,
                       migration="random", island_in_driver=True)
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
            actor = loop.islands.channels[1].actor  # type: ignore[union-attr]
            for at in (40, 90):
                while loop.state.evaluated_count() < at:
                    await asyncio.sleep(0.01)
                before = (await actor.ready.remote())["incarnation"]
                ray.kill(actor, no_restart=False)
                ready = await restarted(actor, before)
                # the driver counts a restart when the new incarnation first answers it (an ask or a tell): before
                # the next kill, so that each is counted (on a loaded machine the other island alone served the 50
                # evaluations between the kills, and the driver saw only the second restart's incarnation)
                for _ in range(1200):
                    if loop.islands.channels[1].incarnation == ready["incarnation"]:  # type: ignore[union-attr]
                        break
                    await asyncio.sleep(0.05)
                kills.append((loop.state.next_id(), ready))
            # the restarted island makes candidates again (or a minute passes: the asserts below say so);
            # then the run ends on an exact budget
            for _ in range(1200):
                if sum(c.island == 1 for c in loop.state.candidates.values() if c.id >= kills[-1][0]) >= 5:
                    break
                await asyncio.sleep(0.05)
            budget.append(loop.state.evaluated_count() + 40)
            loop.config.budget.evaluations = budget[0]

        killers.append(asyncio.get_running_loop().create_task(killer()))

    outcome = asyncio.run(start_search(db, matmul, config, out=tmp_path / "run", pool=pool, on_start=on_start))
    assert len(kills) == 2 and len(budget) == 1
    assert outcome.status == "finished" and outcome.state.evaluated_count() == budget[0]
    islands = outcome.loop.islands
    assert islands is not None and islands.restarts()[1] == 2 and islands.restarts()[0] == 0
    for _, ready in kills:
        assert ready["rebuilt"] > 0  # it read its island's evaluations back from storage
    stored = load_run(db, outcome.run_id)
    ids = [e.candidate_id for e, _ in stored.evaluations]
    assert len(ids) == len(set(ids)) == budget[0]  # none evaluated twice, the budget exact
    assert {c.id for c in stored.candidates} == set(outcome.state.candidates)
    made_after = Counter(c.island for c in stored.candidates if c.id >= kills[-1][0])
    assert made_after[1] >= 5 and made_after[0] > 0  # the restarted island made candidates again
    # its view, rebuilt from storage and told again what storage did not hold yet, is its archive of record
    assert islands.final_views == views_of_record(outcome)


def test_islands_call_their_own_llm_and_evolve_their_own_prompts(local_ray: ClusterInfo, gelu, tmp_path: Path, db,
                                                                 llm_server: ScriptedLLMServer,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """With a model, each island's LLM operators call a real OpenAI-compatible server from the island's actor (its
    key passed to it by Ray), and each evolves its own meta-prompts: ids of its own residue, all stored."""
    llm_server.responder = kernel_responder((ROOT / "examples" / "gelu" / "seed.py").read_text())
    monkeypatch.setenv("KERNELEVO_ISLAND_KEY", "sk-test")
    llm = LLMConfig(model="openai/gpt-4o-mini", api_base=llm_server.base_url, api_key_env="KERNELEVO_ISLAND_KEY",
                    max_retries=0)
    names = [d.name for d in descriptor_set("levels")]
    # evaluations of 0.2 s: on a loaded 2-core CI machine, 0.05 s ended the 40 evaluations before the second
    # island's first meta-prompt evolution came back (only island 0 had evolved one)
    pool = SimulatedPool(2, 0.2, descriptors=names, made_up_measures=True)
    config = RunConfig(budget=Budget(evaluations=40), evaluation=CPU, islands=2, llm=llm, evolve_prompts_every=2,
                       in_flight=4)
    outcome = asyncio.run(start_search(db, gelu, config, out=tmp_path / "run", pool=pool))
    state = outcome.state
    assert outcome.status == "finished" and state.evaluated_count() == 40
    by_llm = [c for c in state.candidates.values() if c.operator.startswith("llm")]
    assert {c.island for c in by_llm} == {0, 1}, Counter((c.island, c.operator) for c in state.candidates.values())
    assert all(c.usage.calls == 1 and c.prompt_id is not None for c in by_llm)
    assert outcome.loop.llm is None  # the driver called no model: the islands did
    assert set(llm_server.keys) == {"Bearer sk-test"}  # the driver's key reached the islands' own clients
    # every call counted, the asks the run's end cut short in the islands too (charged once handed to the provider)
    served, cut = len(llm_server.requests), sum(f.kind == "cut_short" for f in state.failures)
    assert state.usage.calls - cut <= served <= state.usage.calls
    evolved = [p for p in state.prompts.prompts if p.parent_id is not None]
    assert {p.id % 2 for p in evolved} == {0, 1}  # both islands evolved prompts of their own
    stored = load_run(db, outcome.run_id).prompts
    assert stored is not None and {p.id for p in stored.prompts} == {p.id for p in state.prompts.prompts}
    assert {c.prompt_id for c in by_llm} <= {p.id for p in stored.prompts}


def test_a_resumed_run_rebuilds_every_island_from_storage(local_ray: ClusterInfo, matmul, tmp_path: Path, db) -> None:
    """A run stopped and resumed by another driver: its islands start again from the stored run (each reads its
    own evaluations back), and go on numbering, evaluating and telling with nothing evaluated twice."""
    names = [d.name for d in descriptor_set("levels")]
    config = RunConfig(budget=Budget(evaluations=30), evaluation=CPU, islands=2, migration_every=8)
    first = asyncio.run(start_search(db, matmul, config, out=tmp_path / "run",
                                     pool=SimulatedPool(4, 0.02, descriptors=names, made_up_measures=True)))
    before = load_run(db, first.run_id)
    # the driver's archives of record come back as they stopped, migrants included, and only with them
    assert before.migrations and cells(rebuilt(before, first.state)) == cells(first.state)
    assert cells(rebuilt(replace(before, migrations=[]), first.state)) != cells(first.state)
    mine = [sum(c.island == i for c in before.candidates if any(e.candidate_id == c.id for e, _ in before.evaluations))
            for i in range(2)]
    ready: list[list[dict]] = []

    def on_start(loop: Scheduler) -> None:
        async def read() -> None:
            ready.append(list(await asyncio.gather(*(c.actor.ready.remote() for c in loop.islands.channels))))

        asyncio.get_running_loop().create_task(read())

    pool = SimulatedPool(4, 0.02, descriptors=names, made_up_measures=True)
    resumed = asyncio.run(run_search(db, first.run_id, config_updates={"budget": {"evaluations": 70}},
                                     on_start=on_start, pool=pool))
    assert resumed.status == "finished" and resumed.state.evaluated_count() == 70
    assert [r["rebuilt"] for r in ready[0]] == mine  # each island replayed its own stored evaluations
    after = load_run(db, first.run_id)
    ids = [e.candidate_id for e, _ in after.evaluations]
    assert len(ids) == len(set(ids)) == 70
    assert ids[:30] == [e.candidate_id for e, _ in before.evaluations]
    assert {c.island for c in after.candidates if c.id >= len(before.candidates)} == {0, 1}
