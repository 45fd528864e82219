"""Limits shared by every process: request counts per minute window (so that N processes allow
the configured figure, not N times it), and failed sign-ins per account, address and device
(growing delays); analyses remember who asked for them (a cap on queued analyses).

Revision ID: 0004
Revises: 0003, a001_analysis
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = ("0003", "a001_analysis")
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counts",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("window", sa.BigInteger(), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
    )
    op.create_table(
        "sign_in_failures",
        sa.Column("scope", sa.String(8), primary_key=True),
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("analyses") as batch:
        batch.add_column(sa.Column("requested_from", sa.String(80), nullable=True))
        batch.add_column(sa.Column("requested_user", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("requested_user")
        batch.drop_column("requested_from")
    op.drop_table("sign_in_failures")
    op.drop_table("rate_counts")
