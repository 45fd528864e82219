"""Trust between strangers: accounts can be closed (``users.closed_at``), chat lines carry
their sender's own name for them (``chat.nonce``: a line sent again is not written twice),
lines can be reported (``chat_reports``), mutes follow the account (``chat_mutes``), and
accounts can be banned and unbanned, each ban recorded with who, when and why (``bans``).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("nonce", sa.String(32), nullable=True))
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.Integer(), sa.ForeignKey("chat.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("sender", sa.String(64), nullable=False),
        sa.Column("sender_user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("sender_name", sa.String(32), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("reporter", sa.String(80), nullable=False),
        sa.Column("reporter_user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("handled_by", sa.String(64), nullable=True),
        sa.UniqueConstraint("chat_id", "reporter"),
    )
    op.create_index("ix_chat_reports_chat_id", "chat_reports", ["chat_id"])
    op.create_table(
        "chat_mutes",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("muted", sa.String(80), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("banned_by", sa.String(64), nullable=False),
        sa.Column("banned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_by", sa.String(64), nullable=True),
    )
    op.create_index("ix_bans_user_id", "bans", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_bans_user_id", table_name="bans")
    op.drop_table("bans")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_chat_id", table_name="chat_reports")
    op.drop_table("chat_reports")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("nonce")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("closed_at")
