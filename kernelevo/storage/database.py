"""Opening the database: SQLite by default (WAL: readers never block the writer), PostgreSQL by URL.

:func:`open_database` creates the engine, applies the pragmas SQLite needs, and brings the
schema up to date with Alembic's migrations (``kernelevo/storage/migrations``) before
anything reads or writes.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, overload

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from kernelevo.settings import PoolSettings

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK_KEY = 0x6B65726E656C  # "kernel": one advisory lock shared by every kernelevo process


def utcnow() -> datetime:
    return datetime.now(UTC)


@overload
def as_utc(moment: datetime) -> datetime: ...


@overload
def as_utc(moment: None) -> None: ...


def as_utc(moment: datetime | None) -> datetime | None:
    """A stored time as an aware UTC datetime (SQLite gives them back naive)."""
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Database:
    """An engine and its sessions. ``with db.session() as s:`` commits on success, rolls back on error."""

    def __init__(self, url: str, settings: PoolSettings | None = None) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        settings = settings or PoolSettings()
        # a server's connections can drop (a restart, an idle timeout): each is tested as it leaves the pool; a
        # SQLite file's cannot, and the test would be one more statement on every request
        options: dict[str, Any] = {"pool_pre_ping": not self.sqlite}
        memory = self.sqlite and (url in ("sqlite://", "sqlite:///") or ":memory:" in url or "mode=memory" in url)
        if not memory:  # an in-memory SQLite database has one connection, and no pool to size
            options.update(pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow,
                           pool_timeout=settings.db_pool_timeout_s)
        if self.sqlite:
            path = url.removeprefix("sqlite:///")
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            options["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine: Engine = create_engine(url, **options)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def migrate(self) -> None:
        """Bring the schema to Alembic's head (creates it on an empty database).

        Processes that open one fresh database at once (a driver and the API, or a test reading
        a run as it starts) take turns: the first creates the tables, the others find them made.
        PostgreSQL serializes them with an advisory lock held for the migration's transaction,
        SQLite with a lock on a file beside the database."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self._migration_lock(), self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextlib.contextmanager
    def _migration_lock(self) -> Iterator[None]:
        path = (self.engine.url.database or "") if self.sqlite else ""
        if not path or path == ":memory:":
            yield
            return
        with open(f"{path}.migrate-lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process dies
            yield

    def describe(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers (the API) never block the writer (the search)
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL keeps a committed transaction through a crash of the process
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def open_database(url: str, settings: PoolSettings | None = None) -> Database:
    """A migrated database at ``url``; its pool sized by ``settings`` (default: the environment's)."""
    db = Database(url, settings)
    db.migrate()
    return db
