"""Evaluator actors on a real local Ray (logical GPUs, CPU interpreter): routing, failures, runs."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from faulty_actors import DiesOnce, DiesOnMarker, TakesTwo

from kernelevo.distributed import NoMatchingWorkers, RayEvaluatorPool
from kernelevo.distributed.cluster import ClusterInfo
from kernelevo.distributed.simulated import SimulatedEvaluatorActor
from kernelevo.driver import RunSetupError, start_search
from kernelevo.evaluation import EvalOptions
from kernelevo.records.candidate import Candidate
from kernelevo.records.result import ErrorKind
from kernelevo.records.run_config import Budget, RunConfig
from kernelevo.spec import read_spec
from kernelevo.storage.recorder import load_run

ROOT = Path(__file__).resolve().parents[2]
CPU = EvalOptions(device="cpu")


@pytest.fixture(scope="module")
def gelu():
    return read_spec(str(ROOT / "examples" / "gelu" / "spec.py"))


def candidate(source: str, cid: int = 0) -> Candidate:
    return Candidate(id=cid, source=source, operator="seed")


async def with_pool(pool: RayEvaluatorPool, work):  # type: ignore[no-untyped-def]
    await pool.start()
    try:
        return await work(pool)
    finally:
        await pool.close()


def test_actors_evaluate_for_real(local_ray: ClusterInfo, gelu) -> None:
    seed = (ROOT / "examples" / "gelu" / "seed.py").read_text()
    pool = RayEvaluatorPool(gelu, CPU, cluster=local_ray, actors_per_target=2)

    async def work(pool: RayEvaluatorPool):
        return await asyncio.gather(pool.evaluate(candidate(seed)), pool.evaluate(candidate(seed + "\n# two\n")),
                                    pool.evaluate(candidate("import os\n" + seed)))

    first, second, rejected = asyncio.run(with_pool(pool, work))
    assert pool.workers == 2
    for (hardware, result) in (*first, *second):
        assert hardware == "cpu-interpreter" and result.ok, result.message
    # the static check runs in the driver: a GPU actor never sees this one
    assert rejected[0][1].error == ErrorKind.FILE_OR_NETWORK


def test_workers_run_at_the_drivers_priority(local_ray: ClusterInfo) -> None:
    """Not Ray's default 15: a judge at 15 would rank barely above its own compiles ahead (19)."""
    import os

    import ray

    @ray.remote(num_gpus=1)
    def niceness() -> int:
        return os.nice(0)

    assert ray.get(niceness.remote(), timeout=120) == os.nice(0)


def test_unknown_target_is_a_clear_error(local_ray: ClusterInfo, gelu) -> None:
    pool = RayEvaluatorPool(gelu, CPU, cluster=local_ray, targets=["B200"])
    with pytest.raises(NoMatchingWorkers, match="no worker offers accelerator 'B200'"):
        asyncio.run(pool.start())


def test_targets_route_to_labelled_workers(local_ray: ClusterInfo, gelu) -> None:
    assert local_ray.accelerators == {"TESTGPU": 2}
    import ray

    pool = RayEvaluatorPool(gelu, CPU.model_copy(update={"static_checks": False}), cluster=local_ray,
                            targets=["TESTGPU"], actor_class=SimulatedEvaluatorActor)
    label = "accelerator_type:TESTGPU"
    before = ray.available_resources().get(label, 0.0)

    async def work(pool: RayEvaluatorPool):
        held = before - ray.available_resources().get(label, 0.0)  # what the running actors reserved
        return held, await pool.evaluate(candidate("x = 1\n"))

    held, ((hardware, result),) = asyncio.run(with_pool(pool, work))
    assert pool.workers == 2  # as many actors as GPUs of that type, not all 4 GPUs
    assert held == pytest.approx(0.002)  # each actor asked for a sliver of the label: placed on such a node
    assert hardware == "simulated" and result.ok


def test_an_actor_takes_as_many_candidates_at_once_as_it_says(local_ray: ClusterInfo, gelu) -> None:
    """A GPU evaluator compiles the next candidates while the GPU judges one: the pool feeds it that many."""
    pool = RayEvaluatorPool(gelu, CPU.model_copy(update={"static_checks": False}), cluster=local_ray,
                            actors_per_target=1, actor_class=TakesTwo)

    async def work(pool: RayEvaluatorPool):
        return await asyncio.gather(*(pool.evaluate(candidate(f"x = {i}\n", i)) for i in range(6)))

    results = asyncio.run(with_pool(pool, work))
    assert pool.workers == 1 and pool.capacity == 2
    overlaps = [int(r.message.split()[-1]) for ((_, r),) in results]
    assert max(overlaps) == 2  # two at once, never more
    assert all(r.ok for ((_, r),) in results)


def test_a_candidate_that_kills_its_worker_twice_is_recorded_once(local_ray: ClusterInfo, gelu) -> None:
    pool = RayEvaluatorPool(gelu, CPU, cluster=local_ray, actors_per_target=2, actor_class=DiesOnMarker)
    killer = candidate("kernel = 1  # KILL-THE-WORKER\n", cid=7)

    async def work(pool: RayEvaluatorPool):
        return await asyncio.gather(pool.evaluate(killer), pool.evaluate(candidate("x = 1\n", cid=8)))

    opts = CPU.model_copy(update={"static_checks": False})
    pool.options = opts
    (crashed,), (fine,) = asyncio.run(with_pool(pool, work))
    assert crashed[1].error == ErrorKind.CRASHED and "died twice" in crashed[1].message
    assert fine[1].ok
    assert pool.requeued == 1 and pool.crashed == 1


def test_killed_actor_mid_run_loses_nothing(local_ray: ClusterInfo, gelu, tmp_path: Path, db) -> None:
    seed = (ROOT / "examples" / "gelu" / "seed.py").read_text() + f"\n# flag: {tmp_path / 'flag'}\n"
    spec = gelu.__class__(name=gelu.name, source=gelu.source, settings=gelu.settings.model_copy(update={
        "seeds": [seed + f"\n# id {i}\n" for i in range(6)]}), path=gelu.path)
    config = RunConfig(budget=Budget(evaluations=12), evaluation=CPU.model_copy(update={"static_checks": False}))
    pool = RayEvaluatorPool(spec, config.evaluation, cluster=local_ray, actors_per_target=3, actor_class=DiesOnce)
    outcome = asyncio.run(start_search(db, spec, config, out=tmp_path / "run", pool=pool))
    assert (tmp_path / "flag").exists(), "no actor was killed"
    evaluations = [e for e, _ in load_run(db, outcome.run_id).evaluations]
    ids = [e.candidate_id for e in evaluations]
    assert len(ids) == len(set(ids)) == 12  # each candidate once, none lost
    assert outcome.state.evaluated_count() == 12 and pool.requeued == 1 and pool.crashed == 0
    assert all(e.correct for e in evaluations)


def test_run_on_ray_with_real_evaluators(local_ray: ClusterInfo, gelu, tmp_path: Path, db) -> None:
    config = RunConfig(budget=Budget(evaluations=6), evaluation=CPU, workers=2)
    outcome = asyncio.run(start_search(db, gelu, config, out=tmp_path / "run"))
    assert outcome.state.evaluated_count() == 6 and outcome.state.correct_count() >= 2
    assert {e.hardware for e, _ in load_run(db, outcome.run_id).evaluations} == {"cpu-interpreter"}


def test_no_gpu_target_stops_the_run(local_ray: ClusterInfo, gelu, tmp_path: Path, db) -> None:
    config = RunConfig(budget=Budget(evaluations=2), evaluation=CPU, targets=["H100"])
    with pytest.raises(RunSetupError, match="accelerator 'H100'"):
        asyncio.run(start_search(db, gelu, config, out=tmp_path / "run"))
