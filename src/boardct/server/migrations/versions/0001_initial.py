"""The first schema: games (setup, version, result, deadline columns), seats, actions.

Revision ID: 0001
Revises:
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(24), nullable=False),
        sa.Column("names", sa.JSON, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("status", sa.String(16), nullable=False, server_default="open"),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("move_time", sa.Float, nullable=True),
        sa.Column("on_timeout", sa.String(16), nullable=True),
        sa.Column("turn_deadline", sa.Float, nullable=True),
    )
    op.create_index("ix_games_status_public", "games", ["status", "public"])
    op.create_table(
        "seats",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("agent", sa.String(200), nullable=True),
        sa.Column("name", sa.String(200), nullable=False, server_default=""),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_index("ix_seats_invite_hash", "seats", ["invite_hash"])
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("move_id", sa.String(100), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "seq", name="uq_actions_game_seq"),
        sa.UniqueConstraint("game", "move_id", name="uq_actions_game_move_id"),
    )
    op.create_index("ix_actions_game", "actions", ["game"])


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_games_status_public", "games")
    op.drop_table("games")
