"""A game's log has no gap: on PostgreSQL, the move statement appends at ``seq`` only where
``seq - 1`` is there (``ludotheque_follows``), so that a process whose memory is ahead of a
database that lost its last commits (a crash without synchronous commit, a failover to an
asynchronous standby) is refused and reads the game again, instead of writing after a hole.
SQLite and the ORM's path check the same in the transaction itself.

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

FOLLOWS = """
CREATE OR REPLACE FUNCTION ludotheque_follows(game text, place integer) RETURNS boolean AS $$
BEGIN
    IF place > 0 AND NOT EXISTS (
        SELECT 1 FROM events WHERE game_id = game AND seq = place - 1
    ) THEN
        RAISE EXCEPTION 'the log of game % ends before entry %', game, place
            USING ERRCODE = 'LG001';
    END IF;
    RETURN true;
END
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(FOLLOWS)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS ludotheque_follows(text, integer)")
