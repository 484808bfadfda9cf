"""Runs small instances end-to-end through harvest.py, as the container does."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

HARVEST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "harvest.py")


class Harness:
    def __init__(self, tmp_path):
        self.root = tmp_path

    def instance_dir(self, files, name="inst"):
        """Writes {relative path: source} into a fresh instance directory."""
        directory = self.root / name
        for rel, source in files.items():
            path = directory / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(source).lstrip("\n"))
        return directory

    def run(self, instances, expect_exit=0):
        """Runs a plan; returns {id: result.json}."""
        out = self.root / "out"
        plan = self.root / "plan.json"
        plan.write_text(json.dumps({"out_dir": str(out), "instances": instances}))
        done = subprocess.run([sys.executable, HARVEST, str(plan)], capture_output=True, text=True, timeout=300)
        assert done.returncode == expect_exit, done.stderr
        return {spec["id"]: json.loads((out / spec["id"] / "result.json").read_text()) for spec in instances}

    def answer(self, files, kind, function, query, test="test_prog.py", file="prog.py", **extra):
        """One instance over `files`; asserts ok and returns its answer."""
        directory = self.instance_dir(files, name="inst-%s" % len(list(self.root.iterdir())))
        spec = dict({"id": "one", "dir": str(directory), "tests": [test], "kind": kind,
                     "target": {"file": file, "function": function}, "query": query, "timeout_seconds": 60}, **extra)
        result = self.run([spec])["one"]
        assert result["status"] == "ok", result.get("reason")
        return result["answer"]


@pytest.fixture
def harness(tmp_path):
    return Harness(tmp_path)


def lines_of(answer):
    return [step["line"] for step in answer["executed_path"]]
