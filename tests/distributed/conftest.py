"""One local Ray per test session, with logical GPUs on a machine without any."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

LOGICAL_GPUS = 4


@pytest.fixture(scope="session")
def local_ray():
    import ray

    from kernelevo.distributed import connect
    from kernelevo.distributed.cluster import local_options

    if ray.is_initialized():
        ray.shutdown()
    # Ray's workers inherit this environment: they import the test actors by module name.
    here = str(Path(__file__).parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
    # two of the four logical GPUs carry an accelerator label, as Ray gives real ones
    ray.init(**local_options(LOGICAL_GPUS), resources={"accelerator_type:TESTGPU": 2})
    info = connect()
    yield info
    ray.shutdown()
