"""``ray job submit`` against a real Ray head on 127.0.0.1, with token authentication on."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from kernelevo.storage.database import open_database
from kernelevo.storage.recorder import load_run

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
RAY = str(Path(sys.executable).parent / "ray")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_head():
    """A Ray head in a session of its own (so stopping it stops nothing else), one logical GPU; the
    module's tests share it, as a cluster's users do (a head takes tens of seconds to start on 2 cores)."""
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16)}
    env.pop("RAY_ADDRESS", None)
    # every port its own: the session's local Ray (tests/distributed/conftest.py) holds Ray's default
    # agent port, and a second agent that cannot bind it never takes jobs ("No available agent")
    gcs, dashboard, agent = free_port(), free_port(), free_port()
    # a temporary folder of its own: its job supervisor finds the cluster a job's driver joins through the
    # folder's ray_current_cluster, which any other `ray start` on the machine rewrites (a driver sent to
    # another test's head, long gone, waited for it until the test's time ran out)
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's sockets live beneath it
    head = subprocess.Popen(
        [RAY, "start", "--head", "--block", f"--port={gcs}", f"--temp-dir={temp}", "--dashboard-host=127.0.0.1",
         f"--dashboard-port={dashboard}", f"--dashboard-agent-listen-port={agent}", "--num-gpus=1",
         "--disable-usage-stats", "--include-dashboard=true"],
        env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    address = f"http://127.0.0.1:{dashboard}"
    deadline = time.monotonic() + 180
    # up once a job can be submitted: the job list answers before the node's job agent has
    # registered ("No available agent to submit job, please try again later"), on a loaded machine
    # for long enough to fail a submission
    probe = [RAY, "job", "submit", "--address", address, "--no-wait", "--", "true"]
    while time.monotonic() < deadline:
        ready = subprocess.run(probe, env=env, capture_output=True, text=True, timeout=60)
        if ready.returncode == 0:
            break
        time.sleep(1)
    else:
        os.killpg(head.pid, signal.SIGKILL)
        started = head.communicate(timeout=30)[0].decode(errors="replace")
        pytest.fail(f"the Ray head did not come up; the last probe said:\n{(ready.stdout + ready.stderr)[-2000:]}\n"
                    f"the head said:\n{started[-2000:]}")
    yield address, env
    os.killpg(head.pid, signal.SIGTERM)
    try:
        head.wait(timeout=5)  # a throwaway head: its graceful shutdown took half a minute on 2 cores
    except subprocess.TimeoutExpired:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=30)
    shutil.rmtree(temp, ignore_errors=True)


def test_ray_job_submit_runs_a_search(ray_head, tmp_path: Path) -> None:
    address, env = ray_head
    out, path = tmp_path / "run", tmp_path / "kernelevo.db"
    entrypoint = [sys.executable, "-m", "kernelevo.cli", "run", "examples/gelu/spec.py", "--device", "cpu",
                  "--budget", "evals=4", "--out", str(out), "--db", str(path)]
    done = subprocess.run([RAY, "job", "submit", "--address", address, "--working-dir", str(ROOT), "--", *entrypoint],
                          env=env, capture_output=True, text=True, timeout=900)
    logs = done.stdout + done.stderr
    assert done.returncode == 0, logs[-4000:]
    assert "succeeded" in logs
    assert "Ray at " in logs and "evaluator actor(s)" in logs  # attached to the head, not a local Ray
    assert "kernelevo.progress" in logs and "evaluations: 4 / 4" in logs  # progress lines in the job's logs
    assert len(load_run(open_database(f"sqlite:///{path}"), 1).evaluations) == 4


def test_job_without_the_token_is_refused(ray_head) -> None:
    address, env = ray_head
    wrong = {**env, "RAY_AUTH_TOKEN": "not-the-token"}
    done = subprocess.run([RAY, "job", "list", "--address", address], env=wrong, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0 and "token" in (done.stdout + done.stderr).lower()


def test_a_run_submitted_to_the_api_starts_as_a_ray_job(ray_head, tmp_path: Path) -> None:
    """With a Ray address configured, the API's launcher submits the run's driver as a Ray job."""
    from api_server import gelu_spec_body, start_server

    address, env = ray_head
    server_env = {**env, "KERNELEVO_RAY_ADDRESS": address}
    for server in start_server(tmp_path, env=server_env):
        with server.client() as client:
            spec_id = client.post("/api/specs", json=gelu_spec_body()).json()["id"]
            run = client.post("/api/runs", json={"spec_id": spec_id, "config": {
                "budget": {"evaluations": 3}, "evaluation": {"device": "cpu"}, "ray": False}}).json()
            deadline = time.monotonic() + 600
            info = run
            while time.monotonic() < deadline and info["status"] not in ("finished", "failed"):
                time.sleep(1)
                info = client.get(f"/api/runs/{run['id']}").json()
            assert info["status"] == "finished", info
            assert info["driver"].startswith("pid") and info["evaluations"] == 3
        jobs = subprocess.run([RAY, "job", "list", "--address", address], env=env, capture_output=True, text=True,
                              timeout=120)
        assert "kernelevo.cli run --resume" in jobs.stdout and "SUCCEEDED" in jobs.stdout
