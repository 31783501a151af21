"""Connecting to Ray: attach to ``RAY_ADDRESS`` when it is set, else start a local instance.

The same ``kernelevo run`` then works on a laptop, on a GPU box and under
``ray job submit`` on a cluster. A local instance on a machine without GPUs is given
*logical* GPUs, one per evaluation worker: its evaluators run Triton's interpreter on the
CPU, and the scheduling is exactly the cluster's.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

log = logging.getLogger(__name__)

ACCELERATOR_PREFIX = "accelerator_type:"


@dataclass(frozen=True)
class ClusterInfo:
    address: str  # "local" or the cluster's address
    gpus: int
    accelerators: dict[str, int]  # accelerator type -> GPUs of that type (Ray's accelerator_type resources)

    def describe(self) -> str:
        kinds = ", ".join(f"{n} x {k}" for k, n in sorted(self.accelerators.items())) or "no labelled accelerator"
        return f"Ray at {self.address}: {self.gpus} GPU(s) ({kinds})"


def connect(*, local_gpus: int | None = None) -> ClusterInfo:
    """Attach to ``RAY_ADDRESS`` or start a local Ray; returns what the cluster offers.

    ``local_gpus`` sets the logical GPU count of a local instance (default: the GPUs torch
    sees, or 1 on a machine without any).
    """
    import ray

    address = os.environ.get("RAY_ADDRESS")
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=True)
        else:
            # address="local": a new instance, never one some other `ray start` left on this machine
            ray.init(address="local", num_gpus=local_gpus if local_gpus is not None else _visible_gpus() or 1,
                     include_dashboard=False, log_to_driver=True, configure_logging=False)
    resources = ray.cluster_resources()
    accelerators = {}
    for key, value in resources.items():
        if key.startswith(ACCELERATOR_PREFIX):
            accelerators[key.removeprefix(ACCELERATOR_PREFIX)] = int(value)
    info = ClusterInfo(address=address or "local", gpus=int(resources.get("GPU", 0)), accelerators=accelerators)
    log.info(info.describe())
    return info


def _visible_gpus() -> int:
    try:
        import torch

        return int(torch.cuda.device_count())
    except Exception:  # torch without CUDA support
        return 0
