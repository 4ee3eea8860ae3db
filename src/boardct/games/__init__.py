"""One package per game. Each registers its `Game` with `boardct.core.registry` on import."""
