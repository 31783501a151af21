"""Opening the database: SQLite by default (WAL: readers never block the writer), PostgreSQL by URL.

:func:`open_database` creates the engine, applies the pragmas SQLite needs, and brings the
schema up to date with Alembic's migrations (``kernelevo/storage/migrations``) before
anything reads or writes. A database that cannot be used (a file that is not SQLite, a
damaged or truncated one, another program's database, a read-only file a command must
write, a missing folder) raises :class:`DatabaseUnusable` with one line, before anything
is written to it or beside it.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, overload
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from kernelevo.settings import PoolSettings
from kernelevo.storage.json_values import to_json_text

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK_KEY = 0x6B65726E656C  # "kernel": one advisory lock shared by every kernelevo process


class DatabaseUnusable(Exception):
    """The database cannot be used as asked: ``where`` (its path, or its URL without the password) and
    ``reason``, one line that says what to do."""

    def __init__(self, where: str | Path, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where, self.reason = str(where), reason


class DatabaseMissing(DatabaseUnusable):
    """A SQLite file that does not exist, where the caller asked not to make one."""


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

    def __init__(self, url: str, settings: PoolSettings | None = None, *, immutable: bool = False) -> None:
        """``settings``: the pool's size (default: the environment's). ``immutable``: a SQLite file read as one
        that cannot change (SQLite takes no locks and makes no -wal or -shm file beside it): a read-only
        database that a command only reads."""
        self.url = url
        self.sqlite = url.startswith("sqlite")
        settings = settings or PoolSettings()
        # a server's connections can drop (a restart, an idle timeout): each is tested as it leaves the pool; a
        # SQLite file's cannot, and the test would be one more statement on every request
        options: dict[str, Any] = {"pool_pre_ping": not self.sqlite, "json_serializer": to_json_text}
        memory = self.sqlite and (url in ("sqlite://", "sqlite:///") or ":memory:" in url or "mode=memory" in url)
        if not memory:  # an in-memory SQLite database has one connection, and no pool to size
            options.update(pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow,
                           pool_timeout=settings.db_pool_timeout_s)
        if self.sqlite:
            options["connect_args"] = {"timeout": 30, "check_same_thread": False}
        path = self.path
        engine_url = f"sqlite:///file:{quote(str(path))}?immutable=1&uri=true" if immutable and path else url
        self.engine: Engine = create_engine(engine_url, **options)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    @property
    def path(self) -> Path | None:
        """The SQLite file (None: PostgreSQL, or SQLite in memory)."""
        name = make_url(self.url).database if self.sqlite else None
        return Path(name) if name and name != ":memory:" else None

    def migrate(self) -> None:
        """Bring the schema to Alembic's head (creates it on an empty database).

        Processes that open one fresh database at once (a driver and the API, or a test reading
        a run as it starts) take turns: the first creates the tables, the others find them made.
        PostgreSQL serializes them with an advisory lock held for the migration's transaction,
        SQLite with a lock on a file beside the database, made only while a migration is due and
        removed after it (see :func:`_file_lock`)."""
        from alembic import command
        from alembic.config import Config

        if self._at_head():
            return  # nothing to do: no lock, no lock file
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        lock = _file_lock(Path(f"{self.path}.migrate-lock")) if self.path else contextlib.nullcontext()
        with lock, self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def _at_head(self) -> bool:
        """Whether the schema is at the migrations' head already; :class:`DatabaseUnusable` for a database
        another program made, or a newer kernelevo."""
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        heads = set(ScriptDirectory(str(MIGRATIONS)).get_heads())
        with self.engine.connect() as connection:
            tables = set(connection.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE type = 'table'").scalars()) if self.sqlite else None
            current = set(MigrationContext.configure(connection).get_current_heads())
        if tables is not None and tables and "alembic_version" not in tables:
            shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
            raise DatabaseUnusable(self.where(), f"not a kernelevo database (another program's SQLite database, "
                                                 f"with the tables {shown})")
        known = {s.revision for s in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}
        if current - known:
            raise DatabaseUnusable(self.where(), f"made by a newer kernelevo (schema revision "
                                                 f"{', '.join(sorted(current - known))}, unknown to this one): "
                                                 "upgrade kernelevo")
        return current == heads

    def where(self) -> str:
        """The database as a person named it: the SQLite file's path, else the URL without its password."""
        return str(self.path) if self.path else self.describe()

    def check_writable(self) -> None:
        """Raise if the database cannot be written: SQLite takes its write lock and lets go (a read-only
        file, folder or file system fails here, not at a run's first write)."""
        if not self.sqlite or not self.path or not self.path.exists():
            return  # PostgreSQL: the migration's transaction finds out; a new file: made writable
        with self.engine.connect() as connection:
            # In WAL mode, BEGIN IMMEDIATE locks the -shm file, which a read-only database may still have
            # writable beside it: only a write tells. This one rewrites a header field as it is, then undoes it.
            version = connection.exec_driver_sql("PRAGMA user_version").scalar_one()
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                connection.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
            finally:
                connection.exec_driver_sql("ROLLBACK")

    def describe(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers (the API) never block the writer (the search)
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL keeps a committed transaction through a crash of the process
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def open_database(url: str, settings: PoolSettings | None = None, *, write: bool = True, make_folder: bool = True,
                  create: bool = True) -> Database:
    """A migrated database at ``url``, its pool sized by ``settings`` (default: the environment's);
    :class:`DatabaseUnusable` (one line) if it cannot be used.

    ``write``: the caller writes (a run, an import, the API): a read-only database is refused
    here rather than at its first write. ``make_folder``: a SQLite file's missing folder is made
    (the default database in the user's data directory); otherwise a missing folder is refused
    (a mistyped ``--db``). ``create``: a SQLite file that does not exist is made; otherwise it is
    refused (a command that only reads). Nothing is created beside a file that turns out unusable."""
    db = Database(url, settings, immutable=not write and _read_only_file(url))
    try:
        if db.path is not None:
            _check_sqlite_file(db.path, make_folder=make_folder, create=create)
            if write:
                _check_writable_file(db.path)
        if write:
            db.check_writable()
        db.migrate()
    except DatabaseUnusable:
        db.dispose()
        raise
    except (SQLAlchemyError, OSError) as exc:
        db.dispose()
        raise DatabaseUnusable(db.where(), _explain(exc, sqlite=db.sqlite)) from None
    return db


def _read_only_file(url: str) -> bool:
    """A SQLite file this process cannot write (nor its folder), with no write-ahead log left beside it: it
    is read as immutable, and nothing is made beside it."""
    if not url.startswith("sqlite"):
        return False
    name = make_url(url).database
    if not name or name == ":memory:" or not Path(name).is_file() or Path(f"{name}-wal").exists():
        return False
    return not (os.access(name, os.W_OK) and os.access(Path(name).parent, os.W_OK))


def _check_sqlite_file(path: Path, *, make_folder: bool, create: bool) -> None:
    """What can be told of a SQLite file before SQLite opens it (and, opening it, creates files beside it)."""
    if path.is_dir():
        raise DatabaseUnusable(path, f"is a folder; give a database file in it, e.g. {path / 'kernelevo.db'}")
    if not path.parent.is_dir():
        if not make_folder or path.parent.exists():
            raise DatabaseUnusable(path, f"the folder {path.parent} does not exist")
        path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        if not create:
            raise DatabaseMissing(path, "no database there (a run makes one: kernelevo run --db PATH SPEC)")
        return
    # Never opened here, only asked about: closing any descriptor of the file would drop the locks this
    # process's SQLite connections hold on it (POSIX locks are per process), and another process could then
    # take the file as unused and remove its -shm from under them. SQLite itself says "file is not a database".
    if not os.access(path, os.R_OK):
        raise DatabaseUnusable(path, "cannot be read (permission denied)")


def _check_writable_file(path: Path) -> None:
    """Refuse a SQLite file this process cannot write before SQLite opens it: opened, it would leave its -wal
    and -shm files beside a file it cannot checkpoint into."""
    for what, where in (("the file", path), ("its folder", path.parent)):
        if where.exists() and not os.access(where, os.W_OK):
            raise DatabaseUnusable(path, f"cannot be written ({what} is read-only): kernelevo writes its runs "
                                         "there; check the file's and its folder's permissions (and chattr)")


def _explain(exc: BaseException, *, sqlite: bool) -> str:
    """SQLite's or the driver's reason, as the one line after the database's name."""
    said = (exc.strerror if isinstance(exc, OSError) else None) or str(getattr(exc, "orig", None) or exc).strip()
    reason = said.splitlines()[0] if said else type(exc).__name__
    lowered = reason.lower()
    if "file is not a database" in lowered:
        return f"not a kernelevo database ({reason})"
    if "malformed" in lowered or "corrupt" in lowered:
        return f"a damaged SQLite database ({reason}): a truncated or partial copy? restore it from a whole copy"
    if "readonly" in lowered or "read-only" in lowered or "permission denied" in lowered:
        return (f"cannot be written ({reason}): kernelevo writes its runs there; check the file's and its "
                "folder's permissions")
    if "unable to open" in lowered:
        return f"cannot be opened ({reason}): check the path and its permissions"
    return f"cannot be used ({reason})" if sqlite else f"cannot be reached or used ({reason})"


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path``, created for the holder and removed before it lets go.

    A process waiting on a file the holder has removed finds, once it has the lock, that the path
    no longer names that file, and tries again on the new one: two processes never hold the lock
    at once, and no lock file stays behind (except after a crash, when the next holder removes it)."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # released when the file closes, or the process dies
            held = os.fstat(fd)
            try:
                now = os.stat(path)
            except FileNotFoundError:
                now = None
        except BaseException:
            os.close(fd)
            raise
        if now is not None and (now.st_ino, now.st_dev) == (held.st_ino, held.st_dev):
            break
        os.close(fd)
    try:
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(fd)
