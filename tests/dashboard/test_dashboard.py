"""The dashboard in a real browser (headless Chromium) against a real server, real runs and real HTTP.

A run made by a real tiny CPU search is browsed from a heatmap cell to an elite to its parent,
and what the pages show is checked against the API; a spec is submitted through the form and
its run watched as it progresses; a run of 10,000 candidates is loaded, timed, and a new
evaluation written to it is timed until the open page shows it.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_server import GELU, Server, gelu_spec_body, start_server

from kernelevo.records.run import RunStatus
from kernelevo.storage.database import open_database
from kernelevo.storage.runs import create_run, get_run

pytestmark = pytest.mark.slow
CPU_RUN = {"evaluation": {"device": "cpu"}, "ray": False, "descriptors": "parallelism,warps,registers"}


def to_precision(x: float, digits: int = 4) -> str:
    """JavaScript's Number.toPrecision, as the dashboard writes times."""
    text = format(x, f"#.{digits}g")
    return text.rstrip(".") if "e" not in text else text


def wait_for(client: httpx.Client, run_id: int, statuses: set[str], timeout_s: float = 300) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    errors: list[str] = []  # replies that were not the run: a failure says what they were
    while time.monotonic() < deadline:
        reply = client.get(f"/api/runs/{run_id}")
        if reply.status_code != 200:
            errors.append(f"{reply.status_code} {reply.text[:300]}")
        elif reply.json()["status"] in statuses:
            assert len(errors) <= 2, errors  # a reply or two lost to a loaded machine, not a broken route
            return reply.json()
        time.sleep(0.5)
    raise AssertionError(f"run {run_id} never reached {statuses}; error replies: {errors[-3:]}")


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines added and removed between two sources (sorted, for comparison)."""
    added, removed = [], []
    matcher = difflib.SequenceMatcher(None, before.split("\n"), after.split("\n"), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            removed += before.split("\n")[i1:i2]
            added += after.split("\n")[j1:j2]
    return sorted(added), sorted(removed)


def heading(page: Any, number: int) -> None:
    """The kernel page of kernel ``number`` is shown (waiting for the hash route to render it)."""
    from playwright.sync_api import expect

    expect(page.locator("h1")).to_have_text(re.compile(rf"^Kernel #{number}\b"), timeout=15_000)


def tile(page: Any, name: str) -> str:
    return page.locator(f"[data-tile={name}] .value").inner_text()


@pytest.fixture(scope="module")
def cpu_run(server: Server) -> dict[str, Any]:
    """A finished run of a real search on the CPU (Triton's interpreter): 12 evaluations of the GELU spec."""
    with server.client() as client:
        spec = client.post("/api/specs", json=gelu_spec_body())
        assert spec.status_code == 201, spec.text
        run = client.post("/api/runs", json={"spec_id": spec.json()["id"], "config": {
            **CPU_RUN, "budget": {"evaluations": 12}}})
        assert run.status_code == 201, run.text  # the API's reason, if it refused
        return wait_for(client, run.json()["id"], {"finished", "failed"})


def test_a_cpu_run_from_a_heatmap_cell_to_an_elite_and_its_parent(server: Server, cpu_run: dict[str, Any], page: Any,
                                                                   screenshots: Path | None) -> None:
    assert cpu_run["status"] == "finished", cpu_run
    run_id = cpu_run["id"]
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    api = server.client()
    archive = api.get(f"/api/runs/{run_id}/archive").json()["hardware"][0]

    page.goto(f"{server.url}/#/runs/{run_id}")
    page.wait_for_selector("button.cell")
    # the numbers shown are the API's, and a CPU run never shows a GPU speedup
    assert tile(page, "evaluations") == str(cpu_run["evaluations"])
    assert tile(page, "best_speedup_eager") == "CPU run" and tile(page, "best_roofline") == "CPU run"
    assert page.locator(".notice.cpu").is_visible()
    # three descriptors, two shown: the note says how many cells of the full archive the shown ones merge
    assert f"{archive['cells_filled']} filled cell{'s' if archive['cells_filled'] > 1 else ''} of the full archive " \
        f"({archive['cells_total']} cells: parallelism × warps × registers)" in page.inner_text(".merged-note")
    cells = page.locator("button.cell")
    assert all(text.startswith("#") for text in cells.all_inner_texts())  # kernel numbers, not speedups
    assert page.locator(".cell.empty").count() > 0  # empty cells are drawn too
    ticks = page.locator(".archive .colour-scale .tick").all_inner_texts()  # the colour bar is numbered
    assert len(ticks) >= 3 and all(re.fullmatch(r"\d+(\.\d+)?×", t) for t in ticks), ticks
    if screenshots:
        page.screenshot(path=str(screenshots / "dashboard-cpu-run.png"), full_page=True)

    # choose a cell whose best kernel was made from a parent (not a seed), with the keyboard
    derived = {e["candidate_id"]: e for e in archive["elites"] if e["operator"] != "seed"}
    shown = [int(c) for c in cells.evaluate_all("cells => cells.map(c => c.dataset.candidate)")]
    chosen = next(c for c in shown if c in derived)
    cell = page.locator(f"button.cell[data-candidate='{chosen}']")
    cell.focus()
    page.keyboard.press("Enter")
    page.locator(f".cell-detail li[data-candidate='{chosen}'] a").click()

    page.wait_for_url(re.compile(rf"#/candidates/{chosen}$"))
    candidate = api.get(f"/api/candidates/{chosen}").json()
    result = candidate["evaluations"][0]["result"]
    heading(page, candidate["number"])
    assert page.inner_text("[data-field=stage]") == result["stage"]
    assert page.inner_text("[data-field=archive_status]").startswith(candidate["evaluations"][0]["archive_status"])
    assert page.inner_text("tr[data-timing=kernel] [data-field=median_ms]") == \
        f"{to_precision(result['kernel']['median_ms'])} ms"
    assert page.inner_text("tr[data-timing=eager] [data-field=median_ms]") == \
        f"{to_precision(result['eager']['median_ms'])} ms"
    assert "not GPU speeds" in page.inner_text(".evaluation")
    # the kernel ran in Triton's interpreter; its baselines ran as PyTorch does on the CPU, not interpreted
    assert "Triton's interpreter" in page.inner_text("tr[data-timing=kernel]")
    for baseline in ("eager", "torch.compile"):
        row = page.locator(f"tr[data-timing='{baseline}']")
        if row.count():
            assert "on the CPU" in row.inner_text() and "interpret" not in row.inner_text(), baseline

    # the diff against the parent is the change between the two sources the API holds
    parent_ref = candidate["parents"][0]
    parent = api.get(f"/api/candidates/{parent_ref['id']}").json()
    diff = page.locator(f"section[data-parent='{parent['id']}'] .diff")
    added = sorted(t[2:] for t in diff.locator(".add").all_inner_texts())
    removed = sorted(t[2:] for t in diff.locator(".del").all_inner_texts())
    assert (added, removed) == changed_lines(parent["source"], candidate["source"]) and added

    # the lineage goes back to a seed, each step a link
    lineage = api.get(f"/api/candidates/{chosen}/lineage").json()
    steps = page.locator("ol.lineage li")
    assert steps.count() == len(lineage) and "the seed" in steps.last.inner_text()

    # the drop-in module downloads as the API serves it
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the drop-in module").click()
    assert Path(download.value.path()).read_text() == api.get(f"/api/candidates/{chosen}/module").text
    if screenshots:
        page.screenshot(path=str(screenshots / "dashboard-cpu-kernel.png"), full_page=True)

    # follow the parent
    page.locator(f"section[data-parent='{parent['id']}'] h2 a").click()
    page.wait_for_url(re.compile(rf"#/candidates/{parent['id']}$"))
    heading(page, parent["number"])
    assert page.locator(f"ol.lineage li[data-candidate='{chosen}']").count() == 0  # its own lineage now
    page.go_back()
    page.wait_for_url(re.compile(rf"#/candidates/{chosen}$"))

    assert all(url.startswith(server.url) or url.startswith(("blob:", "data:")) for url in requests), \
        [u for u in requests if not u.startswith(server.url)]  # nothing from another host


def test_a_spec_submitted_through_the_form_starts_a_run_that_progresses_live(server: Server, cpu_run: dict[str, Any],
                                                                             page: Any) -> None:
    page.goto(f"{server.url}/#/submit")
    page.get_by_role("button", name="Check the spec and start the run").click()
    assert "API token" in page.inner_text("[role=alert]")  # nothing is sent without a token
    page.fill("#token", server.token)
    page.press("#token", "Tab")
    page.set_input_files("#spec", str(GELU / "spec.py"))
    page.get_by_role("button", name="Check the spec and start the run").click()
    assert "seed.py" in page.locator("[role=alert]").inner_text()  # the server's reason: a seed is missing

    page.set_input_files("#seeds", [str(GELU / "seed.py"), str(GELU / "seed_persistent.py")])
    page.fill("#evaluations", "6")
    page.fill("#settings", json.dumps(CPU_RUN))
    page.get_by_role("button", name="Check the spec and start the run").click()
    page.wait_for_url(re.compile(r"#/runs/\d+$"), timeout=120_000)
    run_id = int(page.url.rsplit("/", 1)[1])
    # the run page's first render waits for four API replies while the new run's judge starts on the same
    # two cores: it took over 30 s (Playwright's default wait) once in a full test run
    page.wait_for_selector("h1 .badge, #view [role=alert]", timeout=120_000)
    alert = page.locator("#view [role=alert]")
    assert not alert.count() or not alert.first.inner_text().strip(), alert.first.inner_text()

    seen = []  # the evaluations tile while the run goes on: it moves without a reload
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        # the badge first: the last progress event and the status come together, and the tile read
        # after a "finished" badge is the last one (read before it, it could still be the one before)
        done = page.locator("h1 .badge").inner_text() == "finished"
        count = tile(page, "evaluations")
        if not seen or seen[-1] != count:
            seen.append(count)
        if done:
            break
        time.sleep(0.2)
    finished = server.client().get(f"/api/runs/{run_id}").json()
    assert finished["status"] == "finished" and finished["evaluations"] == 6
    assert seen[-1] == "6" and len(seen) >= 3, seen
    assert finished["config"]["budget"]["evaluations"] == 6 and finished["config"]["ray"] is False

    page.goto(f"{server.url}/#/")
    row = page.locator(f"tr[data-run='{run_id}']")
    assert "finished" in row.inner_text() and row.get_by_role("button", name=re.compile("resume")).is_enabled()


ILL_CONDITIONED = Path(__file__).parents[1] / "spec" / "specs" / "ill_conditioned.py"


def test_a_spec_whose_reference_misses_its_own_tolerance_is_warned_of_before_the_run_starts(
        server: Server, page: Any, tmp_path: Path) -> None:
    path = tmp_path / "cancels.py"
    path.write_text(ILL_CONDITIONED.read_text())
    page.goto(f"{server.url}/#/submit")
    page.fill("#token", server.token)
    page.press("#token", "Tab")
    page.set_input_files("#spec", str(path))
    page.fill("#evaluations", "2")
    page.fill("#settings", json.dumps(CPU_RUN))
    runs_before = server.client().get("/api/runs").json()["total"]
    page.get_by_role("button", name="Check the spec and start the run").click()
    warning = page.locator(".spec-warnings")
    warning.wait_for(timeout=120_000)
    assert "refuse this spec" in warning.inner_text() and '"atol"' in warning.inner_text()
    assert server.client().get("/api/runs").json()["total"] == runs_before  # nothing started yet
    page.get_by_role("button", name="Start the run anyway").click()
    page.wait_for_url(re.compile(r"#/runs/\d+$"), timeout=60_000)
    run = server.client().get(f"/api/runs/{int(page.url.rsplit('/', 1)[1])}").json()
    assert run["config"]["budget"]["evaluations"] == 2  # the form's run, started once the user chose to
    assert server.client().get("/api/runs").json()["total"] == runs_before + 1

    # a reference the judge only widens the default for (about 10x it from float64) asks nothing: the run starts
    path.write_text(ILL_CONDITIONED.read_text().replace("1e5", "1e4"))
    page.goto(f"{server.url}/#/submit")
    page.set_input_files("#spec", str(path))
    page.fill("#name", "somewhat-off")
    page.fill("#evaluations", "2")
    page.fill("#settings", json.dumps(CPU_RUN))
    page.get_by_role("button", name="Check the spec and start the run").click()
    page.wait_for_url(re.compile(r"#/runs/\d+$"), timeout=120_000)
    assert page.locator(".spec-warnings").count() == 0
    assert server.client().get("/api/runs").json()["total"] == runs_before + 2


def test_the_runs_table_sorts_and_filters(server: Server, cpu_run: dict[str, Any], page: Any) -> None:
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("tr[data-run]")
    ids = lambda: [int(r) for r in page.locator("tr[data-run]").evaluate_all(  # noqa: E731
        "rows => rows.map(r => r.dataset.run)")]
    newest_first = ids()
    assert newest_first == sorted(newest_first, reverse=True)
    page.get_by_role("button", name=re.compile("^Run")).click()  # the same column again: oldest first
    assert ids() == sorted(newest_first)
    page.fill("input[type=search]", "no-such-spec")
    assert page.locator("tr[data-run]").count() == 0 and "No run matches" in page.inner_text("table")
    page.fill("input[type=search]", "")
    page.select_option("select[aria-label=status]", "finished")
    assert set(ids()) <= set(newest_first) and cpu_run["id"] in ids()


def test_empty_and_error_states_read_plainly(server: Server, cpu_run: dict[str, Any], page: Any) -> None:
    page.goto(f"{server.url}/#/runs/987654")
    assert "no run 987654" in page.locator("[role=alert]").inner_text()
    page.goto(f"{server.url}/#/no/such/page")
    assert "No such page" in page.inner_text("#view")
    with server.client() as client:  # a run that could not start: failed, with its reason
        spec_id = client.post("/api/specs", json=gelu_spec_body()).json()["id"]
        refused = client.post("/api/runs", json={"spec_id": spec_id, "config": {  # the API refuses what cannot run
            **CPU_RUN, "evaluation": {"device": "cuda:99"}, "budget": {"evaluations": 2}}})
        assert refused.status_code == 422 and "GPU" in refused.json()["detail"]
        db = open_database(f"sqlite:///{server.db_path}")  # a driver that died at its start, as the launcher records it
        with db.session() as session:
            bad = {"id": create_run(session, spec_id=spec_id, config={**CPU_RUN}, owner="test",
                                    status=RunStatus.FAILED).id}
            get_run(session, bad["id"]).stop_reason = ("the run's driver ended before finishing it (exit status 1: "
                                                       "RuntimeError: CUDA error: no kernel image is available)")
        db.dispose()
        failed = client.get(f"/api/runs/{bad['id']}").json()
    assert failed["status"] == "failed"
    page.goto(f"{server.url}/#/runs/{bad['id']}")
    page.wait_for_selector("h1 .badge")
    assert page.locator("[role=alert]").first.inner_text() == f"run failed: {failed['stop_reason']}"
    assert "No elites yet" in page.inner_text("#view")
    assert "no correct kernel yet" in page.locator("svg[data-chart=speedup]").inner_html()


def test_the_main_pages_fit_a_laptop_screen_and_make_the_readme_screenshots(
        server: Server, cpu_run: dict[str, Any], page: Any, screenshots: Path | None,
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The runs, run, kernel, evaluations, rejected and comparison pages at 1280 px and at 1024 px wide, with no
    sideways scrolling.

    With KERNELEVO_SCREENSHOTS set they are saved there (docs/ for the README); with
    KERNELEVO_SCREENSHOT_DB too, over that database (a copy): its GPU run with the most evaluations,
    compared with another run of its spec (else the next largest GPU run), its best kernel against its
    second best. The rejected page is shot only when that run rejected some.
    """
    source_db = os.environ.get("KERNELEVO_SCREENSHOT_DB")
    if source_db:
        folder = tmp_path_factory.mktemp("screenshots")
        shutil.copy(source_db, folder / "kernelevo.db")
        serving = start_server(folder, "--no-launch")
        shown = next(serving)
    else:
        serving, shown = None, server
    try:
        with shown.client() as client:
            runs = client.get("/api/runs", params={"limit": 500}).json()["items"]
            ranked = sorted(runs, key=lambda r: (not r["interpreted"], r["evaluations"]), reverse=True)
            run = ranked[0] if source_db else cpu_run
            others = [r for r in ranked if r["id"] != run["id"]]
            other = next((r for r in others if r["spec_name"] == run["spec_name"]), others[0] if others else None)
            elites = client.get(f"/api/runs/{run['id']}/archive").json()["hardware"][0]["elites"]
            rejected = client.get(f"/api/runs/{run['id']}/rejected", params={"limit": 1}).json()["rejected"]
        best = elites[0]
        pages = {"runs": ("#/", "tr[data-run]"), "run": (f"#/runs/{run['id']}", "button.cell"),
                 "kernel": (f"#/candidates/{best['candidate_id']}", "pre.code"),
                 "evaluations": (f"#/runs/{run['id']}/evaluations", "table.evaluations")}
        if rejected:
            pages["rejected"] = (f"#/runs/{run['id']}/rejected", "table.rejected")
        if len(elites) > 1:
            pages["compare-kernels"] = (f"#/compare/candidates/{elites[1]['candidate_id']}/{best['candidate_id']}",
                                        "table.timings")
        if other:
            pages["compare-runs"] = (f"#/compare/runs/{run['id']}/{other['id']}", "table.runs")
        for width in (1024, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            for name, (route, ready) in pages.items():
                page.goto(f"{shown.url}/{route}")
                page.wait_for_selector(ready)
                if name == "run":  # the scatter loads its points when it comes into view
                    page.locator("canvas.scatter").scroll_into_view_if_needed()
                    page.wait_for_selector("canvas.scatter[data-points]")
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, f"the {name} page scrolls sideways by {overflow} px at {width} px"
                if screenshots and width == 1280:
                    if name == "run":
                        page.locator("button.cell").first.click()
                    page.screenshot(path=str(screenshots / f"dashboard-{name}.png"),
                                    full_page=name not in ("kernel", "evaluations", "rejected", "compare-kernels"))
    finally:
        if serving is not None:
            serving.close()


def test_an_llm_run_shows_its_meta_prompts_models_and_token_costs(page: Any, llm_server: Any,
                                                                  tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A real search with LLM operators (litellm against a scripted OpenAI-compatible server), browsed."""
    import asyncio

    from llm_server import kernel_responder

    from kernelevo.driver import start_search
    from kernelevo.evaluation import EvalOptions
    from kernelevo.records.run_config import Budget, LLMConfig, RunConfig
    from kernelevo.spec import read_spec
    from kernelevo.storage.database import open_database

    llm_server.responder = kernel_responder((GELU / "seed.py").read_text())
    monkeypatch.setenv("KERNELEVO_TEST_KEY", "sk-test")
    db = open_database(f"sqlite:///{tmp_path / 'kernelevo.db'}")
    llm = LLMConfig(model="openai/gpt-4o-mini", api_base=llm_server.base_url, api_key_env="KERNELEVO_TEST_KEY",
                    max_retries=0)
    config = RunConfig(budget=Budget(evaluations=10), evaluation=EvalOptions(device="cpu"), ray=False, llm=llm,
                       evolve_prompts_every=3, in_flight=3)
    search = start_search(db, read_spec(str(GELU / "spec.py")), config, out=tmp_path / "run")
    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop holds this thread
        run_id = thread.submit(asyncio.run, search).result().run_id
    db.dispose()

    for server in start_server(tmp_path, "--no-launch"):
        api = server.client()
        prompts = api.get("/api/prompts", params={"run": run_id}).json()
        evolved = next(p for p in prompts if p["parent_number"] is not None)
        page.goto(f"{server.url}/#/runs/{run_id}/prompts")
        page.wait_for_selector("article.prompt")
        assert page.locator("article.prompt").count() == len(prompts)
        card = page.locator(f"article[data-prompt='{evolved['number']}']")
        assert f"from #{evolved['parent_number']} by {evolved['mutation']}" in card.inner_text()
        text = next(iter(evolved["sections"].values()))
        assert card.locator("details").first.locator("pre").inner_text() == text
        card.get_by_role("button", name=f"#{evolved['parent_number']}").click()  # to its parent
        assert page.evaluate("document.activeElement.dataset.prompt") == str(evolved["parent_number"])

        stats = {o["operator"]: o for o in api.get(f"/api/runs/{run_id}/operators").json()["operators"]}
        page.goto(f"{server.url}/#/runs/{run_id}")
        page.wait_for_selector("table.operators")
        for name, row in stats.items():
            shown = page.locator(f"tr[data-operator='{name}'] td").all_inner_texts()
            assert shown[1] == f"{row['candidates']:,}" and shown[6] == f"{row['tokens']:,}", (name, shown)
        assert tile(page, "tokens") == f"{api.get(f'/api/runs/{run_id}').json()['tokens']:,}"

        # An LLM-made kernel need not have become an elite in ten evaluations: look at them all.
        evaluated = api.get(f"/api/runs/{run_id}").json()["evaluations"]
        candidate = next(c for c in (api.get(f"/api/runs/{run_id}/candidates/{n}").json() for n in range(evaluated))
                         if c["operator"].startswith("llm"))
        page.goto(f"{server.url}/#/candidates/{candidate['id']}")
        page.wait_for_selector("pre.code")
        assert "openai/gpt-4o-mini" in page.inner_text(".side") and candidate["model"] == "openai/gpt-4o-mini"
        assert f"#{candidate['prompt']['number']}" in page.inner_text(".side")


# -- a long run: 10,000 candidates ------------------------------------------------------------------

def record_timing(name: str, values: list[float]) -> None:
    """Print what was measured; KERNELEVO_TIMINGS_OUT collects it (benchmarks/dashboard_speed.py)."""
    print(f"{name}: " + ", ".join(f"{v:.3f} s" for v in values))
    if os.environ.get("KERNELEVO_TIMINGS_OUT"):
        with open(os.environ["KERNELEVO_TIMINGS_OUT"], "a") as out:
            out.write(json.dumps({"measure": name, "seconds": values}) + "\n")


@pytest.fixture(scope="module")
def long_run(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server (launching nothing) over a database holding a running run of 10,000 evaluated candidates,
    whose lease this test process holds, as its driver would."""
    from synthetic_run import write_run

    from kernelevo.storage.database import open_database, utcnow
    from kernelevo.storage.runs import acquire_lease, get_run, lease_owner_name

    folder = tmp_path_factory.mktemp("long-run")
    db = open_database(f"sqlite:///{folder / 'kernelevo.db'}")
    # one progress event per evaluation, as in a real run; a hundred evaluations a transaction, as a busy driver
    written = write_run(db, 10_000, progress_every=1, batch=100)
    with db.session() as session:
        acquire_lease(session, written["run_id"], lease_owner_name())
        row = get_run(session, written["run_id"])
        row.status, row.started_at = "running", utcnow()
    for server in start_server(folder, "--no-launch"):
        yield server, db, written
    db.dispose()


def test_a_run_of_ten_thousand_candidates_loads_fast_and_shows_a_new_evaluation_at_once(long_run: Any,
                                                                                           page: Any) -> None:
    from playwright.sync_api import expect
    from synthetic_run import gpu_result, snapshot

    from kernelevo.records.candidate import Candidate

    server, _, written = long_run
    run_id, state, recorder = written["run_id"], written["state"], written["recorder"]
    loads, scatters = [], []
    for _ in range(3):  # to interactive: the archive drawn and a click on a cell answered
        started = time.perf_counter()
        page.goto(f"{server.url}/#/runs/{run_id}")
        page.locator("button.cell").first.click()
        page.wait_for_selector(".cell-detail li")
        loads.append(time.perf_counter() - started)
        page.locator("canvas.scatter").scroll_into_view_if_needed()  # it loads its points when seen
        page.wait_for_selector("canvas.scatter[data-points='10000']")
        scatters.append(time.perf_counter() - started)
        page.goto("about:blank")
    record_timing("run page of 10,000 candidates to interactive", loads)
    record_timing("run page of 10,000 candidates until its scatter, scrolled to then, shows every evaluation",
                  scatters)
    page.goto(f"{server.url}/#/runs/{run_id}")
    assert tile(page, "evaluations") == "10,000"
    assert page.locator("h1 .badge").inner_text() == "running"
    assert page.locator("button.cell").count() > 50  # the archive holds elites across many cells
    page.locator("canvas.scatter").scroll_into_view_if_needed()
    page.wait_for_selector("canvas.scatter[data-points='10000']")

    shown = []
    for n in range(10_000, 10_003):  # a new evaluation written to the database, as the driver writes it
        candidate = Candidate(id=n, source=f"# kernel {n}\n", operator="template", parent_ids=[n - 1])
        state.add_candidate(candidate)
        started = time.perf_counter()
        recorder.add_candidate(candidate)
        recorder.add_evaluations([state.tell(candidate, "h100", gpu_result(n))])
        recorder.progress(snapshot(state, n), force=True)
        # a function, not an expression: Playwright polls an expression with eval, which the page's CSP forbids
        page.wait_for_function(f"() => document.querySelector('[data-tile=evaluations] .value').textContent === "
                               f"'{n + 1:,}'", timeout=30_000)
        shown.append(time.perf_counter() - started)
    record_timing("a new evaluation until the open run page shows it", shown)
    # the scatter follows too, asking only for the evaluations after the last it has
    page.wait_for_selector("canvas.scatter[data-points='10003']", timeout=15_000)

    # a kernel's page names the floor its roofline fraction is of (GELU reads what it writes: a copy's)
    page.goto(f"{server.url}/#/candidates/{n}")
    fraction = gpu_result(n).roofline.fraction
    expect(page.locator("[data-field=roofline]")).to_have_text(f"{math.floor(100 * fraction + 0.5)}% (copy)",
                                                               timeout=15_000)
    assert "the copy floor (512.0 MiB read, 512.0 MiB written" in page.inner_text("[data-field=roofline_floor]")
    assert page.locator("[data-field=tolerance]").count() == 0  # judged at the default: nothing to say

    # a kernel judged at a tolerance the judge widened says at which, from what, and why
    from kernelevo.records.result import Tolerance

    n += 1
    widened = Tolerance(variant="default", dtype="float32", atol=2e-3, rtol=2e-3, default=1e-4,
                        reference_error=9.32, why="TF32 convolutions")
    candidate = Candidate(id=n, source=f"# kernel {n}\n", operator="template", parent_ids=[n - 1])
    state.add_candidate(candidate)
    recorder.add_candidate(candidate)
    result = gpu_result(n).model_copy(update={"tolerances": [widened]})
    recorder.add_evaluations([state.tell(candidate, "h100", result)])
    recorder.progress(snapshot(state, n), force=True)
    recorder.commit()
    recorder.sync()
    page.goto(f"{server.url}/#/runs/{run_id}/candidates/{n}")  # by its number in the run
    expect(page.locator("[data-field=tolerance]")).to_have_text(
        "default: atol = rtol = 0.002, widened from 0.0001 (the reference is 9.32x that from float64: TF32 "
        "convolutions)", timeout=15_000)
