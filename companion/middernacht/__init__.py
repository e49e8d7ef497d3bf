"""Middernacht, Vampierenjacht: the memory game of graves, lids, rats, garlic and stakes."""
