"""The live-update benchmark runs against the real server and sees every update."""

from __future__ import annotations

from web.bench import main, percentile


def test_every_phone_sees_every_update_through_waitress(capsys) -> None:
    assert main(["--phones", "3", "--events", "6"]) == 0
    out = capsys.readouterr().out
    assert "updates not seen within 5 s: 0" in out


def test_the_95th_percentile_of_twenty_values_is_the_nineteenth() -> None:
    assert percentile([float(n) for n in range(1, 21)], 0.95) == 19.0
