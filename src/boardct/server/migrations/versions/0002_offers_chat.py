"""Offers (draw, undo) and the per-game chat (server/social.py).

Revision ID: 0002_offers_chat
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_offers_chat"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("by_seat", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("answers", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, server_default="open"),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_offers_game", "offers", ["game"])
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False, server_default=""),
        sa.Column("to", sa.String(8), nullable=False),
        sa.Column("team", sa.JSON, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_game", "chat", ["game"])
    # the deadline scheduler looks for due games by this column
    op.create_index("ix_games_deadline_at", "games", ["deadline_at"])


def downgrade() -> None:
    op.drop_index("ix_games_deadline_at", "games")
    op.drop_index("ix_chat_game", "chat")
    op.drop_table("chat")
    op.drop_index("ix_offers_game", "offers")
    op.drop_table("offers")
