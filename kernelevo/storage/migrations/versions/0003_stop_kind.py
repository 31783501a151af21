"""why a run stopped, as a kind: runs.stop_kind

Beside the sentence in runs.stop_reason, the kind of stop (kernelevo.records.run.StopReason: budget_time,
exhausted, llm_failed, ...), so runs can be filtered and counted by why they stopped. Runs stored before
are classified from their sentence where the sentence is one kernelevo wrote for a single kind; any other
sentence leaves the kind NULL.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""
from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

runs = sa.table('runs', sa.column('id', sa.Integer()), sa.column('status', sa.String(20)),
                sa.column('stop_reason', sa.Text()), sa.column('stop_kind', sa.String(30)))

# The sentences kernelevo wrote for each kind when this revision was written (kernelevo.search.scheduler,
# kernelevo.driver, kernelevo.storage.runs), as the start of the sentence; copied, so this migration keeps
# reading old rows the same way whatever the code says later. The first that matches wins.
KINDS: tuple[tuple[str, str], ...] = (
    ('evaluation budget (', 'budget_evaluations'),
    ('time budget (', 'budget_time'),
    ('token budget (', 'budget_tokens'),
    ('dollar budget (', 'budget_dollars'),
    ('the operators made nothing new from any elite', 'exhausted'),
    ('the operators made nothing new in ', 'idle_operators'),
    ('no correct kernel to vary', 'no_correct_seed'),
    ('the LLM failed', 'llm_failed'),
    ('stopped on request (the API)', 'stopped_by_user'),
    ('stopped by the user', 'stopped_by_user'),
    ('stopped by Ctrl-C', 'ctrl_c'),
    ('stopped (SIGTERM)', 'sigterm'),
    ('stopped before it started', 'stopped_before_start'),
    ("another driver took over this run's lease", 'lease_lost'),
    ('stopped at once (Ctrl-C twice)', 'interrupted'),
    ("the run's driver ended before finishing it", 'driver_ended'),
)
# a failed run's other sentence, when it is an exception's type name (and message): the driver raised
RAISED = re.compile(r'[A-Z][A-Za-z0-9_]*(: |$)')
BATCH = 1000


def kind_of(status: str | None, reason: str | None) -> str | None:
    """The kind of stop an old run's sentence names; None where it names none clearly."""
    if not reason:
        return None
    for start, kind in KINDS:
        if reason.startswith(start):
            return kind
    if status == 'failed' and RAISED.match(reason):
        return 'driver_failed'
    return None


def upgrade() -> None:
    with op.batch_alter_table('runs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('stop_kind', sa.String(length=30), nullable=True))
    connection = op.get_bind()
    read = (sa.select(runs.c.id, runs.c.status, runs.c.stop_reason).where(runs.c.stop_reason.is_not(None))
            .order_by(runs.c.id).limit(BATCH))
    write = sa.update(runs).where(runs.c.id == sa.bindparam('row_id')).values(stop_kind=sa.bindparam('kind'))
    last = 0
    while rows := connection.execute(read.where(runs.c.id > last)).all():
        last = rows[-1].id
        found = [{'row_id': row.id, 'kind': kind} for row in rows if (kind := kind_of(row.status, row.stop_reason))]
        if found:
            connection.execute(write, found)


def downgrade() -> None:
    with op.batch_alter_table('runs', schema=None) as batch_op:
        batch_op.drop_column('stop_kind')
