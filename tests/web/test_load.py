"""``companion load``: a short run against a server of its own, and its limits.

The figures themselves are measured by running the command (docs/reliability.md);
these tests check that it runs, counts and stays within its bounds.
"""

from __future__ import annotations

import json
import math

import pytest

from companion.cli import main
from web.load import percentile


def test_a_short_run_polls_acts_and_reports_every_kind_without_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["load", "--phones", "3", "--seconds", "1.5", "--camera-fps", "0", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert status == 0, figures["problems"]
    assert figures["url"].startswith("http://127.0.0.1:")
    assert figures["errors"] == 0
    kinds = figures["kinds"]
    assert {"poll game", "act", "join", "import game", "stream connect"} <= set(kinds)
    assert kinds["join"]["requests"] == 3
    assert kinds["poll game"]["requests"] >= 3 and kinds["act"]["requests"] >= 3
    assert 0 < kinds["poll game"]["p50_ms"] <= kinds["poll game"]["p99_ms"]
    assert kinds["stream connect"]["requests"] == 3  # each phone follows the live stream
    assert figures["live_update"]["count"] > 0  # ...and sees the others' actions on it


def test_the_table_report_names_each_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["load", "--phones", "1", "--seconds", "0.5", "--camera-fps", "0"]) == 0
    report = capsys.readouterr().out
    assert "p50 ms" in report and "p99 ms" in report
    assert "camera viewer off" in report
    assert report.rstrip().endswith("errors: 0")


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (["--url", "http://192.168.1.20:8000"], "loopback only"),
        (["--url", "https://127.0.0.1:8000"], "loopback only"),
        (["--seconds", "3600"], "--seconds"),
        (["--phones", "0"], "--phones"),
        (["--camera-fps", "100"], "--camera-fps"),
    ],
)
def test_it_refuses_to_leave_this_machine_or_run_unbounded(
    arguments: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["load", *arguments]) == 2
    assert problem in capsys.readouterr().err


def test_percentiles_are_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 99), percentile(values, 100)) == (
        50.0,
        99.0,
        100.0,
    )
    assert percentile([7.0], 99) == 7.0
    assert math.isnan(percentile([], 50))
