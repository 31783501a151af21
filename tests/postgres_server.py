"""A throwaway PostgreSQL server on 127.0.0.1 for the storage and API tests.

``KERNELEVO_TEST_POSTGRES_URL`` names a server to use. Otherwise one is started from the
installed PostgreSQL binaries (Debian's ``postgresql`` package, which ``.ci/run``
installs): a fresh cluster in a temporary folder, trust authentication on loopback only, a
free port, stopped and removed at the end. PostgreSQL refuses to run as root, so as root
the cluster is made and run as the ``postgres`` user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


class NoPostgres(RuntimeError):
    """No server named and none could be started; the message says why."""


def _binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise NoPostgres("PostgreSQL's server binaries are not installed (Debian: apt-get install postgresql)")


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def postgres_url() -> Iterator[str]:
    """A SQLAlchemy URL of an empty database on a PostgreSQL server (see the module docstring)."""
    named = os.environ.get("KERNELEVO_TEST_POSTGRES_URL")
    if named:
        yield named
        return
    bin_dir = _binaries()
    folder = Path(tempfile.mkdtemp(prefix="kernelevo-pg-"))
    data, port = folder / "data", _free_port()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    run = {"check": True, "capture_output": True, "text": True, "timeout": 120}
    try:
        subprocess.run(_as_postgres([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "kernelevo",
                                     "--no-sync"]), **run)  # type: ignore[call-overload]
        subprocess.run(_as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w",
                                     "-o", f"-p {port} -h 127.0.0.1 -k {folder} -F", "start"]),
                       **run)  # type: ignore[call-overload]
    except (subprocess.CalledProcessError, OSError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        shutil.rmtree(folder, ignore_errors=True)
        raise NoPostgres(f"could not start PostgreSQL from {bin_dir}: {detail.strip()[-500:]}") from None
    try:
        _wait(port)
        subprocess.run(_as_postgres([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U",
                                     "kernelevo", "kernelevo_test"]), **run)  # type: ignore[call-overload]
        yield f"postgresql+psycopg://kernelevo@127.0.0.1:{port}/kernelevo_test"
    finally:
        subprocess.run(_as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _wait(port: int, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.2)
    raise NoPostgres(f"PostgreSQL did not listen on 127.0.0.1:{port}")
