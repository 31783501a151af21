"""which floor a roofline fraction is of: evaluations.roofline_floor and runs.best_roofline_floor

Beside each stored fraction, the floor it was reached against ("read", "copy" or "compute"), so
lists show "98% (read)" without loading each evaluation's result. Both columns are filled in
from what is stored already: an evaluation's from its result's roofline, a run's from the
evaluation whose fraction it holds.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""
from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

BATCH = 1000  # evaluations read and updated at a time: a long run holds hundreds of thousands

evaluations = sa.table('evaluations', sa.column('id', sa.Integer()), sa.column('run_id', sa.Integer()),
                       sa.column('result', sa.JSON()), sa.column('roofline', sa.Float()),
                       sa.column('roofline_floor', sa.String(10)))
runs = sa.table('runs', sa.column('id', sa.Integer()), sa.column('best_roofline', sa.Float()),
                sa.column('best_roofline_floor', sa.String(10)))


def floor_of(roofline: dict[str, Any] | None) -> str | None:
    """The floor a stored roofline names, or for a result stored before reads and writes were told apart (no
    ``floor``), the one its numbers show: copy, or compute where FLOPs at the peak take longer. What
    ``Roofline.floor_kind`` did when this revision was written, copied so this migration keeps doing it."""
    if not roofline:
        return None
    if roofline.get('floor'):
        return str(roofline['floor'])
    bandwidth, flops, peak = roofline.get('bandwidth_gbs'), roofline.get('flops'), roofline.get('peak_tflops')
    if roofline.get('floor_ms') is None or not bandwidth:
        return None
    copy_ms = roofline['bytes_moved'] / (bandwidth * 1e6)
    compute_ms = flops / (peak * 1e9) if flops and peak else 0.0
    return 'compute' if compute_ms > copy_ms else 'copy'


def _backfill_evaluations(connection: sa.Connection) -> int:
    """Fill in the floor of every evaluation with a fraction, in batches by id; how many were filled."""
    # only the roofline out of each result (JSON_EXTRACT on SQLite, -> on PostgreSQL), not the whole of it
    read = (sa.select(evaluations.c.id, evaluations.c.result['roofline'].label('roofline'))
            .where(evaluations.c.roofline.is_not(None)).order_by(evaluations.c.id).limit(BATCH))
    write = (sa.update(evaluations).where(evaluations.c.id == sa.bindparam('row_id'))
             .values(roofline_floor=sa.bindparam('floor')))
    last, filled = 0, 0
    while rows := connection.execute(read.where(evaluations.c.id > last)).all():
        last = rows[-1].id
        found = [{'row_id': row.id, 'floor': floor} for row in rows if (floor := floor_of(row.roofline))]
        if found:
            connection.execute(write, found)
            filled += len(found)
    return filled


def _backfill_runs(connection: sa.Connection) -> None:
    """A run's floor: that of its evaluation whose fraction is the run's best one (the summary copied it
    from that evaluation's result, so the two are the same float); NULL where none is."""
    source = evaluations.alias('source')
    floor = (sa.select(source.c.roofline_floor)
             .where(source.c.run_id == runs.c.id, source.c.roofline == runs.c.best_roofline,
                    source.c.roofline_floor.is_not(None))
             .order_by(source.c.id.desc()).limit(1).scalar_subquery())
    connection.execute(sa.update(runs).where(runs.c.best_roofline.is_not(None)).values(best_roofline_floor=floor))


def upgrade() -> None:
    with op.batch_alter_table('evaluations', schema=None) as batch_op:
        batch_op.add_column(sa.Column('roofline_floor', sa.String(length=10), nullable=True))
    with op.batch_alter_table('runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('best_roofline_floor', sa.String(length=10), nullable=True))
    connection = op.get_bind()
    _backfill_evaluations(connection)
    _backfill_runs(connection)


def downgrade() -> None:
    with op.batch_alter_table('runs', schema=None) as batch_op:
        batch_op.drop_column('best_roofline_floor')
    with op.batch_alter_table('evaluations', schema=None) as batch_op:
        batch_op.drop_column('roofline_floor')
