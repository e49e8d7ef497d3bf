"""Vampire token colours: the default six names (RULINGS.md V1); a tile set may name others."""

DEFAULT_TOKEN_COLOURS: tuple[str, ...] = ("red", "yellow", "white", "blue", "green", "black")
TOKENS_PER_COLOUR = 10
