"""kernelevo's service settings: the database, the API server, starting runs (pydantic-settings).

Every field can be set in the environment as ``KERNELEVO_<FIELD>`` (``KERNELEVO_DATABASE_URL``,
``KERNELEVO_API_PORT``, ...); command-line flags override them.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def data_dir() -> Path:
    """``$KERNELEVO_DATA_DIR``, else ``$XDG_DATA_HOME/kernelevo``, else ``~/.local/share/kernelevo``."""
    explicit = os.environ.get("KERNELEVO_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kernelevo"


class PoolSettings(BaseSettings):
    """SQLAlchemy's connection pool, per process (every process that opens the database reads these alone, so
    a bad value elsewhere in the environment never keeps a database from opening)."""

    model_config = SettingsConfigDict(env_prefix="KERNELEVO_", extra="ignore")

    db_pool_size: int = Field(default=20, ge=1)  # connections kept open
    db_max_overflow: int = Field(default=30, ge=0)  # extra ones under load, closed when returned
    db_pool_timeout_s: float = Field(default=30.0, gt=0)  # seconds to wait for one before an error


class Settings(PoolSettings):
    model_config = SettingsConfigDict(env_prefix="KERNELEVO_", extra="ignore")

    # SQLAlchemy URL; None: a SQLite file in the data directory. PostgreSQL for a cluster:
    # postgresql+psycopg://user:password@host/db (postgresql:// is taken to mean psycopg 3)
    database_url: str | None = None
    api_host: str = "127.0.0.1"  # loopback unless told otherwise
    api_port: int = Field(default=8321, ge=1, le=65535)
    api_reads_open: bool = True  # GET without a token; every mutating route always needs one
    api_cors_origins: list[str] = Field(default_factory=list)  # none: CORS off
    api_max_spec_bytes: int = Field(default=1 << 20, gt=0)
    # Host headers the API answers (besides 127.0.0.1, localhost, ::1 and the --host it binds): a page on
    # another site that rebinds its DNS name to this machine is refused. "*" turns the check off.
    api_allowed_hosts: list[str] = Field(default_factory=list)
    # threads that run the routes' database work (the event loop never waits on the database); at most
    # db_pool_size + db_max_overflow, so no thread ever waits for a connection
    api_threads: int = Field(default=40, ge=1, le=1000)
    # where runs started through the API go: a local child process per run, or a Ray job when set
    ray_address: str | None = None
    run_slots: int | None = Field(default=None, ge=1)  # runs at once (default: one per GPU, 1 without)
    # how a driver is started: this Python by default; "kernelevo" where the cluster's nodes have it installed
    run_command: str | None = None

    def resolved_database_url(self, db_path: str | None = None) -> str:
        """``db_path`` (a SQLite file) if given, else ``database_url``, else the default SQLite file."""
        if db_path:
            return f"sqlite:///{Path(db_path).expanduser().resolve()}"
        if self.database_url:
            url = self.database_url
            if url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
            return url
        return f"sqlite:///{data_dir() / 'kernelevo.db'}"
