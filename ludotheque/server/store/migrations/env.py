"""Alembic environment: migrations run on the connection the app hands over."""

from __future__ import annotations

from alembic import context

from ludotheque.server.store.db import Base

connection = context.config.attributes.get("connection")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
