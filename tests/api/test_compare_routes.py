"""Two kernels and two runs side by side over real HTTP: timings per hardware type, the diff, the settings that
differ, rejections by reason and how each run's best improved."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from api_server import Server, start_server
from varied_run import LIBRARY, varied_result, write_varied_run

from kernelevo.storage.database import open_database


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any], dict[str, Any]]]:
    """Two runs of the GELU spec: 80 evaluations on one island, 50 on two with other kernel times."""
    folder = tmp_path_factory.mktemp("compare")
    db = open_database(f"sqlite:///{folder / 'kernelevo.db'}")
    first = write_varied_run(db, 80)
    second = write_varied_run(db, 50, shift=13, islands=2, config={"budget": {"evaluations": 50}})
    db.dispose()
    for server in start_server(folder, "--no-launch"):
        yield server, first, second


def candidate(server: Server, run: int, number: int) -> dict[str, Any]:
    return httpx.get(f"{server.url}/api/runs/{run}/candidates/{number}").json()


def test_two_kernels_side_by_side(served: tuple[Server, dict[str, Any], dict[str, Any]]) -> None:
    server, first, _ = served
    a, b = candidate(server, first["run_id"], 6), candidate(server, first["run_id"], first["library"][-1])
    reply = httpx.get(f"{server.url}/api/compare/candidates", params={"a": a["id"], "b": b["id"]})
    assert reply.status_code == 200, reply.text
    c = reply.json()
    assert (c["a"]["number"], c["b"]["number"]) == (6, b["number"]) and c["same_spec"]
    assert c["a"]["source"] == a["source"] and c["b"]["source"] == b["source"]
    a_ms, b_ms = (varied_result(n).kernel.median_ms for n in (6, b["number"]))  # type: ignore[union-attr]
    [timing] = c["timings"]
    assert timing["hardware"] == "h100" and timing["a_ms"] == a_ms and timing["b_ms"] == b_ms
    assert timing["speedup"] == pytest.approx(a_ms / b_ms) and timing["beyond_noise"] == (
        abs(a_ms - b_ms) > 0.02 * (a_ms + b_ms) / 2)
    [eb] = c["b"]["evaluations"]
    assert eb["kernel"]["median_ms"] == b_ms and eb["eager"]["median_ms"] == pytest.approx(0.357)
    assert eb["library"]["calls"][0]["op"] == LIBRARY["calls"][0]["op"]  # type: ignore[index]
    assert c["a"]["evaluations"][0]["library"] is None  # a record without library calls
    assert (c["added_lines"], c["removed_lines"]) == (2, 2)  # the block size and the candidate's comment
    assert "-# candidate 6" in c["diff"] and f"+# candidate {b['number']}" in c["diff"]

    rejected = candidate(server, first["run_id"], 3)  # a syntax error: no timing to compare
    assert httpx.get(f"{server.url}/api/compare/candidates", params={"a": a["id"], "b": rejected["id"]}).json()[
        "timings"] == []
    for params, status in [({"a": a["id"], "b": a["id"]}, 422), ({"a": a["id"], "b": 987654}, 404),
                           ({"a": a["id"]}, 422), ({"a": 0, "b": 1}, 422)]:
        assert httpx.get(f"{server.url}/api/compare/candidates", params=params).status_code == status, params


def test_two_runs_side_by_side(served: tuple[Server, dict[str, Any], dict[str, Any]]) -> None:
    server, first, second = served
    reply = httpx.get(f"{server.url}/api/compare/runs", params={"a": first["run_id"], "b": second["run_id"]})
    assert reply.status_code == 200, reply.text
    c = reply.json()
    assert c["same_spec"]
    assert {d["key"]: (d["a"], d["b"]) for d in c["config"]} == {"islands": (1, 2), "budget.evaluations": (None, 50)}
    for side, written in ((c["a"], first), (c["b"], second)):
        n = written["evaluations"]
        assert side["evaluations"] == n and side["correct"] == sum(varied_result(k).ok for k in range(n))
        assert sum(r["count"] for r in side["rejected"]) == n - side["correct"]
        assert side["cells_total"] == 8 * 8 * 6 and side["descriptors"] == ["registers", "shared_kib", "warps"]
        [best] = side["best"]
        objectives = [o for _, o in best["progress"]]
        assert objectives == sorted(objectives) and len(set(objectives)) == len(objectives)  # rises, step by step
        results = [varied_result(k, written["shift"]) for k in range(n)]
        top = max(range(n), key=lambda k: results[k].speedup_eager if results[k].ok else 0)
        assert best["candidate_number"] == top and best["found_at"] == top + 1
        assert best["objective"] == pytest.approx(math.log(results[top].speedup_eager))  # type: ignore[arg-type]
    assert httpx.get(f"{server.url}/api/compare/runs", params={"a": first["run_id"], "b": 987654}).status_code == 404
