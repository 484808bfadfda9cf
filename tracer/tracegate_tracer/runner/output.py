"""The driver's stdout carries result lines and nothing else.

At start-up the real stdout is moved to a private descriptor and fd 1 is
pointed at stderr, so a stray print (a library's) can never corrupt the
stream; no child (tests, instance parsers) inherits the real stdout. Each
result is one line, `{"tracegate_result": 1, ...result}`, written whole and
at once.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

RESULT_MARK = "tracegate_result"


def log(text: str) -> None:
    """A line for the host's log (stderr); never fails the driver."""
    try:
        sys.stderr.write(text.rstrip("\n") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class ResultStream:
    def __init__(self) -> None:
        sys.stdout.flush()
        self.fd = os.dup(1)  # not inheritable: no child ever holds the result stream
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        self.broken = False

    def write(self, result: dict[str, Any]) -> None:
        body = json.dumps({k: v for k, v in result.items() if k != RESULT_MARK}, sort_keys=True, default=str)
        mark = json.dumps(RESULT_MARK) + ": 1"
        line = "{" + mark + (", " + body[1:] if body != "{}" else "}")
        data = (line + "\n").encode("ascii")  # ensure_ascii (the default): one line, whatever the text
        try:
            while data:
                written = os.write(self.fd, data)
                data = data[written:]
        except OSError as exc:  # EPIPE: the host stopped listening; keep harvesting, say so once
            if not self.broken:
                log(f"tracegate: result stream closed ({exc.strerror}); results are lost")
            self.broken = True
