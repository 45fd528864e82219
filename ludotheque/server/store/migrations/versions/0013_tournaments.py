"""Tournaments (``tournaments``: arenas and Swiss), their players (``tournament_players``) and
games (``tournament_games``: the pairings, byes included); the job queue takes a tournament's
own jobs (``jobs.tournament_id``; ``jobs.game_id`` may then be empty).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("control", sa.String(16), nullable=False),
        sa.Column("length", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("berserk", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
    )
    op.create_index("ix_tournaments_status_starts", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_tournament_players_user_id", "tournament_players", ["user_id"])
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("white", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("black", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True, unique=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("berserk_white", sa.Boolean(), nullable=False),
        sa.Column("berserk_black", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournament_games_t_status", "tournament_games",
                    ["tournament_id", "status"])  # fmt: skip
    with op.batch_alter_table("jobs") as batch:
        batch.alter_column("game_id", existing_type=sa.String(32), nullable=True)
        batch.add_column(sa.Column("tournament_id", sa.String(16), nullable=True))
        batch.create_foreign_key("fk_jobs_tournament_id", "tournaments", ["tournament_id"],
                                 ["id"])  # fmt: skip
        batch.create_unique_constraint("uq_jobs_tournament_kind_seq",
                                       ["tournament_id", "kind", "seq"])  # fmt: skip
    op.create_index("ix_jobs_tournament_id", "jobs", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_jobs_tournament_id", table_name="jobs")
    op.execute("DELETE FROM jobs WHERE game_id IS NULL")
    with op.batch_alter_table("jobs") as batch:
        batch.drop_constraint("uq_jobs_tournament_kind_seq", type_="unique")
        batch.drop_constraint("fk_jobs_tournament_id", type_="foreignkey")
        batch.drop_column("tournament_id")
        batch.alter_column("game_id", existing_type=sa.String(32), nullable=False)
    op.drop_index("ix_tournament_games_t_status", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_players_user_id", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status_starts", table_name="tournaments")
    op.drop_table("tournaments")
