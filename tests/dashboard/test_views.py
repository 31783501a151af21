"""The dashboard's views of every evaluation, in a real browser (headless Chromium) against a real server.

Over a database of two GPU-shaped runs written through the search's own writer (tests/varied_run.py): the
scatter of every evaluation and its links to kernel pages, the archive's numbered log colour scale and
the note on merged cells, the rejected list filtered by stage and reason, the evaluations list with its
library shares, CSV and JSON downloads and its way to a side-by-side of two kernels, the comparison of
two runs, the operators table's correct rate against the header's, the evaluators-busy axis and the
token notice. Each number shown is checked against the API.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_server import Server, start_server
from varied_run import write_varied_run

from kernelevo.storage.database import open_database

pytestmark = pytest.mark.slow  # a browser and a server for the module: about 10 s on 2 cores
RUN_SIZE = 300
TIMES = re.compile(r"^\d+(\.\d+)?×$")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Any], dict[str, Any]]]:
    """A server (launching nothing) over two finished runs of the GELU spec: 300 evaluations and two candidates
    still in flight when it stopped, and 60 evaluations on two islands."""
    folder = tmp_path_factory.mktemp("views")
    db = open_database(f"sqlite:///{folder / 'kernelevo.db'}")
    first = write_varied_run(db, RUN_SIZE, pending=2)
    second = write_varied_run(db, 60, shift=13, islands=2, config={"budget": {"evaluations": 60}})
    db.dispose()
    for server in start_server(folder, "--no-launch"):
        yield server, first, second


def api(server: Server, path: str, **params: Any) -> Any:
    reply = httpx.get(f"{server.url}{path}", params=params, timeout=60)
    assert reply.status_code == 200, reply.text
    return reply.json()


def everything(server: Server, run: int) -> list[dict[str, Any]]:
    return api(server, f"/api/runs/{run}/evaluations", limit=1000)["items"]


def percent(x: float) -> str:
    """JavaScript's (100 * x).toFixed(0) with a % sign, as the dashboard writes fractions."""
    return f"{math.floor(100 * x + 0.5)}%"


def bin_of(axis: dict[str, Any], value: float) -> int:
    k = math.floor((value - axis["low"]) / (axis["high"] - axis["low"]) * axis["cells"])
    return max(0, min(axis["cells"] - 1, k))


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    added, removed = [], []
    matcher = difflib.SequenceMatcher(None, before.split("\n"), after.split("\n"), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += before.split("\n")[i1:i2]
            added += after.split("\n")[j1:j2]
    return sorted(added), sorted(removed)


def show_scatter(page: Any, points: int) -> None:
    """Scroll the run page's scatter into view (it loads its points only then) and wait until it draws them."""
    page.locator("canvas.scatter").scroll_into_view_if_needed()
    page.wait_for_selector(f"canvas.scatter[data-points='{points}']")


def to_precision(x: float, digits: int = 4) -> str:
    """JavaScript's Number.toPrecision, as the dashboard writes times."""
    text = format(x, f"#.{digits}g")
    return text.rstrip(".") if "e" not in text else text


def test_the_scatter_draws_every_evaluation_and_a_point_opens_its_kernel(served: Any, page: Any) -> None:
    server, first, _ = served
    run = first["run_id"]
    items = everything(server, run)
    page.goto(f"{server.url}/#/runs/{run}")
    show_scatter(page, RUN_SIZE)
    points = page.evaluate("document.querySelector('canvas.scatter').pointsOnCanvas()")
    assert [p["number"] for p in points] == [i["number"] for i in items]
    assert [p["candidate_id"] for p in points] == [i["candidate_id"] for i in items]
    correct = [p for p in points if p["correct"]]
    rejected = [p for p in points if not p["correct"]]
    assert len(rejected) == sum(not i["correct"] for i in items) and len({p["y"] for p in rejected}) == 1  # a strip
    # faster kernels higher: y falls as the speedup rises (canvas y grows downwards)
    by_speed = sorted(correct, key=lambda p: items[p["number"] - 1]["speedup_eager"])
    assert [p["y"] for p in by_speed] == sorted((p["y"] for p in by_speed), reverse=True)
    assert all(p["y"] < rejected[0]["y"] for p in correct)
    legend = page.locator(".scatter-legend").inner_text()
    assert "seed (2)" in legend and f"× rejected: {len(rejected)}" in legend

    box = page.locator("canvas.scatter").bounding_box()  # in view: the mouse moves within the window
    target = next(p for p in correct if p["number"] > 100)
    page.mouse.move(box["x"] + target["x"], box["y"] + target["y"])
    item = items[target["number"] - 1]
    assert f"kernel #{item['candidate_number']}" in page.locator(".scatter-tip.shown").inner_text()
    page.mouse.click(box["x"] + target["x"], box["y"] + target["y"])
    page.wait_for_url(re.compile(rf"#/candidates/{target['candidate_id']}$"))
    # the URL changes first, the page's heading once the kernel page has rendered
    page.wait_for_function(f"() => (document.querySelector('h1')?.textContent || '').startsWith("
                           f"'Kernel #{item['candidate_number']}')")

    page.go_back()  # by keyboard: the last evaluation, then its kernel
    show_scatter(page, RUN_SIZE)
    page.focus("canvas.scatter")
    page.keyboard.press("End")
    assert page.locator(".scatter-detail a").inner_text().startswith(f"Evaluation #{RUN_SIZE} ·")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"#/candidates/{items[-1]['candidate_id']}$"))

    page.goto(f"{server.url}/#/runs/{run}")  # an operator's points hidden from its legend
    show_scatter(page, RUN_SIZE)
    page.locator(".legend-item[data-operator='llm-mutate']").click()
    hidden = sum(i["operator"] == "llm-mutate" for i in items)
    assert page.get_attribute("canvas.scatter", "data-points") == str(RUN_SIZE - hidden)


def test_the_archive_colours_on_a_numbered_log_scale_and_says_what_it_merged(served: Any, page: Any) -> None:
    server, first, _ = served
    run = first["run_id"]
    archive = api(server, f"/api/runs/{run}/archive")["hardware"][0]
    page.goto(f"{server.url}/#/runs/{run}")
    page.wait_for_selector("button.cell")

    # the colour bar's numbers: round speedups in order along it, its ends the slowest and the fastest elite
    scale = page.locator(".archive .colour-scale")
    ticks = scale.locator(".tick")
    texts = ticks.all_inner_texts()
    assert len(texts) >= 4 and all(TIMES.match(t) for t in texts), texts
    values = [float(v) for v in ticks.evaluate_all("ts => ts.map(t => t.dataset.value)")]
    lefts = [float(s.removeprefix("left: ").removesuffix("%")) for s in ticks.evaluate_all(
        "ts => ts.map(t => t.getAttribute('style'))")]
    assert values == sorted(values) and lefts == sorted(lefts) and (lefts[0], lefts[-1]) == (0, 100)
    objectives = [e["objective"] for e in archive["elites"]]
    assert values[0] == pytest.approx(math.exp(min(objectives)), rel=1e-5)
    assert values[-1] == pytest.approx(math.exp(max(objectives)), rel=1e-5)
    assert "1×" in texts  # the neutral colour is labelled

    # every two cells whose best kernels differ by 25% or more in speed differ in colour
    cells = page.locator("button.cell").evaluate_all(
        "cs => cs.map(c => [Number(c.dataset.candidate), getComputedStyle(c).backgroundColor])")
    best = {e["candidate_id"]: e["objective"] for e in archive["elites"]}
    for a, colour_a in cells:
        for b, colour_b in cells:
            if abs(best[a] - best[b]) >= math.log(1.25):
                assert colour_a != colour_b, (a, b)

    # two of three descriptors shown: how many cells of the full archive the shown ones merge
    axes = archive["descriptors"]
    shown = {(bin_of(axes[0], e["measures"][0]), bin_of(axes[1], e["measures"][1])) for e in archive["elites"]}
    assert page.locator(".cells-filled").inner_text() == f"{len(shown)} of 64 cells filled"
    assert page.locator("button.cell").count() == len(shown) < archive["cells_filled"]
    assert page.locator(".merged-note").inner_text() == (
        f"{archive['cells_filled']} filled cells of the full archive ({archive['cells_total']} cells: registers × "
        f"shared_kib × warps) map onto {len(shown)} of the 64 cells shown; each shows the best over the warps bins.")
    page.select_option("select[aria-label='Y axis']", "")  # one axis: a row of 8 cells
    row = {bin_of(axes[0], e["measures"][0]) for e in archive["elites"]}
    assert f"map onto {len(row)} of the 8 cells shown; each shows the best over the shared_kib and warps bins." in \
        page.locator(".merged-note").inner_text()


def test_the_rejected_list_filters_by_stage_and_reason(served: Any, page: Any) -> None:
    server, first, _ = served
    run = first["run_id"]
    found = api(server, f"/api/runs/{run}/rejected", limit=1)
    page.goto(f"{server.url}/#/runs/{run}/rejected")
    page.wait_for_selector("table.reasons")
    assert page.locator("p.summary").inner_text().startswith(f"{found['rejected']} of {RUN_SIZE} evaluations rejected")
    rows = page.locator("table.reasons tbody tr")
    assert rows.evaluate_all("rs => rs.map(r => [r.dataset.stage, r.dataset.reason])") == [
        [r["stage"], r["reason"]] for r in found["reasons"]]
    assert page.locator("table.rejected tbody tr").count() == min(100, found["rejected"])

    compile_errors = next(r for r in found["reasons"] if r["reason"] == "compile_error")
    page.get_by_role("button", name="show those rejected at compile for compile_error").click()
    page.wait_for_url(re.compile(r"\?stage=compile&reason=compile_error$"))
    listed = page.locator("table.rejected tbody tr")
    listed.first.wait_for()
    assert listed.count() == compile_errors["count"]
    assert set(listed.evaluate_all("rs => rs.map(r => r.dataset.stage + '/' + r.dataset.reason)")) == {
        "compile/compile_error"}
    assert page.locator("table.reasons tr[aria-current]").get_attribute("data-reason") == "compile_error"

    page.select_option("select[aria-label=stage]", "timing")  # the stage alone: its reasons, whichever
    page.wait_for_url(re.compile(r"\?stage=timing&reason=compile_error$"))
    page.select_option("select[aria-label=reason]", "")
    page.wait_for_url(re.compile(r"\?stage=timing$"))
    timing = sum(r["count"] for r in found["reasons"] if r["stage"] == "timing")
    page.wait_for_function(f"() => document.querySelectorAll('table.rejected tbody tr').length === {timing}")
    numbers = [int(n) for n in listed.evaluate_all("rs => rs.map(r => r.dataset.number)")]
    assert numbers == sorted(numbers, reverse=True)  # the latest first
    page.get_by_role("button", name="Show all").click()
    page.wait_for_url(re.compile(rf"#/runs/{run}/rejected$"))
    page.goto(f"{server.url}/#/runs/{run}/rejected?stage=correctness")  # a shared link keeps its filter
    page.wait_for_selector("table.rejected tbody tr")
    assert set(listed.evaluate_all("rs => rs.map(r => r.dataset.stage)")) == {"correctness"}


def test_the_evaluations_list_exports_every_evaluation_and_compares_two_kernels(served: Any, page: Any) -> None:
    server, first, _ = served
    run = first["run_id"]
    items = everything(server, run)
    page.goto(f"{server.url}/#/runs/{run}/evaluations")
    page.wait_for_selector("table.evaluations tbody tr")
    rows = page.locator("table.evaluations tbody tr")
    assert rows.count() == 100 and "1–100 of 300" in page.inner_text(".pager")
    assert "Library share" in page.locator("table.evaluations thead").inner_text()
    library = first["library"][0]
    assert page.locator(f"tr[data-number='{library + 1}'] td").nth(10).inner_text() == "83%"
    # each roofline fraction with the floor it is of, as the API gives them; a rejected one has neither
    shown = dict(rows.evaluate_all("rs => rs.map(r => [Number(r.dataset.number), r.cells[8].textContent])"))
    assert shown == {i["number"]: "–" if i["roofline"] is None else f"{percent(i['roofline'])} ({i['roofline_floor']})"
                     for i in items[:100]}
    assert {s.split(" ")[-1] for s in shown.values()} == {"(read)", "(copy)", "–"}
    page.get_by_role("button", name="Next").click()
    page.wait_for_selector("tr[data-number='101']")
    page.select_option("select[aria-label=verdict]", "false")
    page.wait_for_url(re.compile(r"\?correct=false$"))
    rejected = sum(not i["correct"] for i in items)
    page.wait_for_function(f"() => document.querySelector('.pager span').textContent.endsWith('of {rejected}')")
    assert page.locator(".badge.finished").count() == 0  # no correct one among the rejected

    for format in ("csv", "json"):  # every evaluation, whatever the filters
        with page.expect_download() as download:
            page.get_by_role("button", name=f"Download {format.upper()}").click()
        assert download.value.suggested_filename == f"gelu-run{run}-evaluations.{format}"
        text = Path(download.value.path()).read_text()
        rows_in = list(csv.DictReader(io.StringIO(text, newline=""))) if format == "csv" else json.loads(text)[
            "evaluations"]
        assert [int(r["number"]) for r in rows_in] == list(range(1, RUN_SIZE + 1))
        assert [int(r["candidate_id"]) for r in rows_in] == [i["candidate_id"] for i in items]

    # two kernels ticked, then side by side: both, their timings, the diff from A to B
    page.select_option("select[aria-label=verdict]", "true")
    page.wait_for_url(re.compile(r"\?correct=true$"))
    page.wait_for_selector("tr[data-number='2']")
    a, b = items[6], items[next(n for n in first["library"] if n > 6)]  # b's record holds library calls
    for item in (a, b):
        page.locator(f"input[data-compare='{item['candidate_id']}']").check()
    page.get_by_role("button", name=f"Compare #{a['candidate_number']} with #{b['candidate_number']}").click()
    page.wait_for_url(re.compile(rf"#/compare/candidates/{a['candidate_id']}/{b['candidate_id']}$"))
    page.wait_for_selector("table.timings")
    c = api(server, "/api/compare/candidates", a=a["candidate_id"], b=b["candidate_id"])
    heads = page.locator("table.timings thead th").all_inner_texts()
    assert heads[1:] == [f"A: kernel #{a['candidate_number']}", f"B: kernel #{b['candidate_number']}"]
    medians = page.locator("table.timings tr[data-field=median_ms] td").all_inner_texts()
    assert medians == [f"{to_precision(c['a']['evaluations'][0]['kernel']['median_ms'])} ms",
                       f"{to_precision(c['b']['evaluations'][0]['kernel']['median_ms'])} ms"]
    speedup = c["timings"][0]["speedup"]
    assert page.locator("p.verdict").inner_text().startswith(
        f"B is {max(speedup, 1 / speedup):.2f}× {'faster' if speedup >= 1 else 'slower'} than A")
    library_cell = page.locator("table.timings tr[data-field=library] td[data-side=b]")
    assert "mm ×2 · 83% of GPU time" in library_cell.inner_text()
    diff = page.locator(".diff")
    added = sorted(t[2:] for t in diff.locator(".add").all_inner_texts())
    removed = sorted(t[2:] for t in diff.locator(".del").all_inner_texts())
    assert (added, removed) == changed_lines(c["a"]["source"], c["b"]["source"]) and added
    assert page.locator(".sources pre.code").count() == 2


def test_the_kernel_page_shows_the_library_calls_its_record_holds(served: Any, page: Any) -> None:
    server, first, _ = served
    run = first["run_id"]
    items = everything(server, run)
    with_library, without = items[first["library"][0]], items[2]
    page.goto(f"{server.url}/#/candidates/{with_library['candidate_id']}")
    page.wait_for_selector("pre.code")
    assert page.inner_text("[data-field=library_share]").startswith("83% of the kernel's GPU time")
    assert page.locator("table.library-calls tbody tr").all_inner_texts() == [
        "mm\tgemm\tmm 4096x4096x4096 float16\t2"]
    assert f"evaluation #{with_library['number']} of the run" in page.inner_text(".evaluation h3")
    page.goto(f"{server.url}/#/candidates/{without['candidate_id']}")  # a record from before library calls
    page.wait_for_selector("pre.code")
    assert page.locator(".library").count() == 0
    page.fill("input[aria-label='the kernel to compare with']", str(with_library["candidate_number"]))
    page.get_by_role("button", name="Compare", exact=True).click()
    page.wait_for_url(re.compile(rf"#/compare/candidates/{without['candidate_id']}/{with_library['candidate_id']}$"))


def test_two_runs_side_by_side(served: Any, page: Any) -> None:
    server, first, second = served
    page.goto(f"{server.url}/#/runs/{first['run_id']}")
    page.wait_for_selector("button.cell")
    page.fill("input[aria-label='the run to compare with']", str(second["run_id"]))
    # the header is redrawn as the run's status or the token changes: a number typed stays
    page.evaluate("window.dispatchEvent(new Event('kernelevo-token'))")
    page.get_by_role("button", name="Compare", exact=True).click()
    page.wait_for_url(re.compile(rf"#/compare/runs/{first['run_id']}/{second['run_id']}$"))
    page.wait_for_selector("table.runs")
    c = api(server, "/api/compare/runs", a=first["run_id"], b=second["run_id"])
    evaluations = page.locator("table.runs tr[data-field=evaluations] td").all_inner_texts()
    assert evaluations == [f"{RUN_SIZE}", "60"]
    found_at = page.locator("table.runs tr[data-field=found_at] td").all_inner_texts()
    assert found_at == [f"#{c['a']['best'][0]['found_at']}", f"#{c['b']['best'][0]['found_at']}"]
    assert page.locator("table.config tr[data-field=islands] td").all_inner_texts() == ["1", "2"]
    assert page.locator("table.config tr[data-field='budget.evaluations'] td").all_inner_texts() == ["–", "60"]
    assert page.locator("svg[data-chart=best] path[data-series]").count() == 2
    assert page.locator("table.runs tr[data-field=roofline] td").all_inner_texts() == [
        f"{percent(c[side]['run']['best_roofline'])} ({c[side]['run']['best_roofline_floor']})" for side in "ab"]


def test_the_runs_list_names_the_floor_of_each_best_roofline_fraction(served: Any, page: Any) -> None:
    from playwright.sync_api import expect

    server, first, second = served
    runs = {r["id"]: r for r in api(server, "/api/runs")["items"]}
    page.goto(f"{server.url}/#/")
    for run in (first["run_id"], second["run_id"]):
        info = runs[run]
        assert info["best_roofline_floor"] == "copy"
        cell = page.locator(f"tr[data-run='{run}'] td").nth(8)
        expect(cell).to_have_text(f"{percent(info['best_roofline'])} (copy)")


def test_the_run_page_keeps_one_correct_rate_a_sane_busy_axis_and_the_token_notice_current(
        served: Any, page: Any) -> None:
    server, first, _ = served
    run = first["run_id"]
    info = api(server, f"/api/runs/{run}")
    operators = api(server, f"/api/runs/{run}/operators")["operators"]
    page.goto(f"{server.url}/#/runs/{run}")
    page.wait_for_selector("table.operators")
    # the header's rate and each operator's: correct evaluations over evaluations (two candidates made but
    # never evaluated count in neither)
    assert sum(o["candidates"] for o in operators) == RUN_SIZE + 2
    assert sum(o["evaluated"] for o in operators) == info["evaluations"] == RUN_SIZE
    rate = math.floor(100 * info["correct"] / info["evaluations"] + 0.5)
    assert page.locator("[data-tile=correct] .value").inner_text() == f"{rate}% ({info['correct']})"
    for o in operators:
        cells = page.locator(f"tr[data-operator='{o['operator']}'] td").all_inner_texts()
        share = math.floor(100 * o["correct"] / o["evaluated"] + 0.5)  # as JavaScript's toFixed(0) rounds
        assert cells[2] == str(o["evaluated"]) and cells[3] == f"{o['correct']} ({share}%)"
    # evaluators busy, 90 to 99% of the time: drawn on 0 to 100, not blown up to fill the chart
    labels = page.locator("svg[data-chart=busy] text").evaluate_all("ts => ts.map(t => t.textContent)")
    assert {"0", "50", "100"} <= set(labels)

    page.goto(f"{server.url}/#/submit")
    notice = page.locator(".notice.need-token")
    notice.wait_for()
    page.locator("#token").press_sequentially(server.token[:8])  # typed, the field still focused
    notice.wait_for(state="detached")
    page.fill("#token", "")
    notice.wait_for()
