"""Where the islands' work runs: the store's writer in a process of its own only where a core is left for it;
island 0 in the driver's process where the host has no core for the driver beside an actor per island; and
which island an instant ask goes to when one of them is in the driver."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from kernelevo.distributed.cluster import ClusterInfo
from kernelevo.distributed.island import AHEAD, BUSY, LOAD_WINDOW_S, RemoteIslands, ThreadLoad
from kernelevo.distributed.island_channel import IslandChannel
from kernelevo.records.run_config import RunConfig
from kernelevo.search.island import IslandEmitter
from kernelevo.search.state import SearchState
from kernelevo.spec import read_spec

ROOT = Path(__file__).resolve().parents[2]
GELU = read_spec(str(ROOT / "examples" / "gelu" / "spec.py"))


def placed(here: int, elsewhere: int) -> list[dict]:
    hosts = [socket.gethostname()] * here + ["another-host"] * elsewhere
    return [{"island": i, "host": host, "pid": 0, "incarnation": ""} for i, host in enumerate(hosts)]


def test_the_writer_process_takes_a_core_only_where_the_driver_and_its_islands_leave_one() -> None:
    islands = RemoteIslands(GELU, RunConfig(islands=2, ray=True))
    cores = len(os.sched_getaffinity(0))
    islands.placed = placed(cores - 1, 0)  # the driver and its islands take every core here
    assert not islands.spare_core_here()
    islands.placed = placed(cores - 2, 0)
    assert islands.spare_core_here()
    islands.placed = placed(cores - 2, 5)  # islands on other hosts take none of this one's cores
    assert islands.spare_core_here()


@pytest.mark.slow
def test_island_0_runs_in_the_driver_where_this_host_has_no_core_for_the_driver_beside_the_actors(
        local_ray: ClusterInfo) -> None:
    cores = len(os.sched_getaffinity(0))  # the local Ray is this host alone
    assert RemoteIslands(GELU, RunConfig(islands=cores, ray=True))._island_in_driver()
    assert RemoteIslands(GELU, RunConfig(islands=cores + 3, ray=True))._island_in_driver()
    assert not RemoteIslands(GELU, RunConfig(islands=max(cores - 1, 1), ray=True))._island_in_driver()
    # asked for, either way
    assert not RemoteIslands(GELU, RunConfig(islands=cores, ray=True, island_in_driver=False))._island_in_driver()
    assert RemoteIslands(GELU, RunConfig(islands=1, ray=True, island_in_driver=True))._island_in_driver()


class Load:
    def __init__(self, share: float) -> None:
        self.value = share

    def share(self) -> float:
        return self.value


def test_a_busy_driver_sends_instant_asks_to_the_island_actors_until_each_holds_two_batches() -> None:
    """The actors work without pause on their own cores; the island in the driver takes what they cannot, once
    the driver's loop is busy. Before, every island takes its turn."""
    config = RunConfig(islands=3, ray=True)
    islands = RemoteIslands(GELU, config)
    islands.in_driver, islands.load = True, Load(BUSY)
    home = IslandEmitter(GELU, config, 0)
    islands.channels.extend([IslandChannel(None, home=home), IslandChannel(None), IslandChannel(None)])
    state = SearchState(descriptors=home.state.descriptors, tie_tolerance=0.02, operators=["template"])
    for island in range(3):  # every island has an elite of record to vary
        state.archive(island, "cpu").add(island, 0.1, tuple(0.0 for _ in state.descriptors), 0.0)
    islands.state = state
    islands.channels[1].asking = AHEAD - 1  # a batch and a half under way
    islands.channels[2].asking = 5
    assert islands._choose(instant=True) == 2  # the actor that holds fewest
    islands.channels[2].asking = AHEAD
    assert islands._choose(instant=True) == 1
    islands.channels[1].asking = AHEAD
    assert islands._choose(instant=True) == 0  # both hold two batches: the driver's island makes this one
    islands.load.value = BUSY - 0.01  # time to spare: in turn
    assert [islands._choose(instant=True) for _ in range(6)].count(0) == 2
    islands.load.value = 1.0
    islands.channels[2].asking = 0
    islands.channels[2].dead = True  # (an actor Ray gave up on is never asked)
    assert islands._choose(instant=True) == 0
    islands.in_driver, islands.channels[0].home = False, None  # no island in the driver: in turn, as before
    assert {islands._choose(instant=True) for _ in range(6)} == {0, 1}


def test_the_driver_s_load_is_its_thread_s_share_of_the_wall_time() -> None:
    load = ThreadLoad()
    ends = time.monotonic() + LOAD_WINDOW_S * 1.2
    while time.monotonic() < ends:  # on the CPU the whole window
        pass
    assert load.share() > 0.25  # (a loaded machine gives this thread less than the whole window)
    time.sleep(LOAD_WINDOW_S * 1.2)  # off it
    assert load.share() < 0.1
