"""A real ``companion serve`` in a child process, for the tests that stop it with Ctrl-C.

A shell script that starts a command in the background (``cmd &``) has it ignore SIGINT,
and every child inherits that: a server started from such a test run would never see the
Ctrl-C the tests send. The child therefore puts Python's own SIGINT handler back
before it runs the command line, so the tests pass however the suite is launched.
"""

from __future__ import annotations

import os
import subprocess
import sys

_WITH_CTRL_C = (
    "import runpy, signal, sys; "
    "signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'companion'; "
    "runpy.run_module('companion', run_name='__main__', alter_sys=True)"
)


def companion_serve(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``companion serve --host 127.0.0.1 --port 0 ARGS``, its output piped as text."""
    return subprocess.Popen(
        [sys.executable, "-c", _WITH_CTRL_C, "serve", "--host", "127.0.0.1", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
