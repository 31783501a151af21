"""What the run log says of the Ray it attached to: never GPUs on a machine that has none.

Named to run after test_job_submit.py: its session-wide local Ray (the local_ray fixture) would slow a second
Ray head on 2 cores past the job tests' deadline.
"""

from __future__ import annotations

from kernelevo.distributed.cluster import ClusterInfo
from kernelevo.utils.devices import visible_gpus


def test_a_local_ray_without_a_gpu_says_so(local_ray: ClusterInfo) -> None:
    if visible_gpus():
        assert not local_ray.cpu_only and "GPU(s)" in local_ray.describe()
        return
    described = local_ray.describe()  # its logical GPUs are evaluation slots on the CPU
    assert local_ray.cpu_only and "GPU(s)" not in described and "no GPU on this machine" in described
    assert f"{local_ray.gpus} evaluation slot(s) on the CPU" in described
