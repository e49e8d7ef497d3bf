"""companion: a table companion for physical vampire board games."""

__version__ = "0.1.0"
