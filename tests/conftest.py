"""Shared test set-up: GPU tests skip cleanly on machines without CUDA."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(Path(__file__).resolve().parent))  # helpers: llm_server, api_server, postgres_server, ...

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")


def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # `make test` runs the tests on two workers (pytest-xdist, --dist loadgroup). A test that holds a module-scoped
    # fixture (a judge, a server, a Ray head) stays on one worker with its file's other such tests, so the fixture
    # starts once; the tests on the session's local Ray (tests/distributed/conftest.py) share one worker, so one Ray
    # starts, not one a worker. Every other test goes to whichever worker is free, the slow ones first: a file of
    # long searches kept on one worker left the other idle for minutes at the end.
    loose_and_slow = set()
    for item in items:
        group = _worker_group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
        elif item.get_closest_marker("slow"):
            loose_and_slow.add(item.nodeid)
    items.sort(key=lambda item: item.nodeid not in loose_and_slow)  # stable: a group's tests stay together
    if _cuda():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config: pytest.Config) -> None:
    # pytest 9.2 reads a test's id from Node._id, and pytest-xdist 3.8's loadgroup writes the group into
    # Node._nodeid: every group was silently ignored, and module fixtures started on both workers at once (two Ray
    # heads, whose jobs then joined the wrong one). constraints.txt pins a pytest that works.
    if config.getvalue("dist") == "loadgroup" and tuple(int(p) for p in pytest.__version__.split(".")[:2]) >= (9, 2):
        raise pytest.UsageError(f"pytest {pytest.__version__} ignores pytest-xdist's worker groups: install the "
                                "versions constraints.txt pins (make install)")


def _worker_group(item: pytest.Item) -> str | None:
    if "local_ray" in getattr(item, "fixturenames", ()):
        return "local_ray"
    info = getattr(item, "_fixtureinfo", None)
    definitions = info.name2fixturedefs.values() if info is not None else ()
    if any(defs and defs[-1].scope in ("module", "package") for defs in definitions):
        return item.nodeid.split("::")[0]
    return None


@pytest.fixture(scope="module")
def fork_server():
    """A fork server (kernelevo.isolation.zygote) for the test handlers of tests/sandbox_handlers.py."""
    from kernelevo.isolation.sandbox import Sandbox
    from kernelevo.isolation.zygote import ForkServer, ZygoteSetup

    env = {"PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    sandbox = Sandbox("kernelevo.isolation.zygote:Zygote", ZygoteSetup("sandbox_handlers:Echo", "hello"), env=env,
                      name="zygote")
    sandbox.start()
    server = ForkServer(sandbox)
    yield server
    server.kill()


@pytest.fixture
def scratch_dir() -> Iterator[Path]:
    """A fresh folder for sandboxed children's scratch folders that their user can reach (pytest's
    tmp_path is closed to all but its owner, and a child run as root switches to the sandbox user)."""
    folder = Path(tempfile.mkdtemp(prefix="kernelevo-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES


@pytest.fixture
def llm_server():
    """A real OpenAI-compatible server on 127.0.0.1 with scripted replies (see tests/llm_server.py)."""
    from llm_server import ScriptedLLMServer

    server = ScriptedLLMServer()
    yield server
    server.close()


@pytest.fixture
def db(tmp_path: Path):
    """A migrated SQLite database of the test's own."""
    from kernelevo.storage.database import open_database

    database = open_database(f"sqlite:///{tmp_path / 'kernelevo.db'}")
    yield database
    database.dispose()


@pytest.fixture(scope="session")
def postgres_server():
    """The URL of a PostgreSQL server for the session (tests/postgres_server.py). Outside CI a machine without
    PostgreSQL skips these tests, with the reason; in CI (``CI`` set, as ``.ci/run`` does) that is a failure."""
    from postgres_server import NoPostgres, postgres_url

    try:
        with postgres_url() as url:
            yield url
    except NoPostgres as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL: {exc}")
        pytest.skip(f"no PostgreSQL server: {exc}")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def fresh_db_url(request: pytest.FixtureRequest, tmp_path: Path):
    """The URL of an empty database, never migrated: a SQLite file, or a PostgreSQL schema of the test's own."""
    import uuid

    from sqlalchemy import create_engine, text

    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'kernelevo.db'}"
        return
    server = request.getfixturevalue("postgres_server")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    yield f"{server}?options=-csearch_path%3D{schema}"
    with admin.begin() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


@pytest.fixture
def any_db(fresh_db_url: str):
    """A migrated, empty database on SQLite and on PostgreSQL (a schema of the test's own)."""
    from kernelevo.storage.database import open_database

    database = open_database(fresh_db_url)
    yield database
    database.dispose()
