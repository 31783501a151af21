"""islands' migrations, stored in order: the migrations table

Each elite an island migration copied into another island's archive, with the run's evaluation count at
that moment. A resumed run replays them between its evaluations, so its archives of record are the ones
it stopped with. Runs stored before have none (their resumed archives lack the migrants, as before).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('migrations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('after_evaluations', sa.Integer(), nullable=False),
    sa.Column('hardware', sa.String(length=100), nullable=False),
    sa.Column('island', sa.Integer(), nullable=False),
    sa.Column('cell', sa.Integer(), nullable=False),
    sa.Column('candidate_id', sa.Integer(), nullable=False),
    sa.Column('candidate_number', sa.Integer(), nullable=False),
    sa.Column('objective', sa.Float(), nullable=False),
    sa.Column('measures', sa.JSON(), nullable=False),
    sa.Column('rel_iqr', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['candidate_id'], ['candidates.id'], ),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('migrations', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_migrations_run_id'), ['run_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('migrations', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_migrations_run_id'))
    op.drop_table('migrations')
