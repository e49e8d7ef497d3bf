"""The board of 60 graves: six rows (A–F) of ten columns (1–10), named like "C4".

Players call a grave by its row letter and column number, as printed on the grid the
phone shows, so that is the only name the engine accepts from outside.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.events import IllegalEvent

ROWS = 6
COLUMNS = 10
GRAVE_COUNT = ROWS * COLUMNS
ROW_LETTERS = "ABCDEF"


@dataclass(frozen=True, order=True)
class Grave:
    """One grave of the board, by its place (0 is A1, 59 is F10)."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < GRAVE_COUNT:
            raise IllegalEvent(f"there is no grave number {self.index}")

    @property
    def row(self) -> int:
        return self.index // COLUMNS

    @property
    def column(self) -> int:
        return self.index % COLUMNS

    @property
    def name(self) -> str:
        return f"{ROW_LETTERS[self.row]}{self.column + 1}"

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: object) -> Grave:
        """The grave a name like "C4" (any case) stands for; refuses anything else."""
        if not isinstance(text, str):
            raise IllegalEvent(f"a grave is named by a letter and a number like C4, not {text!r}")
        name = text.strip().upper()
        letter, number = name[:1], name[1:]
        if letter and letter in ROW_LETTERS and number.isdigit() and 1 <= int(number) <= COLUMNS:
            return cls(ROW_LETTERS.index(letter) * COLUMNS + int(number) - 1)
        raise IllegalEvent(f"there is no grave {text!r}: graves run from A1 to F10")

    def neighbours(self) -> tuple[Grave, ...]:
        """The graves around this one, diagonals included (three to eight of them)."""
        return tuple(
            Grave(r * COLUMNS + c)
            for r in range(self.row - 1, self.row + 2)
            for c in range(self.column - 1, self.column + 2)
            if 0 <= r < ROWS and 0 <= c < COLUMNS and (r, c) != (self.row, self.column)
        )


ALL_GRAVES: tuple[Grave, ...] = tuple(Grave(i) for i in range(GRAVE_COUNT))
