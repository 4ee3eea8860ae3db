"""Accounts: accounts, browser sessions, personal API tokens; each seat's account and whether
the creator offers it in the lobby (server/accounts.py).

Revision ID: 0003_accounts
Revises: 0002_offers_chat
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_accounts"
down_revision = "0002_offers_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account"])
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_tokens_account", "api_tokens", ["account"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account", sa.Integer, nullable=True))
        batch.add_column(sa.Column("open", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.create_foreign_key("fk_seats_account", "accounts", ["account"], ["id"])
        batch.create_index("ix_seats_account", ["account"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account")
        batch.drop_constraint("fk_seats_account", type_="foreignkey")
        batch.drop_column("open")
        batch.drop_column("account")
    op.drop_index("ix_api_tokens_account", "api_tokens")
    op.drop_table("api_tokens")
    op.drop_index("ix_sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
