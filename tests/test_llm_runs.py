"""LLM runs as a user meets them: a model that cannot work stops the run before it starts, or as
soon as it breaks, with a one-line reason; several models share a run; flags compose; bad
arguments are named. Every case goes through ``kernelevo run`` against real HTTP servers on
127.0.0.1 (or a closed port), and checks the exit code, the message and what is on disk."""

from __future__ import annotations

import itertools
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_server import Reply, ScriptedLLMServer, kernel_responder

ROOT = Path(__file__).resolve().parent.parent
GELU = ROOT / "examples" / "gelu"
ANSI = "\x1b["


def kernelevo(tmp_path: Path, *args: str, env: dict[str, str] | None = None,
              timeout: float = 300) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    environment.update({"LITELLM_LOCAL_MODEL_COST_MAP": "True", "COLUMNS": "200", **(env or {})})
    return subprocess.run([sys.executable, "-m", "kernelevo.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=tmp_path, env=environment)


def run_args(tmp_path: Path, *extra: str, evals: int = 6) -> list[str]:
    return ["run", str(GELU / "spec.py"), "--db", str(tmp_path / "runs.db"), "--out", str(tmp_path / "out"),
            "--no-ray", "--device", "cpu", "--plain", "--budget", f"evals={evals}", *extra]


def runs_in(tmp_path: Path) -> list[dict[str, Any]]:
    db = tmp_path / "runs.db"
    if not db.exists():
        return []
    with sqlite3.connect(db) as conn:
        tables = {row[0] for row in conn.execute("select name from sqlite_master where type='table'")}
        if "runs" not in tables:
            return []
        conn.row_factory = sqlite3.Row
        return [dict(row) for row in conn.execute("select * from runs")]


def nothing_written(tmp_path: Path) -> bool:
    return not (tmp_path / "runs.db").exists() and not (tmp_path / "out").exists()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def servers() -> Iterator[list[ScriptedLLMServer]]:
    made: list[ScriptedLLMServer] = []
    yield made
    for server in made:
        server.close()


def good_server(servers: list[ScriptedLLMServer]) -> ScriptedLLMServer:
    server = ScriptedLLMServer()
    server.responder = kernel_responder((GELU / "seed.py").read_text())
    servers.append(server)
    return server


# -- before the run: one line, exit 2, nothing written ---------------------------------------------

def test_api_base_without_a_key_fails_before_the_run(tmp_path: Path, servers: list[ScriptedLLMServer]) -> None:
    server = good_server(servers)
    done = kernelevo(tmp_path, *run_args(tmp_path, "--model", "openai/test-model", "--api-base", server.base_url))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"no API key was sent to {server.base_url}" in done.stderr and "--api-key-env" in done.stderr
    assert "Traceback" not in done.stderr and nothing_written(tmp_path)


def test_a_server_that_is_not_running_is_named(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    done = kernelevo(tmp_path, *run_args(tmp_path, "--model", "openai/test-model", "--api-base", url,
                                         "--api-key-env", "TEST_KEY"), env={"TEST_KEY": "sk-test"})
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"cannot reach {url}" in done.stderr and "is the server running" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and nothing_written(tmp_path)


def test_an_unknown_model_is_named_without_colour_codes(tmp_path: Path) -> None:
    done = kernelevo(tmp_path, *run_args(tmp_path, "--model", "nonexistent/foo"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "nonexistent/foo" in done.stderr and nothing_written(tmp_path)
    assert ANSI not in done.stdout + done.stderr


def test_a_refused_key_is_named(tmp_path: Path, servers: list[ScriptedLLMServer]) -> None:
    server = ScriptedLLMServer()
    servers.append(server)
    server.responder = lambda request: Reply(status=401)
    done = kernelevo(tmp_path, *run_args(tmp_path, "--model", "openai/test-model", "--api-base", server.base_url,
                                         "--api-key-env", "TEST_KEY"), env={"TEST_KEY": "sk-wrong"})
    assert done.returncode == 2 and "refused by" in done.stderr and "$TEST_KEY" in done.stderr, done.stderr
    assert len(server.requests) == 1 and nothing_written(tmp_path)  # a refused key is not retried


@pytest.mark.parametrize(("args", "message"), [
    (["run", str(GELU)], "is a directory"),
    (["run", "gelu"], "'gelu' was not found"),
    (["run", str(GELU / "spec.py"), "--budget", "evals=abc"], "evals takes a whole number, not 'abc'"),
    (["run", str(GELU / "spec.py"), "--budget", "evals=-3"], "evals must be at least 1"),
    (["run", str(GELU / "spec.py"), "--budget", "hours=3"], "use evals=N, minutes=M"),
    (["run", str(GELU / "spec.py"), "--api-base", "http://127.0.0.1:9/v1"], "no model is given: add --model"),
    (["run", str(GELU / "spec.py"), "--model", "openai/x,price=cheap"], "price takes dollars per million tokens"),
    (["run", str(GELU / "spec.py"), "--budget", ""], "--budget '': use evals=N"),  # not the default 200
    (["run", str(GELU / "spec.py"), "--budget", "minutes=nan"], "--budget 'minutes=nan': minutes takes a finite"),
    (["run", str(GELU / "spec.py"), "--budget", "evals=inf"], "--budget 'evals=inf': evals takes a finite"),
    (["run", str(GELU / "spec.py"), "--workers", "0"], "--workers 0: input should be greater than or equal to 1"),
    (["run", str(GELU / "spec.py"), "--in-flight", "0"], "--in-flight 0: input should be greater than or equal"),
    (["run", str(GELU / "spec.py"), "--descriptors", "bogus"], "--descriptors bogus: unknown descriptor(s) bogus"),
    (["run", str(GELU / "spec.py"), "--device", "foo"], "--device foo: use auto, cpu, cuda or cuda:N"),
    (["run", str(GELU / "spec.py"), "--model", "openai/x", "--max-tokens", "0"],
     "--model openai/x: max_tokens: input should be greater than 0"),
])
def test_bad_arguments_get_one_line_and_leave_nothing(tmp_path: Path, args: list[str], message: str) -> None:
    done = kernelevo(tmp_path, *args, "--db", str(tmp_path / "runs.db"), "--out", str(tmp_path / "out"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert nothing_written(tmp_path) and not (tmp_path / "runs").exists() and not (tmp_path / "run.json").exists()


def test_a_spec_whose_inputs_cannot_be_made_is_rejected_before_the_run_exists(tmp_path: Path) -> None:
    """The spec runs in an isolated child, as the run's judge would run it, before anything is written."""
    spec = tmp_path / "spec" / "spec.py"
    spec.parent.mkdir()
    spec.write_text((GELU / "spec.py").read_text().replace(
        "def get_inputs():\n", "def get_inputs():\n    raise RuntimeError('no inputs today')\n"))
    for seed in GELU.glob("seed*.py"):
        (spec.parent / seed.name).write_text(seed.read_text())
    done = kernelevo(tmp_path, "run", str(spec), "--db", str(tmp_path / "runs.db"), "--out", str(tmp_path / "out"),
                     "--device", "cpu", "--no-ray")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "get_inputs() raised RuntimeError: no inputs today" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and nothing_written(tmp_path)


# -- during the run ---------------------------------------------------------------------------------

def test_a_model_that_breaks_during_the_run_stops_it_with_a_reason(tmp_path: Path,
                                                                  servers: list[ScriptedLLMServer]) -> None:
    server = ScriptedLLMServer()
    servers.append(server)
    server.add(Reply(content="OK"))  # the preflight's call works; then the key is revoked
    server.responder = lambda request: Reply(status=401)
    done = kernelevo(tmp_path, *run_args(tmp_path, "--model", "openai/test-model", "--api-base", server.base_url,
                                         "--api-key-env", "TEST_KEY", evals=30), env={"TEST_KEY": "sk-test"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "the LLM failed: the LLM never worked" in done.stdout
    assert "dropped: auth" in done.stdout  # the per-model table
    [run] = runs_in(tmp_path)
    assert run["status"] == "failed" and "the LLM never worked" in run["stop_reason"]
    assert run["stop_kind"] == "llm_failed"
    assert len(server.requests) < 10  # dropped at its first refusal, not retried for the whole run


def test_with_offline_fallback_the_run_goes_on_with_the_template_operator(
        tmp_path: Path, servers: list[ScriptedLLMServer]) -> None:
    server = ScriptedLLMServer()
    servers.append(server)
    server.add(Reply(content="OK"))
    server.responder = lambda request: Reply(status=401)
    done = kernelevo(tmp_path, *run_args(tmp_path, "--model", "openai/test-model", "--api-base", server.base_url,
                                         "--api-key-env", "TEST_KEY", "--offline-fallback", evals=8),
                     env={"TEST_KEY": "sk-test"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "evaluation budget (8) reached" in done.stdout and "going on with the template operator" in done.stderr
    [run] = runs_in(tmp_path)
    assert run["status"] == "finished"


def test_three_models_one_broken_one_slow_one_good_end_with_the_bandits_table(
        tmp_path: Path, servers: list[ScriptedLLMServer]) -> None:
    broken, slow, good = ScriptedLLMServer(), good_server(servers), good_server(servers)
    servers.append(broken)
    broken.add(Reply(content="OK"))
    broken.responder = lambda request: Reply(status=404)  # its model is withdrawn after the preflight
    fast = slow.responder
    assert fast is not None

    def slowly(request: dict[str, Any]) -> Reply:
        reply = fast(request)
        reply.delay_s = 1.5
        return reply

    slow.responder = slowly
    models = [f"openai/broken,api_base={broken.base_url},price=1/2", f"openai/slow,api_base={slow.base_url},price=1/2",
              f"openai/good,api_base={good.base_url},price=0.1/0.2"]
    done = kernelevo(tmp_path, *run_args(tmp_path, *[a for m in models for a in ("--model", m)], "--api-key-env",
                                         "TEST_KEY", "--max-tokens", "3000", evals=16), env={"TEST_KEY": "sk-test"})
    assert done.returncode == 0, done.stdout + done.stderr
    table = done.stdout[done.stdout.rindex("┃ model"):]
    rows = {line.split("│")[1].strip(): line for line in table.splitlines() if line.startswith("│")}
    assert set(rows) == {"openai/broken", "openai/slow", "openai/good"}
    assert "dropped: not_found" in rows["openai/broken"] and "in use" in rows["openai/good"]
    answered = [r for s in (slow, good) for r in s.requests if r.get("max_tokens") != 1]
    assert answered and all(r["max_tokens"] == 3000 for r in answered)  # --max-tokens reached every model
    [run] = runs_in(tmp_path)
    config = json.loads(run["config"]) if isinstance(run["config"], str) else run["config"]
    assert [m["model"] for m in config["models"]] == ["openai/broken", "openai/slow", "openai/good"]


# -- settings that compose ---------------------------------------------------------------------------

def test_flags_override_only_what_they_name(tmp_path: Path, servers: list[ScriptedLLMServer]) -> None:
    server = good_server(servers)
    config = tmp_path / "run.toml"
    config.write_text(f'[llm]\nmodel = "openai/test-model"\napi_base = "{server.base_url}"\n'
                      'api_key_env = "TEST_KEY"\nmax_tokens = 4000\ntemperature = 0.2\n')
    done = kernelevo(tmp_path, *run_args(tmp_path, "--config", str(config), "--model", "openai/test-model",
                                         evals=4), env={"TEST_KEY": "sk-test"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"model: openai/test-model at {server.base_url} (max_tokens 4000, temperature 0.2, key $TEST_KEY)" \
        in done.stdout
    sent = [r for r in server.requests if r.get("max_tokens") != 1]
    assert sent and all(r["max_tokens"] == 4000 and r["temperature"] == 0.2 for r in sent)

    again = kernelevo(tmp_path, "run", "--resume", "1", "--db", str(tmp_path / "runs.db"), "--plain",
                      "--temperature", "0.9", "--budget", "evals=6", env={"TEST_KEY": "sk-test"})
    assert again.returncode == 0, again.stdout + again.stderr
    assert "(max_tokens 4000, temperature 0.9, key $TEST_KEY)" in again.stdout


# -- stopping and going on ------------------------------------------------------------------------

def counts(tmp_path: Path) -> tuple[int, int]:
    """(candidates made, candidates evaluated) of the run in the test's database; (0, 0) while the
    driver has not yet created its tables (the file exists a moment before they do)."""
    if not (tmp_path / "runs.db").exists():
        return 0, 0
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        if not conn.execute("select 1 from sqlite_master where name = 'evaluations'").fetchone():
            return 0, 0
        made = conn.execute("select count(*) from candidates").fetchone()[0]
        evaluated = conn.execute("select count(distinct candidate_id) from evaluations").fetchone()[0]
    return int(made), int(evaluated)


def test_ctrl_c_finishes_only_the_evaluations_under_way_and_resume_evaluates_the_rest(tmp_path: Path) -> None:
    import signal
    import time

    environment = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    # 5 in flight: the one under way finishes and 4 stay queued (3 should the stop find a slot not yet refilled),
    # enough for "made - evaluated >= 3"; 8 left 7 for the resume to evaluate, about 3 s more on this CPU judge
    command = [sys.executable, "-m", "kernelevo.cli", *run_args(tmp_path, "--in-flight", "5", evals=60)]
    proc = subprocess.Popen(command, cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and counts(tmp_path)[1] < 3:
            time.sleep(0.3)
        made_before, _ = counts(tmp_path)
        pressed = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        stop_s = time.monotonic() - pressed
    finally:
        proc.kill()
    assert proc.returncode == 0, out + err
    assert "stopped: stopped by Ctrl-C" in out
    made, evaluated = counts(tmp_path)
    assert made >= made_before and made - evaluated >= 3, (made, evaluated)  # the queue was kept, not evaluated
    assert stop_s < 30, stop_s  # one evaluation at most was under way on this CPU evaluator
    again = kernelevo(tmp_path, "run", "--resume", "1", "--db", str(tmp_path / "runs.db"), "--plain",
                      "--budget", f"evals={made}")
    assert again.returncode == 0, again.stdout + again.stderr
    [run] = runs_in(tmp_path)
    assert run["status"] == "finished"
    made_after, evaluated_after = counts(tmp_path)
    assert evaluated_after == made, (made_after, evaluated_after, made)  # the queue first, then nothing new


@pytest.mark.slow
def test_a_server_that_dies_mid_run_leaves_no_unawaited_coroutine(tmp_path: Path,
                                                                   servers: list[ScriptedLLMServer]) -> None:
    """LLM calls retrying against a dead server when the run stops are cancelled while litellm builds their
    requests in a thread: what that thread returns is closed (kernelevo.utils.aio), not left to warn
    "coroutine ... was never awaited". Before the fix this run printed that warning every time."""
    server = ScriptedLLMServer()
    servers.append(server)
    server.add(Reply(content="OK"))  # the test call before the run; then the server dies

    def die(request: dict[str, Any]) -> Reply:
        threading.Thread(target=server.close).start()
        return Reply(status=500)

    server.responder = die
    config = tmp_path / "run.toml"  # retried at once, for long: calls are under way whenever the run stops
    config.write_text(f'[llm]\nmodel = "openai/test-model"\napi_base = "{server.base_url}"\n'
                      'api_key_env = "TEST_KEY"\nmax_retries = 100000\nbackoff_s = 0.0\n')
    done = kernelevo(tmp_path, *run_args(tmp_path, "--config", str(config), "--in-flight", "6", evals=4),
                     env={"TEST_KEY": "sk-test"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "evaluation budget (4) reached" in done.stdout
    assert "never awaited" not in done.stderr and "RuntimeWarning" not in done.stderr, done.stderr[-3000:]
    again = kernelevo(tmp_path, "run", "--resume", "1", "--db", str(tmp_path / "runs.db"), "--plain",
                      "--budget", "evals=6", env={"TEST_KEY": "sk-test"})
    assert again.returncode == 2 and "did not answer a test call" in again.stderr, again.stderr
    assert len(again.stderr.strip().splitlines()) == 1


def test_an_llm_that_keeps_rate_limiting_does_not_starve_the_evaluators(tmp_path: Path,
                                                                        servers: list[ScriptedLLMServer]) -> None:
    server = ScriptedLLMServer()
    servers.append(server)
    server.add(Reply(content="OK"))
    server.responder = lambda request: Reply(status=429, headers={"retry-after": "0"})
    config = tmp_path / "run.toml"
    config.write_text(f'[llm]\nmodel = "openai/test-model"\napi_base = "{server.base_url}"\n'
                      'api_key_env = "TEST_KEY"\nmax_retries = 4\nbackoff_s = 3.0\n')
    done = kernelevo(tmp_path, *run_args(tmp_path, "--config", str(config), "--in-flight", "3", evals=10),
                     env={"TEST_KEY": "sk-test"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "evaluation budget (10) reached" in done.stdout
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        operators = Counter(row[0] for row in conn.execute("select operator from candidates"))
        evaluations = [(float(at), json.loads(result)["costs"]["judge_s"]) for at, result in
                       conn.execute("select finished_at, result from evaluations order by finished_at")]
    assert operators["template"] >= 6, operators  # made while every LLM call was backing off
    # An LLM call backing off 4 times waits 25 to 45 s: the judge never sat idle that long between two
    # evaluations (the time from one's end to the next one's start on the judge; not the time between their
    # ends, which a slow evaluation on a loaded machine lengthens: 16 s once in CI)
    idle = [(end - judge_s) - previous_end for (previous_end, _), (end, judge_s) in itertools.pairwise(evaluations)]
    assert max(idle) < 10, idle
