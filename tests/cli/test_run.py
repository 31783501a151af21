"""``kernelevo run``, ``runs`` and the database as a new user meets them: bad input is one line and exit 2,
with nothing written; Ctrl-C twice stops at once and leaves the run to resume. Every case runs the real
command in a subprocess and looks at its exit code, its stderr and what is on disk."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GELU = ROOT / "examples" / "gelu"


def kernelevo(cwd: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "kernelevo.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=environment)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The command failed on bad input: exit 2, one line on stderr, no traceback; that line."""
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def made_database(path: Path) -> Path:
    """A kernelevo database with one queued run (nothing evaluated), closed."""
    script = ("import sys\nfrom kernelevo.driver import new_run\nfrom kernelevo.records.run_config import RunConfig\n"
              "from kernelevo.spec import read_spec\nfrom kernelevo.storage.database import open_database\n"
              "db = open_database(f'sqlite:///{sys.argv[1]}')\n"
              "new_run(db, read_spec(sys.argv[2]), RunConfig(), owner='test')\ndb.dispose()\n")
    subprocess.run([sys.executable, "-c", script, str(path), str(GELU / "spec.py")], check=True, timeout=300)
    return path


@pytest.fixture(scope="module")
def a_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_database(tmp_path_factory.mktemp("db") / "kernelevo.db")


# -- a --db that cannot be used --------------------------------------------------------------------

def bad_databases(folder: Path, whole: Path) -> dict[str, Path]:
    (folder / "notes.db").write_text("these are my notes\n")
    (folder / "noise.db").write_bytes(random.Random(0).randbytes(5000))
    (folder / "half.db").write_bytes(whole.read_bytes()[:whole.stat().st_size // 2])
    return {"not a kernelevo database (file is not a database)": folder / "notes.db",
            "not a kernelevo database (file is not a database) ": folder / "noise.db",
            "a damaged SQLite database (database disk image is malformed)": folder / "half.db"}


@pytest.mark.parametrize("command", [["runs"], ["run", str(GELU / "spec.py"), "--device", "cpu"],
                                     ["run", "--resume", "1"]], ids=["runs", "run", "resume"])
def test_a_db_that_is_not_a_kernelevo_database_is_one_line(tmp_path: Path, a_database: Path,
                                                           command: list[str]) -> None:
    for message, path in bad_databases(tmp_path, a_database).items():
        before = sorted(p.name for p in tmp_path.iterdir())
        line = one_line(kernelevo(tmp_path, *command, "--db", path.name))
        assert line == f"error: --db {path.name}: {message.strip()}" or \
            line.startswith(f"error: --db {path.name}: {message.strip()}:"), line
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # no .migrate-lock, -wal, runs/ left


def test_a_missing_folder_or_database_is_named_and_not_made(tmp_path: Path) -> None:
    line = one_line(kernelevo(tmp_path, "run", str(GELU / "spec.py"), "--db", "nowhere/runs.db"))
    assert line == f"error: --db nowhere/runs.db: the folder {tmp_path / 'nowhere'} does not exist"
    line = one_line(kernelevo(tmp_path, "runs", "--db", "typo.db"))
    assert line.startswith("error: --db typo.db: no database there")
    assert not list(tmp_path.iterdir())


def test_a_read_only_database_is_listed_but_not_run(tmp_path: Path, a_database: Path) -> None:
    path = tmp_path / "kernelevo.db"
    shutil.copy(a_database, path)
    if os.geteuid() == 0:  # a mode does not stop root: the file is made immutable
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode:
            pytest.skip("root, and chattr +i is not available here")
    else:
        path.chmod(0o444)
        tmp_path.chmod(0o555)
    try:
        listed = kernelevo(tmp_path, "runs", "--db", path.name, "--json")
        assert listed.returncode == 0 and '"status": "queued"' in listed.stdout, listed.stderr
        for command in (["run", str(GELU / "spec.py"), "--device", "cpu"], ["run", "--resume", "1"]):
            line = one_line(kernelevo(tmp_path, *command, "--db", path.name))
            assert line.startswith(f"error: --db {path.name}: cannot be written (the file is read-only)"), line
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            tmp_path.chmod(0o755)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kernelevo.db"]


def test_runs_are_listed_by_the_kind_of_their_stop(tmp_path: Path, a_database: Path) -> None:
    shutil.copy(a_database, tmp_path / "kernelevo.db")  # one queued run: not stopped yet
    listed = kernelevo(tmp_path, "runs", "--db", "kernelevo.db", "--stop-kind", "budget_time", "--json")
    assert listed.returncode == 0 and json.loads(listed.stdout) == [], listed.stderr
    listed = kernelevo(tmp_path, "runs", "--db", "kernelevo.db", "--json")
    assert [r["stop_kind"] for r in json.loads(listed.stdout)] == [None], listed.stderr
    line = one_line(kernelevo(tmp_path, "runs", "--db", "kernelevo.db", "--stop-kind", "bored"))
    assert line.startswith("error: --stop-kind 'bored': not one of budget_evaluations, budget_time, "), line


# -- bad arguments to a resumed run ----------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["--budget", ""], "error: --budget '': use evals=N"),
    (["--budget", "minutes=nan"], "error: --budget 'minutes=nan': minutes takes a finite number"),
    (["--workers", "0"], "error: --workers 0: input should be greater than or equal to 1"),
    (["--descriptors", "bogus"], "error: --descriptors bogus: unknown descriptor(s) bogus"),
    (["--device", "foo"], "error: --device foo: use auto, cpu, cuda or cuda:N"),
])
def test_a_resumed_run_with_a_bad_argument_is_left_as_it_was(tmp_path: Path, a_database: Path, args: list[str],
                                                             message: str) -> None:
    path = tmp_path / "kernelevo.db"
    shutil.copy(a_database, path)
    before = path.read_bytes()
    line = one_line(kernelevo(tmp_path, "run", "--resume", "1", "--db", path.name, *args))
    assert line.startswith(message), line
    assert path.read_bytes() == before  # its settings and status untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kernelevo.db"]


def test_a_resume_refused_while_another_driver_holds_the_run_is_left_as_it_was(tmp_path: Path,
                                                                              a_database: Path) -> None:
    """``--resume 1 --budget evals=41`` while a live driver (here this test's process) holds run 1: exit 2 with
    one line naming that driver, and the database as it was, budget and status included. (The budget was
    stored before the refusal.)"""
    from datetime import timedelta

    from kernelevo.storage.database import open_database, utcnow
    from kernelevo.storage.runs import get_run, lease_owner_name

    path = tmp_path / "kernelevo.db"
    shutil.copy(a_database, path)
    db = open_database(f"sqlite:///{path}")
    with db.session() as session:
        row = get_run(session, 1)
        row.status, row.lease_owner = "running", lease_owner_name()
        row.lease_expires_at = utcnow() + timedelta(minutes=10)
    db.dispose()
    before = path.read_bytes()
    line = one_line(kernelevo(tmp_path, "run", "--resume", "1", "--db", path.name, "--budget", "evals=41",
                              "--no-ray", "--device", "cpu"))
    assert line.startswith(f"error: run 1 is being driven by process {os.getpid()} on "), line
    assert path.read_bytes() == before  # its budget, status and lease untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kernelevo.db"]


# -- Ctrl-C twice ------------------------------------------------------------------------------------

def evaluated(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("SELECT count(*) FROM evaluations").fetchone()[0])
    except sqlite3.Error:  # not made yet
        return 0


@pytest.mark.slow
def test_ctrl_c_twice_stops_at_once_and_leaves_the_run_to_resume(tmp_path: Path) -> None:
    """The first Ctrl-C finishes the evaluations under way; the second kills them: one line, exit 130, the run
    interrupted (resumable, not failed), every finished evaluation kept."""
    db = tmp_path / "runs.db"
    command = [sys.executable, "-m", "kernelevo.cli", "run", str(GELU / "spec.py"), "--db", str(db), "--out",
               str(tmp_path / "out"), "--no-ray", "--device", "cpu", "--plain", "--budget", "evals=50"]
    driver = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    try:
        deadline = time.monotonic() + 240
        while evaluated(db) < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        driver.send_signal(signal.SIGINT)
        time.sleep(0.3)
        pressed = time.monotonic()
        driver.send_signal(signal.SIGINT)
        out, err = driver.communicate(timeout=60)
        stop_s = time.monotonic() - pressed
    finally:
        driver.kill()
    assert driver.returncode == 130, out + err
    assert "Traceback" not in err and "CancelledError" not in err and "RuntimeWarning" not in err, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("stopped at once: run 1 is interrupted, with its ") and "--resume 1" in last, err
    assert err.count("stopped at once") == 1
    assert stop_s < 20, stop_s  # not the evaluation under way run to its end
    with sqlite3.connect(db) as connection:
        status, reason, kind, counted = connection.execute(
            "SELECT status, stop_reason, stop_kind, evaluations FROM runs").fetchone()
        kept = connection.execute("SELECT count(*) FROM evaluations").fetchone()[0]
        errors = connection.execute("SELECT count(*) FROM evaluations WHERE error IS NOT NULL"
                                    ).fetchone()[0]
    assert status == "interrupted" and "Ctrl-C twice" in reason and kind == "interrupted", (status, reason, kind)
    assert kept >= 1 and counted == kept and errors == 0  # the killed evaluations are not recorded as failures
    assert f"with its {kept} finished evaluations kept" in last
    listed = kernelevo(tmp_path, "runs", "--db", str(db), "--status", "interrupted", "--json")
    assert '"status": "interrupted"' in listed.stdout, listed.stdout + listed.stderr


# -- settings from a file or the environment -------------------------------------------------------

def test_a_config_file_and_an_environment_setting_name_their_field(tmp_path: Path) -> None:
    config = tmp_path / "run.toml"
    config.write_text("workers = 2\n[budget]\nminutes = nan\n")
    line = one_line(kernelevo(tmp_path, "run", str(GELU / "spec.py"), "--config", config.name, "--db", "runs.db"))
    assert line == "error: --config run.toml: budget.minutes: input should be a finite number (got nan)", line
    config.write_text("workers = \n")
    line = one_line(kernelevo(tmp_path, "run", str(GELU / "spec.py"), "--config", config.name, "--db", "runs.db"))
    assert line.startswith("error: --config run.toml: not valid TOML (Invalid value (at line 1, column 11))"), line
    environment = {**os.environ, "KERNELEVO_API_PORT": "99999"}
    done = subprocess.run([sys.executable, "-m", "kernelevo.cli", "runs", "--db", "runs.db"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=environment)
    assert one_line(done) == "error: KERNELEVO_API_PORT=99999: input should be less than or equal to 65535"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.toml"]


# -- the runs table ----------------------------------------------------------------------------------

def test_the_runs_table_names_the_floor_of_each_roofline_fraction(tmp_path: Path) -> None:
    from kernelevo.records.progress import Progress
    from kernelevo.spec import read_spec
    from kernelevo.storage.database import open_database
    from kernelevo.storage.recorder import RunRecorder
    from kernelevo.storage.runs import create_run, save_spec
    from kernelevo.storage.tables import RunRow

    db = open_database(f"sqlite:///{tmp_path / 'runs.db'}")
    try:
        with db.session() as session:
            spec_id = save_spec(session, read_spec(str(GELU / "spec.py"))).id
            ids = [create_run(session, spec_id=spec_id, config={}, owner="test").id for _ in range(3)]
        for run_id, fraction, floor in zip(ids, (0.981, 0.5, 0.42), ("read", "compute", None), strict=True):
            RunRecorder(db, run_id).progress(Progress(evaluations=4, correct=3, hardware="h100", best_speedup_eager=2.0,
                                                      best_roofline=fraction, best_roofline_floor=floor), force=True)
        with db.session() as session:  # a run stored before floors were, which no evaluation's fraction matched
            assert session.get_one(RunRow, ids[2]).best_roofline_floor is None
    finally:
        db.dispose()
    done = kernelevo(tmp_path, "runs", "--db", "runs.db")
    assert done.returncode == 0, done.stderr
    rows = {line.split("│")[1].strip(): line for line in done.stdout.splitlines() if line.count("│") > 5}
    assert "98% (read)" in rows[str(ids[0])] and "50% (compute)" in rows[str(ids[1])], done.stdout
    assert "42%" in rows[str(ids[2])] and "42% (" not in rows[str(ids[2])], done.stdout


ILL_CONDITIONED = ROOT / "tests" / "spec" / "specs" / "ill_conditioned.py"


def test_a_run_warns_first_of_a_reference_too_far_from_float64_and_the_judge_refuses_it(tmp_path: Path) -> None:
    """The spec check says it first; the judge, which measures it again where it judges, refuses the spec
    (exit 2, a spec error) with the tolerance it would need, before any kernel is wrongly rejected."""
    (tmp_path / "cancels.py").write_text(ILL_CONDITIONED.read_text())
    done = kernelevo(tmp_path, "run", "cancels.py", "--db", "runs.db", "--device", "cpu", "--no-ray",
                     "--budget", "evals=2", "--out", "out", "--plain")
    said = " ".join(done.stdout.split()) + " ".join(done.stderr.split())
    assert "warning: a judge will refuse this spec" in said, said
    assert done.returncode == 2 and "error: variant 'default'" in said and "atol = rtol = 0.03" in said, said
    runs = kernelevo(tmp_path, "runs", "--db", "runs.db", "--stop-kind", "spec_error")
    assert "cancels" in runs.stdout and "failed" in runs.stdout, runs.stdout + runs.stderr
