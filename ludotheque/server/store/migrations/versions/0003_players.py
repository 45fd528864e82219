"""A place where players meet: accounts and their sign-ins, who plays each game, ratings and
their history, the lobby's seeks, the games' chat, shared settings; games gain a time control,
a rated flag and a public flag. The computer's levels are accounts without a password.

Revision ID: 0003
Revises: 0002
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

LEVELS = ("easy", "medium", "hard")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("control", sa.String(16), nullable=True))
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    users = op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text(), nullable=True),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "logins",
        sa.Column("token_sha256", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_logins_user_id", "logins", ["user_id"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("side", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("visitor", sa.String(64), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("provisional", sa.Boolean(), nullable=False),
        sa.Column("change", sa.Float(), nullable=True),
    )
    op.create_index("ix_game_players_user_id", "game_players", ["user_id"])
    op.create_index("ix_game_players_visitor", "game_players", ["visitor"])
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("last_played", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "ruleset", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_user_id", "rating_history", ["user_id"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("visitor", sa.String(64), nullable=True),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("control", sa.String(16), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("side", sa.String(16), nullable=True),
        sa.Column("opponent_key", sa.String(32), nullable=True),
        sa.Column("opponent_name", sa.String(32), nullable=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_seeks_status_created", "seeks", ["status", "created_at"])
    op.create_index("ix_seeks_opponent_key", "seeks", ["opponent_key"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_chat_game_id", "chat", ["game_id"])
    op.create_table(
        "server_settings",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    # the computer's levels are players with ratings (no password: nobody signs in as them)
    op.bulk_insert(
        users,
        [
            {
                "username": f"computer-{level}",
                "username_key": f"computer_{level}",
                "password_hash": None,
                "level": level,
                "created_at": datetime.now(UTC).replace(microsecond=0),
            }
            for level in LEVELS
        ],
    )


def downgrade() -> None:
    for table in (
        "server_settings", "chat", "seeks", "rating_history", "ratings", "game_players",
        "logins", "users",
    ):  # fmt: skip
        op.drop_table(table)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("public")
        batch.drop_column("rated")
        batch.drop_column("control")
