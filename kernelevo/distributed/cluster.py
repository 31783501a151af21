"""Connecting to Ray: attach to ``RAY_ADDRESS`` when it is set, else start a local instance.

The same ``kernelevo run`` then works on a laptop, on a GPU box and under
``ray job submit`` on a cluster. A local instance on a machine without GPUs is given
*logical* GPUs, one per evaluation worker: its evaluators run Triton's interpreter on the
CPU, and the scheduling is exactly the cluster's.

Ray starts its workers at niceness 15 (``worker_niceness``), below the node's daemons. An
evaluator's judge then ranks barely above its own compiles ahead (niceness 10 more, capped
at 19: :data:`kernelevo.evaluation.child.precompile.NICENESS`), and on a host busy compiling the
judge waits for cores: on an H100 host, 48 matmul candidates evaluated 7 to 10% slower
through Ray than in-process. A local instance starts its workers at the driver's niceness;
a cluster's nodes are started with ``RAY_worker_niceness=0`` (``cluster/``, ``docker/``).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

ACCELERATOR_PREFIX = "accelerator_type:"


@dataclass(frozen=True)
class ClusterInfo:
    address: str  # "local" or the cluster's address
    gpus: int
    accelerators: dict[str, int]  # accelerator type -> GPUs of that type (Ray's accelerator_type resources)
    cpu_only: bool = False  # a local instance on a machine without a GPU: its "GPUs" are logical slots

    def describe(self) -> str:
        if self.cpu_only:  # never "1 GPU(s)" on a machine with none
            return (f"Ray at {self.address}: no GPU on this machine; {self.gpus} evaluation slot(s) on the CPU "
                    "(Triton's interpreter)")
        kinds = ", ".join(f"{n} x {k}" for k, n in sorted(self.accelerators.items())) or "no labelled accelerator"
        return f"Ray at {self.address}: {self.gpus} GPU(s) ({kinds})"


def connect(*, local_gpus: int | None = None) -> ClusterInfo:
    """Attach to ``RAY_ADDRESS`` or start a local Ray; returns what the cluster offers.

    ``local_gpus`` sets the logical GPU count of a local instance (default: the GPUs torch
    sees, or 1 on a machine without any).
    """
    import ray

    address = os.environ.get("RAY_ADDRESS")
    real_gpus = None if address else _visible_gpus()
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=True)
        else:
            _start_local(local_options(local_gpus if local_gpus is not None else real_gpus or 1))
    resources = ray.cluster_resources()
    accelerators = {}
    for key, value in resources.items():
        if key.startswith(ACCELERATOR_PREFIX):
            accelerators[key.removeprefix(ACCELERATOR_PREFIX)] = int(value)
    info = ClusterInfo(address=address or "local", gpus=int(resources.get("GPU", 0)), accelerators=accelerators,
                       cpu_only=real_gpus == 0)
    log.info(info.describe())
    return info


def _start_local(options: dict[str, Any]) -> None:
    """``ray.init`` a local instance, once more if the first start fails.

    Ray picks a local instance's ports before its processes bind them, so two instances starting
    at once on one machine (two commands, two test workers) can pick the same port and one
    fails to start (ray-project/ray#53906, #18053); a second start picks other ports.
    """
    import ray

    try:
        ray.init(**options)
    except Exception as exc:  # whatever failed, a second start tells; its error is the one raised
        log.warning("a local Ray failed to start (%s: %s); starting it once more", type(exc).__name__, exc)
        ray.shutdown()
        ray.init(**options)


def local_options(gpus: int) -> dict[str, Any]:
    """``ray.init``'s arguments for a local instance with ``gpus`` (logical) GPUs."""
    # address="local": a new instance, never one some other `ray start` left on this machine
    return {"address": "local", "num_gpus": gpus, "include_dashboard": False, "log_to_driver": True,
            "configure_logging": False, "_system_config": {"worker_niceness": 0}}


def _visible_gpus() -> int:
    try:
        import torch

        return int(torch.cuda.device_count())
    except Exception:  # torch without CUDA support
        return 0
