"""What a function does on each of some inputs: `python3 behave.py CONFIG` prints one JSON list.

CONFIG: {module, qualname, inputs: [call arguments as Python literals]}. Each input runs in this one process
through tracer/boot/tracegate_comet_call.py's own `call` (the 2 s alarm, the masked repr), so generation sees
what verification will. Generation only (scripts/generate-comet.py), on the host.
"""

from __future__ import annotations

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tracer", "boot"))

from tracegate_comet_call import call


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
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
