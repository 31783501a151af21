"""Where the store's writer runs beside islands: in a process of its own only where a core is left for it."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from kernelevo.distributed.island import RemoteIslands
from kernelevo.records.run_config import RunConfig
from kernelevo.spec import read_spec

ROOT = Path(__file__).resolve().parents[2]


def placed(here: int, elsewhere: int) -> list[dict]:
    hosts = [socket.gethostname()] * here + ["another-host"] * elsewhere
    return [{"island": i, "host": host, "pid": 0, "incarnation": ""} for i, host in enumerate(hosts)]


def test_the_writer_process_takes_a_core_only_where_the_driver_and_its_islands_leave_one() -> None:
    islands = RemoteIslands(read_spec(str(ROOT / "examples" / "gelu" / "spec.py")), RunConfig(islands=2, ray=True))
    cores = len(os.sched_getaffinity(0))
    islands.placed = placed(cores - 1, 0)  # the driver and its islands take every core here
    assert not islands.spare_core_here()
    islands.placed = placed(cores - 2, 0)
    assert islands.spare_core_here()
    islands.placed = placed(cores - 2, 5)  # islands on other hosts take none of this one's cores
    assert islands.spare_core_here()
