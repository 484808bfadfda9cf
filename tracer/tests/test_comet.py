"""B1/B2 (comet.py) on a package whose bugs are known by construction: the reference harvest, replies that expose
the bug or not, fail-to-pass tests, tests that read source instead of behaviour, and bad replies.

On the host the package's place is not a mount of its own, so these specs set `unmasked_for_tests` (the driver
refuses without it: see test_refuses_without_its_own_mount); the Docker backend's masking is tested in
test/integration/comet.test.ts.
"""

import ast
import importlib.util
import json
import marshal
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from tracegate_tracer.comet import verify as comet
from tracegate_tracer.comet.runs import call_batch, call_once
from tracegate_tracer.comet.versions import PRISTINE, Versions, respell

from conftest import HARVEST, TRACER_ROOT, parse_results, plan_of

PACKAGE = {
    "bugpkg/__init__.py": "",
    "bugpkg/mod.py": '''
        def clamp(x, lo=0, hi=10):
            if x < lo:
                return lo
            if x > hi:
                return hi
            return x


        def count_down(n):
            out = []
            while n > 0:
                out.append(n)
                n -= 1
            return out


        def parse(text):
            value = int(text)
            print("parsed", value)
            return value


        def total(items):
            acc = 0
            for item in items:
                acc += _weight(item)
            return acc


        def _weight(item):
            return item * 2 if item % 2 else item
        ''',
}
CLAMP = {"file": "bugpkg/mod.py", "line": 4, "original": "x > hi", "replacement": "x < hi"}
LOOP = {"file": "bugpkg/mod.py", "line": 13, "original": "n -= 1", "replacement": "n -= 0"}
PARSE = {"file": "bugpkg/mod.py", "line": 18, "original": "int(text)", "replacement": "int(text[1:])"}
TOTAL = {"file": "bugpkg/mod.py", "line": 26, "original": "acc += _weight(item)",
         "replacement": "acc -= _weight(item)"}


@pytest.fixture
def package(tmp_path):
    root = tmp_path / "site"
    for rel, source in PACKAGE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"))
    return root


def run(tmp_path, root, specs):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(plan_of(tmp_path, specs)))
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, HARVEST, str(plan)], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    return {r["id"]: r for r in parse_results(done.stdout)}


def verify_spec(ident, kind, function, mutant, reply, **extra):
    return dict({"id": ident, "verify": {"kind": kind, "target": {"file": "bugpkg/mod.py", "function": function},
                                         "mutant": mutant, "reply": reply}, "unmasked_for_tests": True}, **extra)


def test_b1_outcomes_of_all_three_classes(tmp_path, package):
    found = run(tmp_path, package, [
        verify_spec("ok", "B1_BuggyIO", "clamp", CLAMP, {"input": {"args": [5]}}),
        verify_spec("same", "B1_BuggyIO", "clamp", CLAMP, {"input": "-1"}),
        verify_spec("crash", "B1_BuggyIO", "parse", PARSE, {"input": ["7"]}),
        verify_spec("timeout", "B1_BuggyIO", "count_down", LOOP, {"input": "2"}),
    ])
    runs = {k: v["verification"]["runs"] for k, v in found.items()}
    assert runs["ok"]["buggy"]["outcome"] == "ok" and runs["ok"]["buggy"]["return"] == "10"
    assert runs["ok"]["correct"]["return"] == "5"
    assert comet.exposes(found["ok"]["verification"])
    assert runs["same"]["buggy"]["return"] == runs["same"]["correct"]["return"] == "0"
    assert not comet.exposes(found["same"]["verification"])
    assert runs["crash"]["buggy"] == dict(runs["crash"]["buggy"], outcome="crash", exception="ValueError")
    assert runs["crash"]["correct"]["stdout"] == "parsed 7\n"
    assert runs["timeout"]["buggy"]["outcome"] == "timeout"
    assert runs["timeout"]["correct"]["return"] == "[2, 1]"
    assert all(comet.exposes(found[k]["verification"]) for k in ("crash", "timeout"))


@pytest.mark.parametrize("given, reason", [
    ("5, 6, 7, 8", "does not fit the signature"),
    ("__import__('os').system('id')", "not a Python literal"),
    ("1)(2", "not a call's arguments"),
    ({"args": [1], "extra": 2}, "`args` and `kwargs` only"),
    ("9" * 5000, "Python literal"),
    ("[" * 60000, "not a call's arguments"),
    ("[" * 70000, "over 65536 characters"),
], ids=["arity", "code", "two-calls", "extra-key", "huge-int", "deep", "long"])
def test_b1_bad_inputs_are_refused_with_their_reason(tmp_path, package, given, reason):
    found = run(tmp_path, package, [verify_spec("bad", "B1_BuggyIO", "clamp", CLAMP, {"input": given})])["bad"]
    assert found["status"] == "ok"
    assert reason in found["verification"]["refused"]


KILLING_TEST = '''
from bugpkg.mod import clamp


def test_clamps_in_range():
    assert clamp(5) == 5
'''
PASSES_BOTH = '''
from bugpkg.mod import clamp


def test_below():
    assert clamp(-1) == 0
'''
READS_SOURCE = '''
import inspect

from bugpkg import mod


def test_reads_the_code():
    assert "x > hi" in inspect.getsource(mod.clamp)
'''
READS_BYTES = '''
import hashlib

from bugpkg import mod


def test_hash():
    with open(mod.__file__, "rb") as handle:
        assert hashlib.sha256(handle.read()).hexdigest() == "%s"
'''
SYNTAX_ERROR = "def test_x(:\n    pass\n"
MISSING_MODULE = "import no_such_module_anywhere\n\n\ndef test_x():\n    assert True\n"


def test_b2_verdicts(tmp_path, package):
    correct_text = (package / "bugpkg" / "mod.py").read_bytes()
    import hashlib

    # What the correct version's plain run shows (every B2 run shows a respelling: Versions.b2_runs).
    digest = hashlib.sha256(respell(correct_text.decode(), "clamp").encode()).hexdigest()
    replies = {"kills": KILLING_TEST, "both": PASSES_BOTH, "source": READS_SOURCE, "bytes": READS_BYTES % digest,
               "syntax": SYNTAX_ERROR, "missing": MISSING_MODULE}
    found = run(tmp_path, package, [verify_spec(k, "B2_RegressionTest", "clamp", CLAMP, {"test": v})
                                    for k, v in replies.items()])
    verdicts = {k: {n: r["verdict"] for n, r in v["verification"]["runs"].items()} for k, v in found.items()}
    assert verdicts["kills"] == {"buggy": "fail", "correct": "pass", "buggy_respelled": "fail",
                                 "correct_respelled": "pass"}
    assert comet.fail_to_pass(found["kills"]["verification"])
    assert verdicts["both"] == {"buggy": "pass", "correct": "pass"}
    # Reading the text: right on the plain versions, wrong on the respelled ones (each shows the other's text).
    assert verdicts["source"]["buggy"] == "fail" and verdicts["source"]["correct"] == "pass"
    assert verdicts["source"]["buggy_respelled"] == "pass" or verdicts["source"]["correct_respelled"] == "fail"
    assert verdicts["bytes"]["correct_respelled"] == "fail"
    assert not any(comet.fail_to_pass(found[k]["verification"]) for k in ("both", "source", "bytes"))
    assert all(run["called"] for run in found["kills"]["verification"]["runs"].values())
    assert verdicts["syntax"] == {"buggy": "error", "correct": "error"}
    assert "SyntaxError" in found["syntax"]["verification"]["runs"]["buggy"]["reason"]
    assert "no_such_module_anywhere" in found["missing"]["verification"]["runs"]["correct"]["reason"]
    # The package is back as it was.
    assert (package / "bugpkg" / "mod.py").read_bytes() == correct_text


def test_reference_harvest_gives_the_gold_and_the_prompt_context(tmp_path, package):
    spec = {"id": "b1", "dir": str(tmp_path), "tests": ["test_x.py"], "kind": "B1_BuggyIO",
            "target": {"file": "bugpkg/mod.py", "function": "parse"}, "mutant": PARSE,
            "query": {"input": {"args": ["7"]}, "examples": [{"args": ["00"]}]}, "unmasked_for_tests": True}
    b2 = dict(spec, id="b2", kind="B2_RegressionTest")
    loop = dict(spec, id="loop", kind="B2_RegressionTest", target={"file": "bugpkg/mod.py", "function": "count_down"},
                mutant=LOOP, query={"input": "3"})
    dull = dict(spec, id="dull", query={"input": {"args": ["00"]}})
    found = run(tmp_path, package, [spec, b2, loop, dull])
    assert found["b1"]["status"] == "ok", found["b1"].get("reason")
    assert found["b1"]["answer"] == {"input": {"args": ["7"]}, "outcome": "crash", "return": None, "stdout": None,
                                     "exception": "ValueError"}
    context = found["b1"]["context"]
    assert "int(text[1:])" in context["source"] and "int(text)" not in context["source"]
    assert context["calls"] == [{"input": {"args": ["00"]}, "outcome": "ok", "return": "0", "stdout": "parsed 0\n"}]
    assert "text[1:]" not in found["b1"]["question"] and "test_x.py" not in found["b1"]["question"]
    assert found["b2"]["status"] == "ok", found["b2"].get("reason")
    # One bug's B1 and B2 verify its reference once, in one group.
    assert found["b1"]["stats"]["group"] == found["b2"]["stats"]["group"] != found["loop"]["stats"]["group"]
    assert comet.fail_to_pass(found["b2"]["verification"])
    assert "from bugpkg.mod import parse" in found["b2"]["answer"]["test"]
    assert found["loop"]["status"] == "ok", found["loop"].get("reason")
    assert found["loop"]["verification"]["runs"]["buggy"]["verdict"] == "fail"
    assert found["dull"]["status"] == "invalid" and "does not expose" in found["dull"]["reason"]


def test_a_bug_scores_the_complexity_of_its_buggy_run(tmp_path, package):
    """B1/B2 carry the traced kinds' complexity: semantic from the buggy version's run on the reference input
    (here a loop over nine items calling a helper each turn), answer from the input and behaviour B1 asks for;
    B1 and B2 of one bug score the same, and the trace stays out of the verification."""
    base = {"dir": str(tmp_path), "tests": ["test_x.py"], "unmasked_for_tests": True}
    loop = dict(base, id="loop-b1", kind="B1_BuggyIO", target={"file": "bugpkg/mod.py", "function": "total"},
                mutant=TOTAL, query={"input": {"args": [[1, 2, 3, 4, 5, 6, 7, 8, 9]]}})
    short = dict(base, id="short-b1", kind="B1_BuggyIO", target={"file": "bugpkg/mod.py", "function": "parse"},
                 mutant=PARSE, query={"input": {"args": ["7"]}})
    found = run(tmp_path, package, [loop, dict(loop, id="loop-b2", kind="B2_RegressionTest"), short])
    assert all(r["status"] == "ok" for r in found.values()), {k: r.get("reason") for k, r in found.items()}
    mine = found["loop-b1"]["complexity"]
    assert mine == found["loop-b2"]["complexity"]
    semantic = mine["features"]["semantic"]
    # The loop's header runs once per item and once more to end; each turn calls the helper.
    assert semantic["invocations"] == 1 and semantic["turns"] == 10
    assert (semantic["calls"], semantic["callees"], semantic["depth"]) == (9, 1, 1)
    assert semantic["lines"] == 4 and semantic["branches"] == 1 and semantic["exceptions"] == 0
    assert mine["answer"] > 0 and mine["navigation"] > 0
    shallow = found["short-b1"]["complexity"]["features"]["semantic"]
    assert shallow["steps"] < semantic["steps"] and shallow["exceptions"] >= 1
    assert found["loop-b1"]["complexity"]["semantic"] > found["short-b1"]["complexity"]["semantic"]
    assert all("trace" not in run for r in found.values() for run in r["verification"]["runs"].values())


def test_a_bug_below_the_target_is_asked_with_its_function_shown_and_one_not_shown_is_refused(tmp_path, package):
    """A bug may sit in a function the target reaches: the prompt's slice shows it (with its mutated line), and the
    buggy run walks through the call, so the item scores the calls; a mutant of code the prompt does not show
    (clamp is never reached from total) is refused rather than asked."""
    base = {"dir": str(tmp_path), "tests": ["test_x.py"], "unmasked_for_tests": True, "kind": "B1_BuggyIO",
            "target": {"file": "bugpkg/mod.py", "function": "total"}, "query": {"input": {"args": [[1, 2, 3]]}}}
    weight = {"file": "bugpkg/mod.py", "line": 31, "original": "item * 2", "replacement": "item * 3"}
    found = run(tmp_path, package, [dict(base, id="below", mutant=weight), dict(base, id="unseen", mutant=CLAMP)])
    assert found["below"]["status"] == "ok", found["below"].get("reason")
    shown = found["below"]["context"]["slice"]["functions"]
    assert [f["func"] for f in shown] == ["bugpkg.mod._weight"] and "item * 3" in shown[0]["source"]
    assert found["below"]["answer"]["return"] == "14"  # 3 + 2 + 9 (the correct version: 2 + 2 + 6)
    assert found["below"]["complexity"]["features"]["semantic"]["calls"] == 3
    assert found["unseen"]["status"] == "invalid" and "not in the prompt's code" in found["unseen"]["reason"]


def test_refuses_without_its_own_mount(tmp_path, package):
    spec = verify_spec("one", "B1_BuggyIO", "clamp", CLAMP, {"input": "5"})
    del spec["unmasked_for_tests"]
    found = run(tmp_path, package, [spec])["one"]
    assert found["status"] == "invalid" and "not a mount of its own" in found["reason"]


# A test that decides from what the disk shows, and knows how a respelled run differs from a plain one — before,
# a respelled run's text was ast.unparse's output (a plain run's was the package's own) and its byte-code was the
# only unchecked .pyc: each inverted its verdict there and passed all four runs without running the function.
TELLS_RESPELLED = {
    "text-form": '''
import ast

from bugpkg import mod


def test_text():
    text = open(mod.__file__).read()
    respelled = ast.unparse(ast.parse(text)) + "\\n" == text
    assert ("x > hi" in text) != respelled
''',
    "pyc-header": '''
import importlib.util

from bugpkg import mod


def test_header():
    text = open(mod.__file__).read()
    with open(importlib.util.cache_from_source(mod.__file__), "rb") as handle:
        respelled = handle.read(16)[4:8] == (1).to_bytes(4, "little")
    assert ("x > hi" in text) != respelled
''',
    "pyc-size": '''
import importlib.util
import marshal
import os

from bugpkg import mod


def test_size():
    text = open(mod.__file__).read()
    own = 16 + len(marshal.dumps(compile(text, mod.__file__, "exec", dont_inherit=True)))
    respelled = os.stat(importlib.util.cache_from_source(mod.__file__)).st_size != own
    assert ("x > hi" in text) != respelled
''',
}


def test_b2_runs_look_alike_on_disk_and_a_test_that_tells_them_apart_by_it_cannot_pass(tmp_path, package):
    found = run(tmp_path, package, [verify_spec(k, "B2_RegressionTest", "clamp", CLAMP, {"test": v})
                                    for k, v in TELLS_RESPELLED.items()])
    for name in TELLS_RESPELLED:
        verdicts = {n: r["verdict"] for n, r in found[name]["verification"]["runs"].items()}
        assert not comet.fail_to_pass(found[name]["verification"]), (name, verdicts)


def test_the_four_b2_runs_differ_only_in_the_text_shown_and_the_code_run(tmp_path, package):
    work = tmp_path / "work"
    work.mkdir()
    sys.path.insert(0, str(package))
    importlib.invalidate_caches()
    try:
        versions = Versions(CLAMP, str(work / "comet-0"), unmasked_ok=True)
    finally:
        sys.path.remove(str(package))
        sys.modules.pop("bugpkg", None)
    try:
        versions.b2_runs("clamp")
        seen = {}
        for run_name in ("buggy", "correct", "buggy_respelled", "correct_respelled"):
            source = os.path.join(versions.path(f"b2_{run_name}"), "mod.py")
            text = open(source, encoding="utf-8").read()
            with open(importlib.util.cache_from_source(source), "rb") as handle:
                pyc = handle.read()
            spaces: dict = {}
            exec(marshal.loads(pyc[16:]), spaces)  # noqa: S102 - our own fixture
            seen[run_name] = {"shows_bug": "x < hi" in text, "runs_bug": spaces["clamp"](11) == 11,
                              "header": (pyc[4:8], pyc[8:16] == importlib.util.source_hash(text.encode())),
                              "size": len(pyc), "form": ast.unparse(ast.parse(text)) + "\n" == text}
        assert {n: (v["shows_bug"], v["runs_bug"]) for n, v in seen.items()} == {
            "buggy": (True, True), "correct": (False, False),
            "buggy_respelled": (False, True), "correct_respelled": (True, False)}
        # One flavour (unchecked hash-based, the shown text's hash), one size, one form of text in all four.
        assert {(v["header"], v["size"], v["form"]) for v in seen.values()} == {
            (((1).to_bytes(4, "little"), True), seen["buggy"]["size"], True)}
    finally:
        versions.close()


NEVER_CALLS = '''
import bugpkg.mod


def test_imports_only():
    assert bugpkg.mod.__name__ == "bugpkg.mod"
'''


def test_a_b2_run_says_whether_its_test_called_the_function(tmp_path, package):
    one = verify_spec("one", "B2_RegressionTest", "clamp", CLAMP, {"test": KILLING_TEST})
    one["verify"]["runs"] = ["correct_respelled"]  # one run only: the Docker backend's one per container
    bad = verify_spec("bad", "B2_RegressionTest", "clamp", CLAMP, {"test": KILLING_TEST})
    bad["verify"]["runs"] = ["buggy", "buggy"]
    found = run(tmp_path, package, [
        verify_spec("never", "B2_RegressionTest", "clamp", CLAMP, {"test": NEVER_CALLS}), one, bad])
    assert found["never"]["verification"]["runs"]["correct"] == dict(
        found["never"]["verification"]["runs"]["correct"], verdict="pass", called=False)
    assert found["one"]["verification"]["runs"] == {"correct_respelled": dict(
        found["one"]["verification"]["runs"]["correct_respelled"], verdict="pass", called=True)}
    assert found["bad"]["status"] == "invalid" and "distinct names" in found["bad"]["reason"]


def test_respell_keeps_behaviour_and_changes_text():
    source = textwrap.dedent(PACKAGE["bugpkg/mod.py"])
    text = respell(source, "count_down")
    assert text != source and "_tg_v1" in text
    spaces: dict = {}
    exec(compile(text, "respelled", "exec"), spaces)  # noqa: S102 - our own fixture
    assert spaces["count_down"](3) == [3, 2, 1] and spaces["clamp"](11) == 10


STATEFUL = '''
    import os
    import signal

    seen = []


    def bump(by=1):
        seen.append(by)
        print("seen", len(seen))
        return len(seen)


    def boom():
        raise KeyError("x")


    def die():
        os.kill(os.getpid(), signal.SIGKILL)


    def leave():
        os._exit(3)


    def spin():
        while True:
            pass
    '''


def test_a_reference_called_in_a_forked_child_behaves_as_in_a_process_of_its_own(tmp_path):
    from tracegate_tracer.runner.sandbox import Sandbox

    root = tmp_path / "site"
    (root / "statepkg").mkdir(parents=True)
    (root / "statepkg" / "__init__.py").write_text("")
    (root / "statepkg" / "mod.py").write_text(textwrap.dedent(STATEFUL).lstrip("\n"))
    (root / "statepkg" / "threaded.py").write_text(
        "import threading\nimport time\nthreading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n\n\n"
        "def same(x):\n    return x\n")
    tracer_root = TRACER_ROOT
    sandbox = Sandbox(str(tmp_path / "work"), 0, None)
    os.makedirs(sandbox.work_dir)
    sandbox.prepare()
    shown = ("outcome", "return", "stdout", "exception", "message", "refused")
    for qualname, given in (("bump", {"args": [2]}), ("boom", []), ("die", []), ("leave", []), ("spin", []),
                            ("bump", {"args": [1, 2, 3]})):
        config = {"module": "statepkg.mod", "qualname": qualname}
        alone = call_once(dict(config, input=given), str(root), sandbox, tracer_root)
        # The examples after it run in the parent, which the child's call left as it was: `seen` is empty there.
        inputs = [[], []] if qualname == "bump" else []
        first, calls = call_batch(dict(config, inputs=inputs, first=given), str(root), sandbox, tracer_root)
        assert first is not None, qualname
        assert {k: first[k] for k in shown if k in first} == {k: alone[k] for k in shown if k in alone}, qualname
        assert [c["return"] for c in calls] == (["1", "2"] if qualname == "bump" else []), qualname
    assert first["refused"].startswith("the input does not fit the signature bump")
    # An import that started a thread: no fork (its lock could be held for ever), the caller's process instead.
    first, calls = call_batch({"module": "statepkg.threaded", "qualname": "same", "inputs": [[1]],
                                     "first": [2]}, str(root), sandbox, tracer_root)
    assert first is None and calls[0]["return"] == "1"


def test_each_bug_starts_from_one_compiled_copy_no_run_can_read(tmp_path, package):
    work = tmp_path / "work"
    work.mkdir()
    PRISTINE.clear()
    sys.path.insert(0, str(package))
    importlib.invalidate_caches()
    try:
        versions = [Versions(m, str(work / f"comet-{i}"), unmasked_ok=True) for i, m in enumerate((CLAMP, LOOP))]
    finally:
        sys.path.remove(str(package))
        sys.modules.pop("bugpkg", None)
    folder = work / "comet-pristine"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # the correct version, never readable to a run
    assert len(list(folder.iterdir())) == 1  # copied and compiled once for both bugs
    for version in versions:
        for name, text in (("correct", version.correct_text), ("buggy", version.buggy_text)):
            source = os.path.join(version.path(name), "mod.py")
            assert open(source, encoding="utf-8").read() == text
            with open(importlib.util.cache_from_source(source), "rb") as handle:
                header = handle.read(16)
            # checked against its own source's hash at import: never the other version's byte-code
            assert header[4:8] == (3).to_bytes(4, "little")
            assert header[8:16] == importlib.util.source_hash(text.encode())
        version.close()
