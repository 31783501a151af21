"""The REST API over real HTTP: bad input, tokens, and runs started, watched, stopped, resumed and read back."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from api_server import Server, gelu_spec_body

pytestmark = pytest.mark.slow
CPU_RUN = {"evaluation": {"device": "cpu"}, "ray": False}


def wait_for(client: httpx.Client, run_id: int, statuses: set[str], timeout_s: float = 300) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}").json()
        if run["status"] in statuses:
            return run
        time.sleep(0.5)
    raise AssertionError(f"run {run_id} never reached {statuses}: {run}")


def test_health_and_openapi(quiet_server: Server) -> None:
    with quiet_server.client() as client:
        assert client.get("/api/health").json()["status"] == "ok"
        paths = client.get("/openapi.json").json()["paths"]
        assert {"/api/specs", "/api/runs", "/api/runs/{run_id}/archive", "/api/runs/{run_id}/events",
                "/api/candidates/{candidate_id}/module", "/api/runs/{run_id}/candidates/{number}", "/api/prompts",
                "/api/hardware"} <= set(paths)
        assert client.get("/docs").status_code == 200


def test_mutating_routes_need_a_valid_token(quiet_server: Server) -> None:
    body = gelu_spec_body()
    with quiet_server.client(token="kev_not-a-token") as wrong:
        response = wrong.post("/api/specs", json=body)
        assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
    assert httpx.post(f"{quiet_server.url}/api/runs", json={"spec_id": 1}).status_code == 401
    assert httpx.get(f"{quiet_server.url}/api/runs").status_code == 200  # reads are open on loopback


def test_bad_specs_get_their_reason(quiet_server: Server) -> None:
    with quiet_server.client() as client:
        broken = client.post("/api/specs", json={"source": "import torch\nclass Model(torch.nn.Module):\n    pass\n"})
        assert broken.status_code == 422 and "get_inputs" in broken.json()["detail"]
        syntax = client.post("/api/specs", json={"source": "def (:\n"})
        assert syntax.status_code == 422 and "syntax error" in syntax.json()["detail"]
        assert client.post("/api/specs", json={"source": "examples/gelu/spec.py"}).status_code == 422
        missing_seed = client.post("/api/specs", json={"source": gelu_spec_body()["source"]})
        assert missing_seed.status_code == 422 and "seed.py" in missing_seed.json()["detail"]
        huge = client.post("/api/specs", json={"source": "#\n" * 600_000})
        assert huge.status_code == 413
        assert client.get("/api/specs/999").status_code == 404
        assert client.get("/api/runs/999").status_code == 404
        assert client.post("/api/runs", json={"spec_id": 999}).status_code == 404


def test_a_spec_submitted_over_http_becomes_a_run_that_streams_stops_and_resumes(server: Server) -> None:
    with server.client() as client:
        spec = client.post("/api/specs", json=gelu_spec_body())
        assert spec.status_code == 201, spec.text
        spec_id = spec.json()["id"]
        assert spec.json()["seeds"] == ["seed", "seed_persistent"] and spec.json()["report"]["variants"]
        assert client.post("/api/specs", json=gelu_spec_body()).json()["id"] == spec_id  # the same spec, once
        run = client.post("/api/runs", json={"spec_id": spec_id, "config": {**CPU_RUN, "budget": {"evaluations": 40}}})
        assert run.status_code == 201, run.text
        run_id = run.json()["id"]
        seen: list[int] = []  # the live stream: progress events as the run makes them
        last_id, deadline = "0", time.monotonic() + 300
        while (not seen or seen[-1] < 3) and time.monotonic() < deadline:
            # a client goes on after a dropped stream from the last event it saw, as EventSource does
            with client.stream("GET", f"/api/runs/{run_id}/events", headers={"Last-Event-ID": last_id},
                               timeout=300) as stream:
                kind = None
                for line in stream.iter_lines():
                    if line.startswith("id: "):
                        last_id = line.removeprefix("id: ")
                    elif line.startswith("event: "):
                        kind = line.removeprefix("event: ")
                    elif line.startswith("data: ") and kind == "progress":
                        seen.append(json.loads(line.removeprefix("data: "))["evaluations"])
                        if seen[-1] >= 3:
                            break
        assert seen and seen == sorted(seen) and seen[-1] >= 3, seen
        stopping = client.post(f"/api/runs/{run_id}/stop")
        assert stopping.status_code == 200 and stopping.json()["stop_requested"]
        stopped = wait_for(client, run_id, {"stopped"})
        assert stopped["stop_reason"] == "stopped on request (the API)" and 3 <= stopped["evaluations"] < 40
        assert stopped["stop_kind"] == "stopped_by_user"
        resumed = client.post(f"/api/runs/{run_id}/resume",
                              json={"config": {"budget": {"evaluations": stopped["evaluations"] + 2}}})
        assert resumed.status_code == 200 and resumed.json()["status"] in ("queued", "running")
        finished = wait_for(client, run_id, {"finished"})
        assert finished["evaluations"] == stopped["evaluations"] + 2 and finished["interpreted"]
        assert finished["best_speedup_eager"] is None  # interpreted: never a GPU speedup
        archive = client.get(f"/api/runs/{run_id}/archive").json()
        (hardware,) = archive["hardware"]
        assert hardware["hardware"] == "cpu-interpreter" and hardware["interpreted"]
        assert hardware["cells_filled"] >= 2 and hardware["cells_total"] == 64
        best = hardware["elites"][0]
        candidate = client.get(f"/api/candidates/{best['candidate_id']}").json()
        assert candidate["run_id"] == run_id and candidate["evaluations"][0]["result"]["correct"]
        module = client.get(f"/api/candidates/{best['candidate_id']}/module")
        assert "spec sha256" in module.text and "class ModelNew" in module.text
        assert module.headers["content-disposition"].startswith("attachment")
        by_number = client.get(f"/api/runs/{run_id}/candidates/{best['candidate_number']}").json()
        assert by_number == candidate
        assert client.get(f"/api/runs/{run_id}/candidates/99999").status_code == 404
        lineage = client.get(f"/api/candidates/{best['candidate_id']}/lineage").json()
        assert lineage[0]["id"] == best["candidate_id"] and lineage[-1]["operator"] == "seed"
        assert lineage[-1]["added_lines"] is None and all(s["added_lines"] is not None for s in lineage[:-1])
        operators = client.get(f"/api/runs/{run_id}/operators").json()
        assert {o["operator"] for o in operators["operators"]} >= {"seed"}
        progress = client.get(f"/api/runs/{run_id}/progress").json()
        assert progress[-1]["data"]["evaluations"] == finished["evaluations"]
        assert client.get("/api/hardware").json() == ["cpu-interpreter"]
        assert client.get("/api/prompts", params={"run": run_id}).json()[0]["number"] == 0


def test_two_runs_on_one_slot_wait_in_a_visible_queue_and_both_finish(server: Server) -> None:
    with server.client() as client:
        spec_id = client.post("/api/specs", json=gelu_spec_body()).json()["id"]
        first, second = (client.post("/api/runs", json={"spec_id": spec_id, "config": {
            **CPU_RUN, "budget": {"evaluations": 3}}}).json() for _ in range(2))
        wait_for(client, first["id"], {"running", "finished"})
        waiting = client.get(f"/api/runs/{second['id']}").json()
        if waiting["status"] == "queued":  # the second waits for the one slot, and says where it stands
            assert waiting["queue_position"] == 0
        for run in (first, second):
            assert wait_for(client, run["id"], {"finished"})["evaluations"] == 3
        listed = client.get("/api/runs", params={"status": "finished", "limit": 1}).json()
        assert listed["limit"] == 1 and len(listed["items"]) == 1 and listed["total"] >= 2
        # by the kind of their stop: both reached their evaluation budget, and neither stopped otherwise
        by_budget = client.get("/api/runs", params={"stop_kind": "budget_evaluations"}).json()
        assert {first["id"], second["id"]} <= {r["id"] for r in by_budget["items"]}
        assert {r["stop_kind"] for r in by_budget["items"]} == {"budget_evaluations"}
        assert not {first["id"], second["id"]} & {r["id"] for r in client.get(
            "/api/runs", params={"stop_kind": "budget_time"}).json()["items"]}
        assert client.get("/api/runs", params={"stop_kind": "bored"}).status_code == 422


def test_the_pool_without_a_ray_cluster_is_an_empty_snapshot(quiet_server: Server) -> None:
    with quiet_server.client() as client:
        answer = client.get("/api/pool")
    assert answer.status_code == 200
    body = answer.json()
    assert body["exists"] is False and body["runs"] == [] and body["actors"] == []
    assert "RAY_ADDRESS" in body["note"]
