"""Running evaluations on Ray: GPU evaluator actors, hardware targets, local or on a cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernelevo.distributed.cluster import ClusterInfo, connect
from kernelevo.distributed.pool import NoMatchingWorkers, RayEvaluatorPool

if TYPE_CHECKING:
    from kernelevo.records.run_config import RunConfig
    from kernelevo.spec import Spec

__all__ = ["ClusterInfo", "NoMatchingWorkers", "RayEvaluatorPool", "connect", "ray_pool"]


def ray_pool(spec: Spec, config: RunConfig) -> RayEvaluatorPool:
    """Connect (or start a local Ray) and build the pool a run's configuration asks for."""
    cluster = connect(local_gpus=config.workers)
    return RayEvaluatorPool(spec, config.evaluation, cluster=cluster, targets=config.targets,
                            actors_per_target=config.workers)
