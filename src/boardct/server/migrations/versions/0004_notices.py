"""Notifications: the notices' outbox, each account's preferences, guests' per-seat contacts,
unsubscribed e-mail addresses and the server's shared keys (server/outbox.py,
server/notices.py).

Revision ID: 0004_notices
Revises: 0003_accounts
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_notices"
down_revision = "0003_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(64), nullable=False, unique=True),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.String(500), nullable=True),
        sa.Column("delivered", sa.JSON, nullable=False),
    )
    op.create_index("ix_notices_game", "notices", ["game"])
    op.create_index("ix_notices_account", "notices", ["account"])
    op.create_index("ix_notices_status", "notices", ["status"])
    op.create_index("ix_notices_next_at", "notices", ["next_at"])
    op.create_table(
        "notice_prefs",
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("kinds", sa.JSON, nullable=False),
        sa.Column("email", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("apprise_url", sa.String(500), nullable=True),
        sa.Column("quiet_from", sa.String(5), nullable=True),
        sa.Column("quiet_to", sa.String(5), nullable=True),
        sa.Column("timezone", sa.String(64), nullable=False, server_default="UTC"),
        sa.Column("throttle_minutes", sa.Integer, nullable=True),
    )
    op.create_table(
        "seat_contacts",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("apprise_url", sa.String(500), nullable=True),
        sa.Column("kinds", sa.JSON, nullable=False),
        sa.Column("email_off", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "email_optouts",
        sa.Column("address_hash", sa.String(64), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("email_optouts")
    op.drop_table("seat_contacts")
    op.drop_table("notice_prefs")
    op.drop_index("ix_notices_next_at", "notices")
    op.drop_index("ix_notices_status", "notices")
    op.drop_index("ix_notices_account", "notices")
    op.drop_index("ix_notices_game", "notices")
    op.drop_table("notices")
