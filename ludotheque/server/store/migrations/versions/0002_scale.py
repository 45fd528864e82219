"""Scale-out: the side to move and the last change of each game; the job queue.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("to_move", sa.String(16), nullable=True))
        batch.add_column(sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_games_unfinished", "games", ["finished_at", "updated_at"])
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("not_before", sa.Float(), nullable=False),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("game_id", "kind", "seq"),
    )
    op.create_index("ix_jobs_game_id", "jobs", ["game_id"])
    op.create_index("ix_jobs_status_not_before", "jobs", ["status", "not_before"])


def downgrade() -> None:
    op.drop_table("jobs")
    op.drop_index("ix_games_unfinished", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("updated_at")
        batch.drop_column("to_move")
