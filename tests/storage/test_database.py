"""Opening the database: several processes opening one fresh database at once take turns."""

from __future__ import annotations

import subprocess
import sys
import time

from sqlalchemy import inspect

from kernelevo.storage.database import open_database

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
