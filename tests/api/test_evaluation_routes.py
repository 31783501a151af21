"""Every evaluation of a run over real HTTP: the paged and filtered list, the scatter's points, the rejected ones by
stage and reason, and the CSV and JSON exports (parsed back, one row per evaluation, safe in a spreadsheet)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from api_server import Server, start_server
from varied_run import FORMULA_MESSAGE, FORMULA_NOTE, LIBRARY, MESSY_MESSAGE, varied_result, write_varied_run

from kernelevo.api.routes.exports import slug, spreadsheet_safe
from kernelevo.records.result import floor_name
from kernelevo.storage.database import open_database

RUN_SIZE = 300


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any]]]:
    """A server (launching nothing) over a database holding a run of 300 varied evaluations."""
    folder = tmp_path_factory.mktemp("evaluations")
    db = open_database(f"sqlite:///{folder / 'kernelevo.db'}")
    written = write_varied_run(db, RUN_SIZE)
    db.dispose()
    for server in start_server(folder, "--no-launch"):
        yield server, written


def expected(i: int) -> tuple[bool, str, str | None]:
    r = varied_result(i)
    return r.ok, str(r.stage), str(r.error) if r.error else None


def get(server: Server, path: str, **params: Any) -> Any:
    reply = httpx.get(f"{server.url}{path}", params=params, timeout=60)  # no token: reads are open
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_the_list_pages_through_every_evaluation_in_order_with_filters(served: tuple[Server, dict[str, Any]]) -> None:
    server, written = served
    run = written["run_id"]
    items: list[dict[str, Any]] = []
    while len(items) < RUN_SIZE:
        page = get(server, f"/api/runs/{run}/evaluations", limit=128, offset=len(items))
        assert page["total"] == RUN_SIZE and page["items"]
        items += page["items"]
    assert [i["number"] for i in items] == list(range(1, RUN_SIZE + 1))
    assert [i["candidate_number"] for i in items] == list(range(RUN_SIZE))
    assert [(i["correct"], i["stage"], i["error"]) for i in items] == [expected(k) for k in range(RUN_SIZE)]
    assert page["operators"] == ["llm-mutate", "seed", "template"] and page["hardware"] == ["h100"]
    # each roofline fraction with the floor it is of
    truth = [varied_result(k).roofline for k in range(RUN_SIZE)]
    assert [(i["roofline"], i["roofline_floor"]) for i in items] == [
        (pytest.approx(r.fraction), floor_name(r)) if r else (None, None) for r in truth]
    assert {i["roofline_floor"] for i in items} == {"read", "copy", None}
    run_info = get(server, f"/api/runs/{run}")
    assert (run_info["best_roofline"], run_info["best_roofline_floor"]) == (0.9, "copy")
    assert [(r["id"], r["best_roofline_floor"]) for r in get(server, "/api/runs")["items"]] == [(run, "copy")]
    first = items[2]
    assert first["eager_ms"] == pytest.approx(0.357) and first["kernel_ms"] == pytest.approx(
        varied_result(2).kernel.median_ms)  # type: ignore[union-attr]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)", first["finished_at"])  # UTC, said so
    # the library calls a kernel made, where its record holds them; none where it does not
    with_library = {i["candidate_number"] for i in items if i["library"]}
    assert with_library == set(written["library"]) and with_library
    assert items[written["library"][0]]["library"] == {"calls": [{k: LIBRARY["calls"][0][k] for k in  # type: ignore[index]
        ("op", "family", "signature", "count")}], "gpu_share": 0.83, "library_ms": 0.21}

    compile_errors = get(server, f"/api/runs/{run}/evaluations", stage="compile", reason="compile_error", limit=1000)
    assert compile_errors["total"] == sum(expected(k)[1:] == ("compile", "compile_error") for k in range(RUN_SIZE))
    assert {(i["stage"], i["error"], i["correct"]) for i in compile_errors["items"]} == {
        ("compile", "compile_error", False)}
    correct = get(server, f"/api/runs/{run}/evaluations", correct="true", operator="llm-mutate", limit=1000)
    assert correct["total"] == sum(expected(k)[0] and k >= 2 and k % 3 == 0 for k in range(RUN_SIZE))
    one = get(server, f"/api/runs/{run}/evaluations", candidate=42)
    assert [(i["number"], i["candidate_number"]) for i in one["items"]] == [(43, 42)]
    fastest = get(server, f"/api/runs/{run}/evaluations", sort="kernel_ms", limit=1000)["items"]
    times = [i["kernel_ms"] for i in fastest]
    timed = [t for t in times if t is not None]
    assert timed == sorted(timed) and times[:len(timed)] == timed  # untimed (rejected) ones last


def test_unknown_filters_are_refused_with_what_is_known(served: tuple[Server, dict[str, Any]]) -> None:
    server, written = served
    run = written["run_id"]
    with httpx.Client(base_url=server.url) as client:
        for params, said in [({"stage": "linking"}, "stage"), ({"reason": "too_slow"}, "reason"),
                             ({"hardware": "a100"}, "'a100' is not one of run"), ({"operator": "magic"}, "llm-mutate"),
                             ({"sort": "random"}, "sort"), ({"limit": 0}, "limit"), ({"limit": 5000}, "limit"),
                             ({"correct": "maybe"}, "correct")]:
            reply = client.get(f"/api/runs/{run}/evaluations", params=params)
            assert reply.status_code == 422 and said in reply.json()["detail"], (params, reply.text)
        assert client.get(f"/api/runs/{run}/rejected", params={"stage": "nope"}).status_code == 422
        assert client.get(f"/api/runs/{run}/evaluations/export", params={"format": "xlsx"}).status_code == 422
        for path in ("/evaluations", "/evaluations/points", "/rejected", "/evaluations/export"):
            reply = client.get(f"/api/runs/987654{path}")
            assert reply.status_code == 404 and "987654" in reply.json()["detail"], path


def test_the_points_are_every_evaluation_as_columns_and_follow_a_live_run(
        served: tuple[Server, dict[str, Any]]) -> None:
    server, written = served
    run = written["run_id"]
    points = get(server, f"/api/runs/{run}/evaluations/points")
    assert points["after"] == 0 and len(points["candidate_id"]) == RUN_SIZE
    for column in ("candidate_number", "operator", "hardware_index", "correct", "error", "kernel_ms",
                   "speedup_eager", "objective"):
        assert len(points[column]) == RUN_SIZE, column
    assert points["candidate_number"] == list(range(RUN_SIZE)) and not points["interpreted"]
    for k in range(RUN_SIZE):
        ok, _, error = expected(k)
        assert points["correct"][k] == ok and (points["errors"][points["error"][k]] if not ok else None) == error
        if ok:
            assert points["kernel_ms"][k] == pytest.approx(varied_result(k).kernel.median_ms, rel=1e-5)  # type: ignore[union-attr]
    assert Counter(points["operators"][k] for k in points["operator"])["seed"] == 2
    later = get(server, f"/api/runs/{run}/evaluations/points", after=290)
    assert later["after"] == 290 and later["candidate_number"] == list(range(290, RUN_SIZE))
    assert get(server, f"/api/runs/{run}/evaluations/points", after=RUN_SIZE)["candidate_id"] == []


def test_the_rejected_ones_are_counted_and_listed_by_stage_and_reason(served: tuple[Server, dict[str, Any]]) -> None:
    server, written = served
    run = written["run_id"]
    truth = Counter(expected(k)[1:] for k in range(RUN_SIZE) if not expected(k)[0])
    found = get(server, f"/api/runs/{run}/rejected", limit=1)
    assert found["evaluations"] == RUN_SIZE and found["rejected"] == sum(truth.values())
    assert {(r["stage"], r["reason"]): r["count"] for r in found["reasons"]} == dict(truth)
    assert [r["count"] for r in found["reasons"]] == sorted((r["count"] for r in found["reasons"]), reverse=True)
    assert len(truth) == 4  # four stages, a reason each
    timing = get(server, f"/api/runs/{run}/rejected", stage="timing", reason="below_physical_floor", limit=5)
    assert timing["total"] == truth[("timing", "below_physical_floor")] and len(timing["items"]) == 5
    numbers = [i["number"] for i in timing["items"]]
    assert numbers == sorted(numbers, reverse=True)  # the latest first
    assert all((i["stage"], i["error"]) == ("timing", "below_physical_floor") for i in timing["items"])
    messy = get(server, f"/api/runs/{run}/rejected", stage="correctness", limit=1000)["items"]
    assert MESSY_MESSAGE in [i["message"] for i in messy]
    assert get(server, f"/api/runs/{run}/rejected", stage="compile", reason="wrong_output")["total"] == 0


def test_the_csv_export_has_one_row_per_evaluation_and_no_formula_a_spreadsheet_would_run(
        served: tuple[Server, dict[str, Any]]) -> None:
    server, written = served
    run = written["run_id"]
    reply = httpx.get(f"{server.url}/api/runs/{run}/evaluations/export", params={"format": "csv"}, timeout=60)
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/csv")
    assert reply.headers["content-disposition"] == f'attachment; filename="gelu-run{run}-evaluations.csv"'
    rows = list(csv.DictReader(io.StringIO(reply.text, newline="")))
    assert len(rows) == RUN_SIZE and [int(r["number"]) for r in rows] == list(range(1, RUN_SIZE + 1))
    assert {"registers", "shared_kib", "warps", "library_ops", "library_gpu_share", "finished_at"} <= set(rows[0])
    assert [(r["correct"] == "true", r["stage"], r["error"] or None) for r in rows] == [
        expected(k) for k in range(RUN_SIZE)]
    correct = [r for r in rows if r["correct"] == "true"]
    assert all(float(r["kernel_ms"]) > 0 and float(r["registers"]) >= 0 for r in correct)
    assert any(float(r["objective"]) < 0 for r in correct)  # numbers stay numbers, a minus sign and all
    # text a spreadsheet would run is quoted; a message with a comma, quotes and a line break survives whole
    assert rows[4]["note"] == "'" + FORMULA_NOTE
    assert rows[17]["message"] == "'" + FORMULA_MESSAGE and rows[27]["message"].startswith("'-1 ")
    assert rows[10]["message"] == MESSY_MESSAGE
    assert all(not r[c].startswith(("=", "+", "-", "@")) for r in rows for c in ("note", "message", "operator"))
    library = {int(r["candidate_number"]) for r in rows if r["library_ops"]}
    assert library == set(written["library"]) and rows[written["library"][0]]["library_ops"] == "mm x2"
    assert float(rows[written["library"][0]]["library_gpu_share"]) == 0.83
    # the floor beside each fraction, empty where there is none
    assert list(rows[0])[list(rows[0]).index("roofline") + 1] == "roofline_floor"
    assert [r["roofline_floor"] or None for r in rows] == [floor_name(varied_result(k).roofline)
                                                          for k in range(RUN_SIZE)]


def test_the_json_export_has_one_object_per_evaluation(served: tuple[Server, dict[str, Any]]) -> None:
    server, written = served
    run = written["run_id"]
    reply = httpx.get(f"{server.url}/api/runs/{run}/evaluations/export", params={"format": "json"}, timeout=60)
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/json"
    assert reply.headers["content-disposition"] == f'attachment; filename="gelu-run{run}-evaluations.json"'
    document = reply.json()
    assert document["run_id"] == run and document["descriptors"] == ["registers", "shared_kib", "warps"]
    rows = document["evaluations"]
    assert len(rows) == RUN_SIZE and [r["number"] for r in rows] == list(range(1, RUN_SIZE + 1))
    assert rows[4]["note"] == FORMULA_NOTE  # JSON is data, not a spreadsheet: kept as written
    correct = next(r for r in rows if r["correct"])
    assert set(correct["descriptors"]) == {"registers", "shared_kib", "warps"}
    assert rows[written["library"][0]]["library"]["calls"][0]["op"] == "mm"
    assert [r["roofline_floor"] for r in rows] == [floor_name(varied_result(k).roofline) for k in range(RUN_SIZE)]
    assert json.dumps(document)  # no NaN or infinity: strict JSON


def test_file_names_and_cells_are_made_safe() -> None:
    assert slug('my "spec"/../x y') == "my-spec-..-x-y" and slug("///") == "run" and slug("a" * 200) == "a" * 80
    assert [spreadsheet_safe(v) for v in ("=1+1", "+1", "-1", "@A1", "\tx", "ok", "1-2")] == [
        "'=1+1", "'+1", "'-1", "'@A1", "'\tx", "ok", "1-2"]


def test_the_routes_are_documented(served: tuple[Server, dict[str, Any]]) -> None:
    server, _ = served
    paths = set(httpx.get(f"{server.url}/openapi.json").json()["paths"])
    assert {"/api/runs/{run_id}/evaluations", "/api/runs/{run_id}/evaluations/points", "/api/runs/{run_id}/rejected",
            "/api/runs/{run_id}/evaluations/export", "/api/compare/candidates", "/api/compare/runs"} <= paths
