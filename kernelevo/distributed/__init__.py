"""Running evaluations on Ray: GPU evaluator actors, hardware targets, local or on a cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelevo.distributed.cluster import ClusterInfo, connect
from kernelevo.distributed.pool import NoMatchingWorkers, RayEvaluatorPool
from kernelevo.distributed.shared_client import SharedEvaluatorPool

if TYPE_CHECKING:
    from kernelevo.records.run_config import RunConfig
    from kernelevo.spec import Spec

__all__ = ["ClusterInfo", "NoMatchingWorkers", "RayEvaluatorPool", "SharedEvaluatorPool", "connect", "ray_pool",
           "shared_pool"]


def ray_pool(spec: Spec, config: RunConfig) -> RayEvaluatorPool:
    """Connect (or start a local Ray) and build the pool a run's configuration asks for."""
    cluster = connect(local_gpus=config.workers)
    return RayEvaluatorPool(spec, config.evaluation, cluster=cluster, targets=config.targets,
                            actors_per_target=config.workers)


def shared_pool(spec: Spec, config: RunConfig, *, run_id: int | str | None = None) -> SharedEvaluatorPool:
    """Connect (or start a local Ray) and join the cluster's shared pool with the run's weight.

    ``config.workers`` sets the pool's actor count only if this run is the one that creates it."""
    connect(local_gpus=config.workers)
    return SharedEvaluatorPool(spec, config.evaluation, run_id=None if run_id is None else str(run_id),
                               weight=config.weight, actors=config.workers)
