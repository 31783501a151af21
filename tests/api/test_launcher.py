"""The run launcher's slots: runs on a Ray cluster's shared evaluator pool take none."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.api.launcher import RunLauncher
from kernelevo.settings import Settings
from kernelevo.spec import read_spec
from kernelevo.storage.runs import create_run, save_spec

ROOT = Path(__file__).resolve().parents[2]
PER_RUN, SHARED = {"pool": "per-run"}, {"pool": "shared", "weight": 2.0}


def queued_runs(db, configs: list[dict]) -> list[int]:
    with db.session() as session:
        spec = save_spec(session, read_spec(str(ROOT / "examples" / "gelu" / "spec.py")))
        return [create_run(session, spec_id=spec.id, config=c, owner="test").id for c in configs]


@pytest.mark.parametrize(("address", "starts"), [("http://127.0.0.1:8265", [2, 3, 0]), (None, [0])])
def test_shared_pool_runs_take_no_slot_on_a_cluster(db, monkeypatch, address, starts) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    ids = queued_runs(db, [PER_RUN, PER_RUN, SHARED, SHARED])
    launcher = RunLauncher(db, Settings(run_slots=1, ray_address=address))
    launched: list[int] = []
    monkeypatch.setattr(launcher, "_launch", launched.append)
    launcher.tick()
    # on a cluster: both shared runs at once, and the one slot to the first per-run run; without one,
    # every driver would start a Ray of its own: the shared runs wait for a slot like the others
    assert launched == [ids[i] for i in starts]
