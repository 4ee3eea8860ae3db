"""The shipped Shift cards (TOML files, one card each): original designs of this project."""
