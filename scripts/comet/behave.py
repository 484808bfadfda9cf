"""What a function does on each of some inputs: `python3 behave.py CONFIG` prints one JSON list.

CONFIG: {module, qualname, inputs: [call arguments as Python literals]}. Each input runs in this one process
through tracer/boot/tracegate_comet_call.py's own `call` (the 2 s alarm, the masked repr), so generation sees
what verification will. With `traced: true` each input is instead called once, traced, in a child forked after
the import (the call runner's `traced_call`, as the harvest traces its reference), and the list printed holds
each run's semantic complexity (queries/complexity.py; null when it could not be traced): how much of the
function's work an input takes a reader through. Generation only (scripts/generate-comet.py), on the host.
"""

from __future__ import annotations

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tracer", "boot"))
sys.path.insert(0, os.path.join(ROOT, "tracer"))

from tracegate_comet_call import call, traced_call
from tracegate_tracer.queries import complexity


def semantic(config: dict, given: str, out: str) -> float | None:
    trace = traced_call({"module": config["module"], "qualname": config["qualname"], "first": given, "out": out,
                         "cap": 4096, "call_seconds": 2.0, "first_seconds": 10.0})
    if trace is None:
        return None
    return complexity.run_scores(trace, {"record_calls": True}, None)["semantic"]


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
    if config.get("traced"):
        out = argv[1] + ".out"
        sys.__stdout__.write(json.dumps([semantic(config, given, out) for given in config["inputs"]]) + "\n")
        return 0
    seen = []
    for given in config["inputs"]:
        found = call({"module": config["module"], "qualname": config["qualname"], "input": given, "cap": 4096,
                      "call_seconds": 2.0})
        seen.append(found)
        sys.stdout.flush()
    sys.__stdout__.write(json.dumps(seen) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
