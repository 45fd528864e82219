"""Analyses of finished games: one row per game and strength, with its progress and result.

A branch of its own from 0002 (the job queue it needs): ``migrate`` upgrades every head.

Revision ID: a001_analysis
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "a001_analysis"
down_revision = "0002"
branch_labels = ("analysis",)
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("strength", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("requested_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("analyses")
