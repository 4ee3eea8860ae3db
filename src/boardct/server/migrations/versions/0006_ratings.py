"""Ratings and administration: rated games, each account's rating per game and its history
(server/ratings.py); administrators and disabled accounts (server/admin.py).

Revision ID: 0006_ratings
Revises: 0003_accounts
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_ratings"
down_revision = "0005_clocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN: a batch copy of `accounts` on SQLite would drop the
    # table other tables' foreign keys point at
    op.add_column("accounts", sa.Column("is_admin", sa.Boolean, nullable=False,
                                        server_default=sa.false()))
    op.add_column("accounts", sa.Column("disabled", sa.Boolean, nullable=False,
                                        server_default=sa.false()))
    op.create_table(
        "rated_games",
        sa.Column("game", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("counted", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.String(200), nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("glicko", sa.Float, nullable=True),
        sa.Column("glicko_rd", sa.Float, nullable=True),
        sa.Column("glicko_vol", sa.Float, nullable=True),
        sa.Column("glicko_games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    # the leaderboard reads one game's ratings
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("glicko_before", sa.Float, nullable=True),
        sa.Column("glicko_after", sa.Float, nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "account", name="uq_rating_history_game_account"),
    )
    op.create_index("ix_rating_history_account", "rating_history", ["account"])
    op.create_index("ix_rating_history_game_id", "rating_history", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_game_id", "rating_history")
    op.drop_index("ix_rating_history_account", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
    op.drop_table("rated_games")
    # plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+, PostgreSQL): a batch copy of
    # `accounts` would drop the table other tables' foreign keys point at
    op.drop_column("accounts", "disabled")
    op.drop_column("accounts", "is_admin")
