"""The computer's ``perfect`` level (the General, solved) is a player with ratings, as the other
levels are: an account without a password, ``computer-perfect``.

Revision ID: 0010
Revises: 0008
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0008"
branch_labels = None
depends_on = None

USERS = sa.table(
    "users",
    sa.column("username", sa.String),
    sa.column("username_key", sa.String),
    sa.column("password_hash", sa.Text),
    sa.column("level", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    found = op.get_bind().execute(
        sa.select(sa.func.count()).select_from(USERS).where(USERS.c.level == "perfect")
    )
    if found.scalar_one():
        return
    op.bulk_insert(
        USERS,
        [
            {
                "username": "computer-perfect",
                "username_key": "computer_perfect",
                "password_hash": None,
                "level": "perfect",
                "created_at": datetime.now(UTC).replace(microsecond=0),
            }
        ],
    )


def downgrade() -> None:
    bind = op.get_bind()
    users = sa.table("users", sa.column("id"), sa.column("level"))
    ids = [row[0] for row in bind.execute(sa.select(users.c.id).where(users.c.level == "perfect"))]
    if not ids:
        return
    for name in ("rating_history", "ratings"):
        table = sa.table(name, sa.column("user_id"))
        bind.execute(sa.delete(table).where(table.c.user_id.in_(ids)))
    players = sa.table("game_players", sa.column("user_id"))
    bind.execute(sa.update(players).where(players.c.user_id.in_(ids)).values(user_id=None))
    bind.execute(sa.delete(users).where(users.c.id.in_(ids)))
