"""Clocks: each game's moderator, reminder hours, missed-deadline rule and pause
(`game_clocks`), the reminders due before each deadline (`deadline_reminders`), the deadlines
each seat missed in a row (`seat_misses`), and an index for the deadline keeper's two looks at
the games (playing, by deadline) (server/clocks.py, server/deadlines.py).

Revision ID: 0005_clocks
Revises: 0003_accounts
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_clocks"
down_revision = "0004_notices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_clocks",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("moderator_seat", sa.Integer, nullable=True),
        sa.Column("moderator_account", sa.Integer, sa.ForeignKey("accounts.id"),
                  nullable=True),
        sa.Column("moderator_hash", sa.String(64), nullable=True),
        sa.Column("reminders", sa.JSON, nullable=False),
        sa.Column("miss_limit", sa.Integer, nullable=True),
        sa.Column("miss_action", sa.String(16), nullable=True),
        sa.Column("miss_agent", sa.String(200), nullable=True),
        sa.Column("paused_left", sa.Float, nullable=True),
    )
    op.create_table(
        "deadline_reminders",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("hours", sa.Float, nullable=False),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_deadline_reminders_game", "deadline_reminders", ["game"])
    op.create_index("ix_deadline_reminders_due_at", "deadline_reminders", ["due_at"])
    op.create_table(
        "seat_misses",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("missed", sa.Integer, nullable=False, server_default="0"),
    )
    # the keeper looks every half second for playing games by deadline (due ones, and ones
    # with a limit but no deadline yet): without it, a scan of every game
    op.create_index("ix_games_status_deadline", "games", ["status", "deadline_at"])


def downgrade() -> None:
    op.drop_index("ix_games_status_deadline", "games")
    op.drop_table("seat_misses")
    op.drop_index("ix_deadline_reminders_due_at", "deadline_reminders")
    op.drop_index("ix_deadline_reminders_game", "deadline_reminders")
    op.drop_table("deadline_reminders")
    op.drop_table("game_clocks")
