"""What the tests that draw their own tile art share: a plain palette of the five
tile colours (BGR), strong enough to read under any of the tests' lamps."""

from __future__ import annotations

from companion.bitenight.tiles import Colour

COLOURS = {
    Colour.BLUE: (180, 110, 20),
    Colour.RED: (50, 30, 210),
    Colour.YELLOW: (30, 190, 245),
    Colour.GREEN: (60, 170, 40),
    Colour.PURPLE: (160, 50, 120),
}
