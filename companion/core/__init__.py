"""The shared core: events, the game log and its SQLite store."""
