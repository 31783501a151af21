"""the initial schema: specs, runs, candidates, evaluations, elites, failures, prompts, events, tokens

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-23
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('api_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('digest')
    )
    op.create_table('specs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('settings', sa.JSON(), nullable=False),
    sa.Column('seeds', sa.JSON(), nullable=False),
    sa.Column('report', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('sha256')
    )
    op.create_table('runs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('spec_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('config', sa.JSON(), nullable=False),
    sa.Column('owner', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('stop_reason', sa.Text(), nullable=True),
    sa.Column('stop_requested', sa.Boolean(), nullable=False),
    sa.Column('driver', sa.String(length=200), nullable=True),
    sa.Column('out_dir', sa.Text(), nullable=True),
    sa.Column('lease_owner', sa.String(length=200), nullable=True),
    sa.Column('lease_expires_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('hardware', sa.String(length=100), nullable=True),
    sa.Column('interpreted', sa.Boolean(), nullable=False),
    sa.Column('evaluations', sa.Integer(), nullable=False),
    sa.Column('correct', sa.Integer(), nullable=False),
    sa.Column('best_speedup_eager', sa.Float(), nullable=True),
    sa.Column('best_speedup_compile', sa.Float(), nullable=True),
    sa.Column('best_roofline', sa.Float(), nullable=True),
    sa.Column('tokens', sa.Integer(), nullable=False),
    sa.Column('dollars', sa.Float(), nullable=False),
    sa.Column('elapsed_s', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['spec_id'], ['specs.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('runs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_runs_spec_id'), ['spec_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_runs_status'), ['status'], unique=False)

    op.create_table('candidates',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('source_hash', sa.String(length=32), nullable=False),
    sa.Column('operator', sa.String(length=40), nullable=False),
    sa.Column('parent_numbers', sa.JSON(), nullable=False),
    sa.Column('prompt_number', sa.Integer(), nullable=True),
    sa.Column('island', sa.Integer(), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('model', sa.String(length=200), nullable=True),
    sa.Column('usage', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('run_id', 'number')
    )
    op.create_table('operator_failures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('operator', sa.String(length=40), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('parent_numbers', sa.JSON(), nullable=False),
    sa.Column('usage', sa.JSON(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('operator_failures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_operator_failures_run_id'), ['run_id'], unique=False)

    op.create_table('prompt_evolutions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('parent_number', sa.Integer(), nullable=False),
    sa.Column('mutation', sa.String(length=40), nullable=False),
    sa.Column('prompt_number', sa.Integer(), nullable=True),
    sa.Column('usage', sa.JSON(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('prompt_evolutions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_prompt_evolutions_run_id'), ['run_id'], unique=False)

    op.create_table('prompts',
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('sections', sa.JSON(), nullable=False),
    sa.Column('parent_number', sa.Integer(), nullable=True),
    sa.Column('mutation', sa.String(length=40), nullable=True),
    sa.Column('fitness', sa.Float(), nullable=True),
    sa.Column('best_candidate_number', sa.Integer(), nullable=True),
    sa.Column('uses', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
    sa.PrimaryKeyConstraint('run_id', 'number')
    )
    op.create_table('run_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('run_events', schema=None) as batch_op:
        batch_op.create_index('ix_run_events_run_order', ['run_id', 'id'], unique=False)

    op.create_table('elites',
    sa.Column('run_id', sa.Integer(), nullable=False),
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
    sa.PrimaryKeyConstraint('run_id', 'hardware', 'island', 'cell')
    )
    with op.batch_alter_table('elites', schema=None) as batch_op:
        batch_op.create_index('ix_elites_hardware_objective', ['hardware', 'objective'], unique=False)

    op.create_table('evaluations',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('run_id', sa.Integer(), nullable=False),
    sa.Column('candidate_id', sa.Integer(), nullable=False),
    sa.Column('candidate_number', sa.Integer(), nullable=False),
    sa.Column('hardware', sa.String(length=100), nullable=False),
    sa.Column('correct', sa.Boolean(), nullable=False),
    sa.Column('stage', sa.String(length=20), nullable=False),
    sa.Column('error', sa.String(length=40), nullable=True),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('objective', sa.Float(), nullable=True),
    sa.Column('measures', sa.JSON(), nullable=True),
    sa.Column('island', sa.Integer(), nullable=False),
    sa.Column('cell', sa.Integer(), nullable=True),
    sa.Column('archive_status', sa.String(length=20), nullable=True),
    sa.Column('kernel_ms', sa.Float(), nullable=True),
    sa.Column('speedup_eager', sa.Float(), nullable=True),
    sa.Column('speedup_compile', sa.Float(), nullable=True),
    sa.Column('roofline', sa.Float(), nullable=True),
    sa.Column('interpreted', sa.Boolean(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('finished_at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['candidate_id'], ['candidates.id'], ),
    sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('evaluations', schema=None) as batch_op:
        batch_op.create_index('ix_evaluations_candidate_hardware', ['candidate_id', 'hardware'], unique=False)
        batch_op.create_index('ix_evaluations_run_candidate', ['run_id', 'candidate_number'], unique=False)
        batch_op.create_index('ix_evaluations_run_order', ['run_id', 'id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('evaluations', schema=None) as batch_op:
        batch_op.drop_index('ix_evaluations_run_order')
        batch_op.drop_index('ix_evaluations_run_candidate')
        batch_op.drop_index('ix_evaluations_candidate_hardware')

    op.drop_table('evaluations')
    with op.batch_alter_table('elites', schema=None) as batch_op:
        batch_op.drop_index('ix_elites_hardware_objective')

    op.drop_table('elites')
    with op.batch_alter_table('run_events', schema=None) as batch_op:
        batch_op.drop_index('ix_run_events_run_order')

    op.drop_table('run_events')
    op.drop_table('prompts')
    with op.batch_alter_table('prompt_evolutions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_prompt_evolutions_run_id'))

    op.drop_table('prompt_evolutions')
    with op.batch_alter_table('operator_failures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_operator_failures_run_id'))

    op.drop_table('operator_failures')
    op.drop_table('candidates')
    with op.batch_alter_table('runs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_runs_status'))
        batch_op.drop_index(batch_op.f('ix_runs_spec_id'))

    op.drop_table('runs')
    op.drop_table('specs')
    op.drop_table('api_tokens')
