"""Front ends in the terminal: the `boardct` command."""
