"""SWE-Flux-format instances run by their own harness (eval.sh, trace plugin, parser) through the driver.

The fixtures (test/fixtures/swe-flux) are our own: a small `calc` repository
(the image's /testbed), a run's QA directory with a trace plugin and six
instances over six kinds whose published oracle.json came from running that
harness once; each answer is checked by construction in the fixtures' parsers'
comments and here.
"""

import json
import os
import shutil
import sys

import pytest

from conftest import parse_results, run_plan

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "swe-flux")
QA = "calc_qa"
INSTANCES = os.path.join(FIXTURES, "run", "instances")
# eval.sh runs `pytest` and `python` from PATH, as in a SWE-Flux image: this interpreter's.
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
IDS = sorted(n for n in os.listdir(INSTANCES) if os.path.isfile(os.path.join(INSTANCES, n, "eval.sh")))


def _spec(qa_dir, checkout, ident, **extra):
    with open(os.path.join(qa_dir, ident, "oracle.json"), encoding="utf-8") as handle:
        kind = json.load(handle)["question_kind"] if os.path.exists(handle.name) else None
    with open(os.path.join(qa_dir, ident, "eval.sh"), encoding="utf-8") as handle:
        test_id = next(line.split("=", 1)[1].strip().strip('"') for line in handle if line.startswith("TEST_ID="))
    return dict({"id": ident, "dir": str(qa_dir), "cwd": str(checkout), "tests": [test_id], "kind": kind,
                 "target": {"file": "calc/core.py", "function": "total"},
                 "swe_flux": {"qa": QA, "instance": ident}, "timeout_seconds": 120}, **extra)


def _copies(tmp_path):
    """The QA directory and the checkout, `calc` importable from the checkout as an install puts it (a path on
    sys.path, like an editable install's; the image's venv has a .pth line for it)."""
    qa_dir, checkout = tmp_path / "qa", tmp_path / "testbed"
    shutil.copytree(INSTANCES, qa_dir, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(os.path.join(FIXTURES, "testbed"), checkout, ignore=shutil.ignore_patterns("__pycache__"))
    return qa_dir, checkout


@pytest.fixture(autouse=True)
def _calc_installed(tmp_path, monkeypatch):
    """`calc` importable from the checkout `_copies` makes, as an install puts it on sys.path."""
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "testbed"))


def _published(ident):
    with open(os.path.join(INSTANCES, ident, "oracle.json"), encoding="utf-8") as handle:
        return json.load(handle)


def test_each_instance_reproduces_its_published_oracle(tmp_path):
    qa_dir, checkout = _copies(tmp_path)
    done = run_plan(tmp_path, [_spec(qa_dir, checkout, ident) for ident in IDS], timeout=600)
    assert done.returncode == 0, done.stderr
    results = {r["id"]: r for r in parse_results(done.stdout)}
    assert len(IDS) == 7 and len({_published(i)["question_kind"] for i in IDS}) == 6
    for ident in IDS:
        result, published = results[ident], _published(ident)
        assert result["status"] == "ok", (ident, result.get("reason"))
        assert result["answer"] == published["oracle_answer"], ident
        assert result["question"] == published["question"]
        assert result["template_answer"] == published["template_answer"]
        assert result["context"]["tests"][0]["source"].startswith("import"), ident
    # Known by construction (calc/core.py): classify(7) runs lines 2, 4, 6, 7; total's loop turns 5 + 4 times.
    assert results["core_classify_s1_cfg"]["answer"] == {"executed_lines": [2, 4, 6, 7]}
    # Its parser refuses a traced file outside its working directory: staged in the checkout, it is inside.
    assert results["core_classify_s1_paths"]["answer"] == {"executed_lines": [2, 4, 6, 7]}
    # Nothing of the staging is left in the checkout (dot-entries are a host pytest plugin's, e.g. pytest-benchmark's
    # .benchmarks: the staging makes none).
    assert sorted(n for n in os.listdir(checkout) if not n.startswith(".")) == ["calc", "pyproject.toml"]
    assert results["core_total_s2_loops"]["answer"] == {"loop_iteration_count": 9}
    assert results["core_divide_s5_exceptions"]["answer"] == {"exception_lines": [22, 24], "raising_invocations": 1}
    assert "def total(values, skip=None):" in results["core_total_s2_loops"]["context"]["source"]  # for the prompt


def test_a_raising_parser_a_failing_test_and_a_missing_harness_are_classified_and_the_others_run(tmp_path):
    qa_dir, checkout = _copies(tmp_path)
    parser = qa_dir / "core_total_m1_cfg" / "files" / "parser.py"
    raising = "def answer(found):\n    raise KeyError('boom')"
    parser.write_text(parser.read_text().replace("def answer(found):", raising))
    test = qa_dir / "core_total_s2_loops" / "files" / "testcase.py"
    test.write_text(test.read_text().replace("== 9", "== 10"))
    (qa_dir / "core_divide_s5_exceptions" / "eval.sh").unlink()
    specs = [_spec(qa_dir, checkout, ident) for ident in IDS if ident != "core_divide_s5_exceptions"]
    missing = "core_divide_s5_exceptions"
    specs.append(dict(specs[0], id=missing, swe_flux={"qa": QA, "instance": missing}))
    specs.append(dict(specs[0], id="escape", swe_flux={"qa": QA, "instance": "../etc"}))
    done = run_plan(tmp_path, specs, timeout=600)
    assert done.returncode == 0, done.stderr
    results = {r["id"]: r for r in parse_results(done.stdout)}
    assert results["core_total_m1_cfg"]["status"] == "invalid"
    assert results["core_total_m1_cfg"]["reason"].startswith("the instance's parser failed: KeyError: 'boom'")
    assert results["core_total_s2_loops"]["status"] == "invalid"
    assert results["core_total_s2_loops"]["reason"].startswith("the instance's tests failed (pytest: 1 failed")
    assert results["core_divide_s5_exceptions"] == dict(results["core_divide_s5_exceptions"], status="invalid",
                                                        reason="core_divide_s5_exceptions/eval.sh is missing")
    assert results["escape"]["status"] == "invalid"
    assert "swe_flux.instance must be a plain name" in results["escape"]["reason"]
    for ident in ("core_classify_s1_cfg", "core_accumulator_m6_calls", "core_accumulator_s6_calls"):
        assert results[ident]["status"] == "ok", results[ident].get("reason")


def test_an_oracle_path_through_a_symlink_is_not_followed(tmp_path):
    qa_dir, checkout = _copies(tmp_path)
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"oracle_answer": "stolen", "question": "q", "question_kind": "S1_IntraProceduralCFG",
                                  "template_answer": "str"}))
    eval_sh = qa_dir / "core_classify_s1_cfg" / "eval.sh"
    # The instance replaces its log dir with a symlink to a file it wants the driver to read as its oracle.
    plant = f'rm -rf "$LOG_DIR" && ln -s {tmp_path} "$LOG_DIR" && cp {secret} {tmp_path}/oracle.json && true || '
    eval_sh.write_text(eval_sh.read_text().replace('cp "$ORACLE_JSON"', plant + 'cp "$ORACLE_JSON"'))
    done = run_plan(tmp_path, [_spec(qa_dir, checkout, "core_classify_s1_cfg")], timeout=600)
    result = parse_results(done.stdout)[0]
    assert result["status"] == "invalid", result
    assert result["reason"].startswith("no oracle.json written")


def test_the_published_oracle_is_not_in_the_run_and_a_step_failing_after_the_parser_is_named(tmp_path):
    qa_dir, checkout = _copies(tmp_path)
    # A parser that answers by copying the published oracle.json beside its instance in the run's root.
    copier = qa_dir / "core_total_s2_loops" / "eval.sh"
    steal = 'cp "$ROOT_DIR/calc_qa/core_total_s2_loops/oracle.json" "$ORACLE_JSON" || exit 7\npython '
    copier.write_text(copier.read_text().replace("python ", steal, 1))
    # eval.sh fails after its parser wrote oracle.json: the reason says so, not "the parser failed".
    late = qa_dir / "core_classify_s1_cfg" / "eval.sh"
    late.write_text(late.read_text() + "\necho 'copy to archive: permission denied' >&2\nexit 3\n")
    idents = ("core_total_s2_loops", "core_classify_s1_cfg", "core_total_m1_cfg")
    specs = [_spec(qa_dir, checkout, ident) for ident in idents]
    done = run_plan(tmp_path, specs, timeout=600)
    assert done.returncode == 0, done.stderr
    results = {r["id"]: r for r in parse_results(done.stdout)}
    assert results["core_total_s2_loops"]["status"] == "invalid"
    reason = results["core_total_s2_loops"]["reason"]
    assert reason.startswith("the instance's parser failed: cp: cannot stat '"), reason
    assert reason.endswith("/calc_qa/core_total_s2_loops/oracle.json': No such file or directory (eval.sh exited 7)")
    assert results["core_classify_s1_cfg"]["status"] == "invalid"
    assert results["core_classify_s1_cfg"]["reason"] == (
        "eval.sh exited 3 after its parser wrote oracle.json (a later step failed: copy to archive: permission denied)")
    assert results["core_total_m1_cfg"]["status"] == "ok", results["core_total_m1_cfg"].get("reason")
    assert (qa_dir / "core_total_s2_loops" / "oracle.json").exists()  # the instance's own directory is untouched


def test_a_checkout_that_cannot_take_the_staging_gets_a_private_root(tmp_path):
    """The former staging (a root of links to the checkout's entries), which SWE-Flux's path-checking parsers
    refuse: the traced code is imported from the checkout, outside that root."""
    qa_dir, checkout = _copies(tmp_path)
    (checkout / "logs").write_text("not a directory")
    ids = ["core_classify_s1_cfg", "core_classify_s1_paths"]
    done = run_plan(tmp_path, [_spec(qa_dir, checkout, ident) for ident in ids], timeout=600)
    assert done.returncode == 0, done.stderr
    results = {r["id"]: r for r in parse_results(done.stdout)}
    assert results["core_classify_s1_cfg"]["status"] == "ok", results["core_classify_s1_cfg"].get("reason")
    paths = results["core_classify_s1_paths"]
    assert paths["status"] == "invalid"
    assert "tracked file is outside repository: " + str(checkout / "calc" / "core.py") in paths["reason"]


def test_a_qa_name_that_collides_with_an_entry_of_the_repository_is_refused_by_name(tmp_path):
    qa_dir, checkout = _copies(tmp_path)
    (checkout / QA).write_text("a file of the repository\n")
    done = run_plan(tmp_path, [_spec(qa_dir, checkout, "core_classify_s1_cfg")], timeout=600)
    assert done.returncode == 0, done.stderr
    [result] = parse_results(done.stdout)
    assert result["status"] == "invalid"
    assert result["reason"] == (f"the QA directory 'calc_qa' collides with {checkout / QA}, an entry of the "
                                "repository: rename the run's QA directory")
    assert (checkout / QA).read_text() == "a file of the repository\n"  # left as it was


def test_a_trace_func_that_names_nothing_is_refused_before_the_run(tmp_path):
    qa_dir, checkout = _copies(tmp_path)
    spec = _spec(qa_dir, checkout, "core_classify_s1_cfg", target={"file": "calc/core.py", "function": "nowhere"})
    done = run_plan(tmp_path, [spec], timeout=600)
    assert done.returncode == 0, done.stderr
    [result] = parse_results(done.stdout)
    assert result["status"] == "invalid"
    assert result["reason"].startswith("TRACE_FUNC 'nowhere' of TRACE_FILE 'calc/core.py': target not found")
    assert result["stats"].get("pytest_exit_code") is None  # nothing ran
