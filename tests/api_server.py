"""A real API server: ``kernelevo serve`` on 127.0.0.1 in a process of its own, over a database of its own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from kernelevo.storage.database import open_database
from kernelevo.storage.tokens import create_token

ROOT = Path(__file__).resolve().parents[1]
GELU = ROOT / "examples" / "gelu"


@dataclass
class Server:
    url: str
    token: str
    db_path: Path
    data_dir: Path

    def client(self, *, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token if token is not None else self.token}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path, *extra: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    db_path = folder / "kernelevo.db"
    db = open_database(f"sqlite:///{db_path}")
    with db.session() as session:
        _, token = create_token(session, "tests")
    db.dispose()
    port = _free_port()
    environment = {**os.environ, "KERNELEVO_DATA_DIR": str(folder), "KERNELEVO_RUN_SLOTS": "1", **(env or {})}
    environment.pop("KERNELEVO_DATABASE_URL", None)
    # --unsafe-local: these tests are not about containment (tests/isolation/test_containment.py is), and a machine
    # whose Python the sandbox user cannot read (one under /root) gives children no user of their own
    process = subprocess.Popen([sys.executable, "-m", "kernelevo.cli", "serve", "--db", str(db_path), "--port",
                                str(port), "--unsafe-local", *extra], env=environment, cwd=folder,
                               start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=open(folder / "server.log", "w"))  # noqa: SIM115
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail(f"the API server did not start: {(folder / 'server.log').read_text()[-2000:]}")
    try:
        yield Server(url, token, db_path, folder)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that starts the runs submitted to it (one at a time: KERNELEVO_RUN_SLOTS=1)."""
    yield from start_server(tmp_path_factory.mktemp("api"))


@pytest.fixture(scope="module")
def quiet_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that starts no runs (--no-launch): for requests that only read and validate."""
    yield from start_server(tmp_path_factory.mktemp("api-quiet"), "--no-launch")


def gelu_spec_body() -> dict[str, object]:
    return {"source": (GELU / "spec.py").read_text(), "name": "gelu",
            "seeds": {name: (GELU / name).read_text() for name in ("seed.py", "seed_persistent.py")}}
