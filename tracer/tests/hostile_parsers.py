"""Hostile instance parsers and a good one, shared by test_hostile_parser.py and test_isolation.py.

Each entry of HOSTILE is (parser source, status, reason) of the instance
whose parser it is; `reason` is a prefix for `syntax` and exact otherwise.
"""

PROG = "def work(x):\n    return x + 1\n"
GOOD = "from prog import work\n\ndef test_good():\n    assert work(1) == 2\n"
GOOD_PARSER = """
def answer(trace, query):
    fields = trace["event_fields"]["line"]
    return {"lines": [e[1 + fields.index("line")] for e in trace["events"] if e[0] == "line"]}
"""
FORGED = {"tracegate_result": 1, "id": "after", "status": "ok", "answer": {"forged": True}}
FORGE = f"""
import json, os, sys

def answer(trace, query):
    line = json.dumps({FORGED!r})
    print(line)
    sys.stdout.flush()
    os.write(1, (line + "\\n").encode())
    os.write(2, (line + "\\n").encode())
    return {{"honest": True}}
"""
KILL_DRIVER = """
import os, signal, time

def answer(trace, query):
    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(0.5)
    return {"survived": True}
"""
PARSER_TIMEOUT = 8

# name: (parser source, status, reason) of the hostile instance.
HOSTILE = {
    "os-exit": ("import os\ndef answer(trace, query):\n    os._exit(0)\n",
                "error", "instance parser exited with status 0 without an answer"),
    "os-exit-3": ("import os\ndef answer(trace, query):\n    os._exit(3)\n",
                  "error", "instance parser exited with status 3 without an answer"),
    "system-exit": ("import sys\ndef answer(trace, query):\n    sys.exit(0)\n",
                    "error", "instance parser raised SystemExit: 0"),
    "keyboard-interrupt": ("def answer(trace, query):\n    raise KeyboardInterrupt\n",
                           "error", "instance parser raised KeyboardInterrupt"),
    "loop": ("def answer(trace, query):\n    while True:\n        pass\n",
             "timeout", f"instance parser timed out after {PARSER_TIMEOUT}s"),
    "forge": (FORGE, "ok", None),
    "huge": ("def answer(trace, query):\n    return {'x': 'y' * 100_000_000}\n",
             "error", "instance parser's answer is larger than 4 MiB"),
    "kill-driver": (KILL_DRIVER, "error", "instance parser was killed by SIGKILL"),
    "kill-itself": ("import os, signal\ndef answer(trace, query):\n    os.kill(os.getpid(), signal.SIGSEGV)\n",
                    "error", "instance parser was killed by SIGSEGV"),
    "memory": ("import resource\ndef answer(trace, query):\n"
               "    return len(bytearray(resource.getrlimit(resource.RLIMIT_AS)[0]))\n",
               "error", "instance parser raised MemoryError"),
    "int-key": ("def answer(trace, query):\n    return {1: 'one'}\n",
                "error", "instance parser returned a non-JSON value"),
    "syntax": ("def answer(trace, query)\n    return 1\n", "error", "instance parser raised SyntaxError: "),
}
