"""boardct's own games, one package each. Each offers its `Game` as `GAME`, named in the
`boardct.games` entry point group of boardct's `pyproject.toml` (as any other package's game
would be); the core finds them there and imports nothing from here."""
