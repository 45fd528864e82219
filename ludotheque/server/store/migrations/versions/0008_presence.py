"""Who is online: a row per server process and person with a live connection, renewed while
it lasts (``lobby.presence``); a process that dies stops renewing its rows and they expire.

Revision ID: 0008
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("process", sa.String(24), primary_key=True),
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_presence_seen_at", "presence", ["seen_at"])


def downgrade() -> None:
    op.drop_index("ix_presence_seen_at", table_name="presence")
    op.drop_table("presence")
