"""The game server: `boardct serve`.

A FastAPI app (`app.create_app`) over a `service.GameService` that keeps each game as its setup
and an append-only action log in a SQL database (SQLite by default, PostgreSQL by URL), caches
the live state per game, and sends every seat only what `view(seat)` and
`events_for(events, seat)` allow (`messages`). Everything game-specific goes through the core
API. FastAPI, SQLAlchemy, Alembic and uvicorn are the optional extra `server`.
"""
