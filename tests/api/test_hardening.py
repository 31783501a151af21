"""The API's faults found by a new user, each over real HTTP against ``kernelevo serve``: injection through
names and query parameters, paths from names, blocking under load, an endless event stream, docs from a
CDN, unchecked devices, a resumed run marked failed, invented archive entries, times without a zone,
security declared on open reads, and no route to the best kernel."""

from __future__ import annotations

import ast
import asyncio
import json
import re
import threading
import time
from pathlib import Path

import httpx
import pytest
from api_server import ROOT, Server
from synthetic_run import gpu_result, write_run

from kernelevo.records.candidate import Candidate, Evaluated
from kernelevo.records.run import RunStatus
from kernelevo.spec.names import NAME_RULE
from kernelevo.storage.database import Database, open_database
from kernelevo.storage.export import _strip_docstring
from kernelevo.storage.recorder import RunRecorder
from kernelevo.storage.runs import create_run
from kernelevo.storage.tables import CandidateRow, RunRow, SpecRow

pytestmark = pytest.mark.slow
HOSTILE = ['x""";print("NAME INJECTED");"""', "/etc/passwd", "../../../../tmp/abs_trav", "a\nb", "", "a b"]
UTC = re.compile(r"(Z|\+00:00)$")


@pytest.fixture(scope="module")
def db(quiet_server: Server) -> Database:
    database = open_database(f"sqlite:///{quiet_server.db_path}")
    yield database
    database.dispose()


@pytest.fixture(scope="module")
def run(db: Database) -> dict[str, int]:
    """A run of 40 evaluated candidates with elites on h100, its spec stored under a name from before names
    were checked (a path with quotes and a newline), as an old database may hold."""
    run_id = write_run(db, 40)["run_id"]
    with db.session() as session:
        row = session.get(RunRow, run_id)
        gelu = session.get(SpecRow, row.spec_id)
        legacy = SpecRow(name='/tmp/abs_trav/x""";\nprint(1)', sha256="f" * 64, source=gelu.source + "\n# legacy\n",
                         settings=gelu.settings, seeds=[], report=None, created_at=gelu.created_at)
        session.add(legacy)
        session.flush()
        row.spec_id = legacy.id
        best = session.query(CandidateRow).filter_by(run_id=run_id).order_by(CandidateRow.number.desc()).first()
        return {"run_id": run_id, "spec_id": legacy.id, "candidate_id": best.id}


def test_spec_names_are_one_slug_and_bad_ones_get_the_rule(quiet_server: Server) -> None:
    with quiet_server.client() as client:
        for bad in HOSTILE:
            response = client.post("/api/specs", json={"source": "import torch\n", "name": bad})
            assert response.status_code == 422 and NAME_RULE in response.json()["detail"], (bad, response.text)
        listed = client.get("/api/specs", params={"name": "x" * 300})
        assert listed.status_code == 422


def test_the_module_download_is_the_candidate_behind_comments(quiet_server: Server, run: dict[str, int]) -> None:
    with httpx.Client(base_url=quiet_server.url) as client:  # reads are open: no token
        injected = client.get(f"/api/candidates/{run['candidate_id']}/module",
                              params={"hardware": '"""\nimport os\nos._exit(3)\n"""'})
        assert injected.status_code == 422 and "h100" in injected.json()["detail"]
        module = client.get(f"/api/candidates/{run['candidate_id']}/module", params={"hardware": "h100"})
        assert module.status_code == 200, module.text
        filename = re.fullmatch(r'attachment; filename="([A-Za-z0-9_.-]+)"', module.headers["content-disposition"])
        assert filename and filename.group(1).endswith(".py") and "/" not in filename.group(1)
        header = module.text.split("\n\n", 1)[0]
        assert header.isascii() and all(line.startswith("# ") for line in header.splitlines())
        assert json.loads(header.splitlines()[2].removeprefix("# spec: ")) == '/tmp/abs_trav/x""";\nprint(1)'
        source = client.get(f"/api/candidates/{run['candidate_id']}").json()["source"]
        assert ast.dump(ast.parse(module.text)) == ast.dump(ast.parse(_strip_docstring(source)))
    assert not Path("/tmp/abs_trav").exists() or not any(Path("/tmp/abs_trav").rglob("best.py"))


def test_query_parameters_name_known_values_and_the_best_route(quiet_server: Server, run: dict[str, int],
                                                               db: Database) -> None:
    run_id = run["run_id"]
    with quiet_server.client() as client:
        for route in ("archive", "best"):
            unknown = client.get(f"/api/runs/{run_id}/{route}", params={"hardware": "<b>"})
            assert unknown.status_code == 422 and "h100" in unknown.json()["detail"]
        archive = client.get(f"/api/runs/{run_id}/archive", params={"hardware": "h100"}).json()
        assert [h["hardware"] for h in archive["hardware"]] == ["h100"]
        best = client.get(f"/api/runs/{run_id}/best")
        assert best.status_code == 200
        (top,) = best.json()
        fastest = max(archive["hardware"][0]["elites"], key=lambda e: e["objective"])
        assert top["hardware"] == "h100" and top["elite"]["candidate_id"] == fastest["candidate_id"]
        assert client.get(top["module_url"]).status_code == 200
        with db.session() as session:
            empty_id = create_run(session, spec_id=run["spec_id"], config={}, owner="test").id
        assert client.get(f"/api/runs/{empty_id}/best").json() == []
        assert client.get(f"/api/runs/{empty_id}/archive").json()["hardware"] == []
        assert client.get("/api/runs", params={"status": "sideways"}).status_code == 422
        tagged = client.get(f"/api/runs/{run_id}/archive")
        again = client.get(f"/api/runs/{run_id}/archive", headers={"If-None-Match": tagged.headers["etag"]})
        assert again.status_code == 304 and not again.content


def test_times_carry_their_zone(quiet_server: Server, run: dict[str, int]) -> None:
    with quiet_server.client() as client:
        assert all(UTC.search(s["created_at"]) for s in client.get("/api/specs").json()["items"])
        assert UTC.search(client.get(f"/api/specs/{run['spec_id']}").json()["created_at"])
        assert UTC.search(client.get(f"/api/runs/{run['run_id']}").json()["created_at"])


def test_run_settings_are_checked_and_a_gpu_run_is_refused_without_a_gpu(quiet_server: Server, run: dict[str, int],
                                                                         db: Database) -> None:
    spec_id = run["spec_id"]
    with quiet_server.client() as client:
        for device in ("tpu", "cuda:x", "cpu; rm -rf /"):
            response = client.post("/api/runs", json={"spec_id": spec_id, "config": {"evaluation": {"device": device}}})
            assert response.status_code == 422 and "device" in response.json()["detail"]
        gpu = client.post("/api/runs", json={"spec_id": spec_id, "config": {"evaluation": {"device": "cuda"}}})
        assert gpu.status_code == 422 and "needs a GPU" in gpu.json()["detail"]
        assert client.post("/api/runs", json={"spec_id": spec_id, "config": {"descriptors": "nope"}}).status_code == 422
        made = client.post("/api/runs", json={"spec_id": spec_id, "config": {"evaluation": {"device": "cpu"},
                                                                             "ray": False}})
        assert made.status_code == 201
        assert Path(made.json()["out_dir"]).parent == quiet_server.data_dir / "runs"  # the name, slugified
        with db.session() as session:  # a finished CPU run
            row = session.get(RunRow, made.json()["id"])
            row.status, row.finished_at = RunStatus.FINISHED.value, row.created_at
        resumed = client.post(f"/api/runs/{row.id}/resume", json={"config": {"evaluation": {"device": "cuda"}}})
        assert resumed.status_code == 422 and "needs a GPU" in resumed.json()["detail"]
        after = client.get(f"/api/runs/{row.id}").json()
        assert after["status"] == "finished" and after["config"]["evaluation"]["device"] == "cpu"
        kept = client.post(f"/api/runs/{row.id}/resume", json={"config": {"evaluation": {"runtime_checks": False}}})
        assert kept.status_code == 200 and kept.json()["config"]["evaluation"]["device"] == "cpu"
        assert not kept.json()["config"]["evaluation"]["runtime_checks"]
        for text in ("a\ud800b", "a\x00b"):  # JSON can carry both; no database stores them
            body = json.dumps({"source": f"import torch\n{text}\n"}).encode()
            response = client.post("/api/specs", content=body, headers={"content-type": "application/json"})
            assert response.status_code == 422, response.text


def test_the_event_stream_ends_when_the_run_ends(quiet_server: Server, run: dict[str, int], db: Database) -> None:
    with quiet_server.client() as client:
        with db.session() as session:
            session.get(RunRow, run["run_id"]).status = RunStatus.FINISHED.value
        started = time.monotonic()
        kinds = [line.removeprefix("event: ") for line in _stream(client, run["run_id"]) if line.startswith("event: ")]
        assert kinds[-2:] == ["status", "end"] and kinds.count("progress") >= 1 and time.monotonic() - started < 10
        queued = client.post("/api/runs", json={"spec_id": run["spec_id"], "config": {"evaluation": {"device": "cpu"}}})
        queued_id = queued.json()["id"]
        seen: list[str] = []
        reader = threading.Thread(target=lambda: seen.extend(_stream(quiet_server.client(), queued_id)))
        reader.start()
        time.sleep(1.5)
        assert reader.is_alive()  # a queued run's stream waits
        assert client.post(f"/api/runs/{queued_id}/stop").json()["status"] == "stopped"
        reader.join(timeout=10)
        assert not reader.is_alive() and seen[-2:] == ["event: end", 'data: {"status": "stopped", "stop_reason": '
                                                                      '"stopped before it started", "stop_kind": '
                                                                      '"stopped_before_start"}']


def _stream(client: httpx.Client, run_id: int) -> list[str]:
    with client.stream("GET", f"/api/runs/{run_id}/events", timeout=30) as stream:
        return [line for line in stream.iter_lines() if line]


def test_openapi_declares_what_the_server_does(quiet_server: Server) -> None:
    with quiet_server.client() as client:
        document = client.get("/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert bool(operation.get("security")) == (method == "post"), (method, path)
            if "requestBody" in operation:
                assert {"400", "422"} <= set(operation["responses"]), (method, path)
    device = document["components"]["schemas"]["EvalOptionsBody"]["properties"]["device"]
    assert re.fullmatch(device["pattern"], "cuda:1") and not re.fullmatch(device["pattern"], "tpu")
    assert "/api/runs/{run_id}/best" in document["paths"]


def test_docs_come_from_the_server_with_a_csp_and_a_host_allow_list(quiet_server: Server) -> None:
    with quiet_server.client() as client:
        for page in ("/docs", "/redoc"):
            html = client.get(page)
            assert html.status_code == 200 and "script-src 'self'" in html.headers["content-security-policy"]
            assert "http" not in html.text  # no CDN
            for asset in re.findall(r'(?:src|href)="(/[^"]+)"', html.text):
                assert client.get(asset).status_code == 200, asset
        assert "default-src 'self'" in client.get("/").headers["content-security-policy"]
        assert client.get("/api/health", headers={"Host": "attacker.example"}).status_code == 400
        assert client.get("/api/health", headers={"Host": "localhost:8321"}).status_code == 200


def test_a_hundred_pollers_while_a_run_writes(quiet_server: Server, db: Database, run: dict[str, int]) -> None:
    """The load that ran the pool dry (20 pollers: timeouts, QueuePool errors), five times over, briefly."""
    run_id = run["run_id"]
    stop = threading.Event()

    def writer() -> None:
        recorder, i = RunRecorder(db, run_id), 1000
        seed = (ROOT / "examples" / "gelu" / "seed.py").read_text()
        while not stop.is_set():
            recorder.add_candidate(Candidate(id=i, source=seed + f"\n# {i}\n", operator="template", parent_ids=[0]))
            recorder.add_evaluations([Evaluated(candidate_id=i, hardware="h100", result=gpu_result(i), cell=i % 64,
                                                objective=1 + i * 1e-3, measures=[1.0, 1.0, 1.0],
                                                archive_status="improved")])
            i += 1
            time.sleep(0.05)

    async def pollers() -> tuple[list[float], list[str]]:
        import aiohttp  # a lean client: httpx's own cost, 100 connections on these 2 cores, blurs the server's

        took: list[float] = []
        errors: list[str] = []
        deadline = time.monotonic() + 6
        paths = [f"/api/runs/{run_id}", f"/api/runs/{run_id}/archive", f"/api/runs/{run_id}/best"]

        async def poll(session: aiohttp.ClientSession, n: int) -> None:
            k = n
            await asyncio.sleep(n / 100)  # a dashboard each, polling once a second, spread over the second
            while time.monotonic() < deadline:
                started, path = time.monotonic(), paths[k % 3]
                try:
                    async with session.get(quiet_server.url + path) as response:
                        await response.read()
                        if response.status != 200:
                            errors.append(f"{path}: {response.status}")
                except (aiohttp.ClientError, TimeoutError) as exc:
                    errors.append(f"{path}: {type(exc).__name__}")
                took.append(time.monotonic() - started)
                k += 1
                await asyncio.sleep(max(0.0, 1 - took[-1]))

        connector = aiohttp.TCPConnector(limit=100)
        async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=20)) as session:
            await asyncio.gather(*(poll(session, n) for n in range(100)))
        return took, errors

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        took, errors = asyncio.run(pollers())
    finally:
        stop.set()
        thread.join()
    assert not errors, errors[:10]
    assert len(took) >= 400 and max(took) < 10, (len(took), max(took))
    log = (quiet_server.data_dir / "server.log").read_text()
    assert "QueuePool" not in log and "Traceback" not in log


def test_closed_reads_need_a_token_and_say_so(tmp_path_factory: pytest.TempPathFactory) -> None:
    from api_server import start_server

    for server in start_server(tmp_path_factory.mktemp("closed"), "--no-launch",
                               env={"KERNELEVO_API_READS_OPEN": "false"}):
        assert httpx.get(f"{server.url}/api/runs").status_code == 401
        assert httpx.get(f"{server.url}/api/runs", headers={"Authorization": "Bearer kev_wrong"}).status_code == 401
        with server.client() as client:
            assert client.get("/api/runs").status_code == 200
            document = client.get("/openapi.json").json()
        assert all(bool(operation.get("security")) == (path != "/api/health")
                   for path, operations in document["paths"].items() for operation in operations.values())
        assert httpx.get(f"{server.url}/api/health").status_code == 200
