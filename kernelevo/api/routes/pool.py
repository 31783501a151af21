"""``/api/pool``: the Ray cluster's shared evaluator pool (its GPUs, judges, runs, shares and queue)."""

from __future__ import annotations

import logging
import os
import threading

from fastapi import APIRouter

from kernelevo.api.deps import ReadDep
from kernelevo.records.pool import PoolSnapshot

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["service"])

_connecting = threading.Lock()  # routes run in a thread pool: one ray.init at a time


@router.get("/pool", response_model=PoolSnapshot, dependencies=[ReadDep])
def shared_pool() -> PoolSnapshot:
    """The shared evaluator pool: its evaluator actors (GPU, slots, the run each serves, utilisation), the
    registered runs (weight, share of the evaluator time and evaluations over the last two minutes, queue)
    and the warm judges. Never 404: ``exists`` is false, with a note saying why, when there is none."""
    try:
        if not _attached():
            return PoolSnapshot(note="this server is not attached to a Ray cluster: set RAY_ADDRESS (the cluster's "
                                     "address, e.g. head-node:6379) where kernelevo serve runs to see its shared pool")
        from kernelevo.distributed.shared_client import read_snapshot

        return read_snapshot()
    except Exception as exc:  # a cluster that does not answer is a state to show, not a server error
        log.warning("reading the shared pool: %r", exc)
        return PoolSnapshot(note=f"the Ray cluster did not answer: {type(exc).__name__}: {exc}"[:500])


def _attached() -> bool:
    """Whether this process is (now) connected to a Ray cluster; it connects when ``RAY_ADDRESS`` names one."""
    import ray

    with _connecting:
        if ray.is_initialized():
            return True
        address = os.environ.get("RAY_ADDRESS")
        if not address:
            return False
        ray.init(address=address, log_to_driver=False, configure_logging=False)
        return True
