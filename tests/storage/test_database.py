"""Opening the database: several processes opening one fresh database at once take turns."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import inspect

from kernelevo.storage.database import DatabaseUnusable, open_database

ROOT = Path(__file__).resolve().parents[2]

OPEN_AT = """
import sys, time
from kernelevo.storage.database import open_database
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # every process starts migrating at the same moment
open_database(sys.argv[1]).dispose()
"""


def test_processes_opening_a_fresh_database_at_once_all_get_the_schema(fresh_db_url: str) -> None:
    """A driver starting and a reader polling it both migrate; neither may find a table half made."""
    start = time.time() + 3.0  # after every interpreter has imported SQLAlchemy and Alembic
    children = [subprocess.Popen([sys.executable, "-c", OPEN_AT, fresh_db_url, str(start)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(6)]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err[-2000:]
    database = open_database(fresh_db_url)
    try:
        tables = set(inspect(database.engine).get_table_names())
        assert {"runs", "candidates", "api_tokens", "alembic_version"} <= tables, tables
    finally:
        database.dispose()
    if fresh_db_url.startswith("sqlite:///"):  # each holder removed the lock file as it let go
        assert not list(Path(fresh_db_url.removeprefix("sqlite:///")).parent.glob("*.migrate-lock"))


# -- what cannot be used is named, and nothing is left beside it ------------------------------------

def made_database(path: Path) -> Path:
    """A migrated kernelevo database at ``path``, closed (its WAL checkpointed into the file)."""
    open_database(f"sqlite:///{path}").dispose()
    return path


def unusable(path: Path, **options: bool) -> str:
    with pytest.raises(DatabaseUnusable) as caught:
        open_database(f"sqlite:///{path}", **options)
    assert caught.value.where == str(path) and "\n" not in str(caught.value)
    return caught.value.reason


def test_files_that_are_not_kernelevo_databases_are_named_and_nothing_is_made_beside_them(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("these are my notes\n")
    noise = tmp_path / "noise.db"
    noise.write_bytes(random.Random(0).randbytes(5000))
    (tmp_path / "whole").mkdir()
    whole = made_database(tmp_path / "whole" / "kernelevo.db")
    half = tmp_path / "half.db"
    half.write_bytes(whole.read_bytes()[:whole.stat().st_size // 2])
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE contacts (name TEXT)")
    before = sorted(p.name for p in tmp_path.iterdir())

    assert unusable(text) == unusable(noise) == "not a kernelevo database (file is not a database)"
    assert unusable(half).startswith("a damaged SQLite database (database disk image is malformed)")
    assert unusable(other).startswith("not a kernelevo database (another program's SQLite database, with the "
                                      "tables contacts)")
    assert unusable(tmp_path / "whole").startswith("is a folder")
    assert unusable(tmp_path / "missing" / "kernelevo.db", make_folder=False) == \
        f"the folder {tmp_path / 'missing'} does not exist"
    assert unusable(tmp_path / "new.db", create=False).startswith("no database there")
    # no -wal, -shm or .migrate-lock beside any of them, no folder made, the files untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert text.read_text() == "these are my notes\n" and half.stat().st_size == whole.stat().st_size // 2
    # the default database's folder is made
    open_database(f"sqlite:///{tmp_path / 'data' / 'kernelevo.db'}").dispose()
    assert (tmp_path / "data" / "kernelevo.db").is_file()


def test_opening_leaves_no_lock_file(tmp_path: Path) -> None:
    path = made_database(tmp_path / "kernelevo.db")
    open_database(f"sqlite:///{path}").dispose()  # at the head already: no migration, no lock taken
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kernelevo.db"]


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``chattr +i`` (root: a mode does not stop root), else a read-only mode on the file and its folder."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        path.parent.chmod(0o555)
        try:
            yield
        finally:
            path.parent.chmod(0o755)
            path.chmod(0o644)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("running as root where chattr +i is not available: nothing makes a file read-only to root")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_database_is_refused_for_writing_and_still_read(tmp_path: Path) -> None:
    path = made_database(tmp_path / "kernelevo.db")
    with immutable(path):
        assert unusable(path).startswith("cannot be written (the file is read-only)")
        reader = open_database(f"sqlite:///{path}", write=False)  # `kernelevo runs` lists it
        try:
            with reader.session() as session:
                assert session.connection().exec_driver_sql("SELECT count(*) FROM runs").scalar() == 0
        finally:
            reader.dispose()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kernelevo.db"]  # read as immutable: no -wal, no -shm


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file whatever its mode")
def test_an_unreadable_database_is_named(tmp_path: Path) -> None:
    path = made_database(tmp_path / "kernelevo.db")
    path.chmod(0)
    try:
        assert unusable(path) == "cannot be read (permission denied)"
    finally:
        path.chmod(0o644)


def test_the_lock_file_lock_is_exclusive_though_each_holder_removes_it(tmp_path: Path) -> None:
    """Holders removing the lock file as they let go never let two processes hold it at once."""
    lock, log = tmp_path / "x.migrate-lock", tmp_path / "log"
    script = HOLD.format(root=str(ROOT))
    children = [subprocess.Popen([sys.executable, "-c", script, str(lock), str(log), str(time.time() + 2.0)])
                for _ in range(6)]
    for child in children:
        assert child.wait(timeout=120) == 0
    events = log.read_text().split()
    assert len(events) == 6 * 20 * 2
    assert all(a == "in" and b == "out" for a, b in zip(events[::2], events[1::2], strict=True)), events
    assert not lock.exists()


HOLD = """
import sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from kernelevo.storage.database import _file_lock
lock, log, start = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
time.sleep(max(0.0, start - time.time()))
for _ in range(20):
    with _file_lock(lock):
        with open(log, "a") as f:
            f.write("in\\n"); f.flush()
        time.sleep(0.001)
        with open(log, "a") as f:
            f.write("out\\n"); f.flush()
"""


OPEN_AND_CLOSE = """
import sys
from kernelevo.storage.database import open_database
open_database(sys.argv[1], write=False).dispose()
"""


def test_opening_a_database_again_keeps_the_locks_of_the_connections_open_on_it(tmp_path: Path) -> None:
    """A process that opens a database it has open already (a test polling a run, the API) must not drop its
    connections' locks: another process closing the database would then take it for unused and remove the
    -shm file from under them (a killed driver's resumed run was read back as "malformed" so)."""
    path = made_database(tmp_path / "kernelevo.db")
    url = f"sqlite:///{path}"
    first = open_database(url)
    try:
        with first.session() as session:  # the write-ahead log holds something, as a running search's does
            session.connection().exec_driver_sql(
                "INSERT INTO api_tokens (name, digest, created_at) VALUES ('a', 'b', '2026-01-01')")
        open_database(url).dispose()  # the same process opens it again
        subprocess.run([sys.executable, "-c", OPEN_AND_CLOSE, url], check=True, timeout=120)
        assert (tmp_path / "kernelevo.db-shm").exists()
        with first.session() as session:
            assert session.connection().exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            assert session.connection().exec_driver_sql("SELECT count(*) FROM api_tokens").scalar() == 1
    finally:
        first.dispose()
