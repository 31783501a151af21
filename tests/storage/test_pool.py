"""The connection pool is sized from the settings, and holds the API's threads without a wait."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelevo.settings import PoolSettings, Settings
from kernelevo.storage.database import Database


def test_the_pool_is_sized_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KERNELEVO_DB_POOL_SIZE", "7")
    monkeypatch.setenv("KERNELEVO_DB_MAX_OVERFLOW", "3")
    monkeypatch.setenv("KERNELEVO_RUN_SLOTS", "0")  # invalid for the API's settings: the database opens anyway
    db = Database(f"sqlite:///{tmp_path / 'k.db'}")
    assert db.engine.pool.size() == 7 and db.engine.pool._max_overflow == 3  # type: ignore[attr-defined]
    db.dispose()
    memory = Database("sqlite://", PoolSettings(db_pool_size=2))  # one connection, no pool to size
    with memory.session() as session:
        assert session.connection() is not None


def test_the_default_pool_holds_every_api_thread() -> None:
    settings = Settings()
    assert settings.api_threads <= settings.db_pool_size + settings.db_max_overflow
