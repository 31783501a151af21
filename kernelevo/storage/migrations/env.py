"""Alembic's environment: migrations run on the connection :meth:`Database.migrate` hands over."""

from __future__ import annotations

from alembic import context

from kernelevo.storage.tables import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # `alembic` on the command line: an URL in the config
    from sqlalchemy import create_engine

    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    connection = engine.connect()

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
