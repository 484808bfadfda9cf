"""Scouting (scout.py) and proposals (propose.py): what a test file runs, and what to ask about it."""

from tracegate_tracer.generate import propose

PACKAGE = {
    "shop/__init__.py": "",
    "shop/cart.py": """
        from .prices import price_of


        def total(items):
            amount = 0
            count = 0
            for name in items:
                try:
                    amount += price_of(name)
                except KeyError:
                    continue
                count += 1
            return amount, count


        def checkout(items):
            if not items:
                raise ValueError("empty cart")
            return total(items)
    """,
    "shop/prices.py": """
        PRICES = {"apple": 3, "pear": 5, "fig": 7}


        def price_of(name):
            return PRICES[name]
    """,
    "test_shop.py": """
        import pytest

        from shop.cart import checkout


        def helper(items):
            return list(items)


        def test_checkout():
            assert checkout(helper(["apple", "kiwi", "fig", "pear"])) == (15, 3)
            assert checkout(["pear"]) == (5, 1)


        def test_empty():
            with pytest.raises(ValueError):
                checkout([])
    """,
}


def scout(harness):
    directory = harness.instance_dir(PACKAGE)
    spec = {"id": "s", "scout": {"packages": ["shop"]}, "dir": str(directory), "tests": ["test_shop.py"],
            "timeout_seconds": 60}
    return directory, harness.run([spec])["s"]


def test_every_rule_has_a_proposer():
    assert propose.unproposed() == []


def test_scout_records_the_package_functions_the_tests_run(harness):
    _directory, result = scout(harness)
    assert result["status"] == "ok", result.get("reason")
    functions = {f"{f['file']}::{f['qualname']}": f for f in result["facts"]["functions"]}
    # The package's own functions only: not the test file's helper, not pytest's.
    assert sorted(functions) == ["shop/cart.py::checkout", "shop/cart.py::total", "shop/prices.py::price_of"]
    checkout, total, price = (functions[k] for k in sorted(functions))
    assert checkout["invocations"] == 3
    assert [d[0] for d in checkout["described"]] == ["test_shop.py::test_checkout"] * 2 + ["test_shop.py::test_empty"]
    assert checkout["described"][2][2] == "ValueError"  # the third invocation raised
    assert total["exceptions"] == {"KeyError": 1}
    assert total["callees"] == [["shop/prices.py", "price_of", 5]]
    assert price["invocations"] == 5
    assert "amount" in total["variables"] and total["variables"]["count"]["types"] == ["int"]


def test_proposals_are_answered_by_the_harvest(harness):
    directory, result = scout(harness)
    candidates = result["candidates"]
    kinds = {c["kind"] for c in candidates}
    assert {"S2_Loops", "M2_Loops", "S5_Exceptions", "M5_Exceptions", "S6_InterProceduralCFG",
            "S3_ProgramState", "S4_DataFlow", "S7_Invariants", "M1_IntraProceduralCFG"} <= kinds
    loop = next(c for c in candidates if c["kind"] == "S2_Loops" and c["query"]["mode"] == "count")
    assert loop["target"] == {"file": "shop/cart.py", "function": "total"}
    assert loop["query"]["loop_line"] == 7  # the `for` header of total (dedented source, line 7)
    specs = [dict(c, id=f"c{i}", dir=str(directory), timeout_seconds=60) for i, c in enumerate(candidates)]
    results = harness.run(specs)
    answered = [r for r in results.values() if r["status"] == "ok"]
    # Proposals are generous (the screen decides); most must still have an answer.
    assert len(answered) >= 0.7 * len(specs), [r.get("reason") for r in results.values() if r["status"] != "ok"]
    first = results[f"c{candidates.index(loop)}"]
    assert first["answer"] == {"loop_iteration_count": 4}
    # checkout first raises in the second test that calls it: the escaping question runs that test.
    escaping = next(c for c in candidates if c["kind"] == "S5_Exceptions" and c["query"]["mode"] == "escaping")
    assert escaping["target"]["function"] == "checkout"
    assert escaping["tests"] == ["test_shop.py::test_empty"] and escaping["query"]["invocation"] == 1
    assert "ValueError" in str(results[f"c{candidates.index(escaping)}"]["answer"])


def test_the_widest_forms_come_first(harness):
    """Each function's first data-flow question names every local the scout saw, its first call-order question
    covers the whole test, its first M3 tuple the changing locals one line reads together, and one invariant
    question checks every loop's predicates (SWE-Flux's forms: a larger answer; the generator keeps the most
    complex). Each is answered by the harvest."""
    directory, result = scout(harness)
    total = [c for c in result["candidates"] if c["target"]["function"] == "total"]
    first = {}
    for c in total:
        first.setdefault((c["kind"], c["query"]["mode"]), c)
    s4 = first[("S4_DataFlow", "pairs")]
    assert s4["query"] == {"mode": "pairs", "invocation": 1, "variables": ["amount", "count", "items", "name"]}
    assert first[("S6_InterProceduralCFG", "order")]["query"]["invocation"] == "all"
    assert len(first[("M3_ProgramState", "unique")]["query"]["variables"]) >= 2
    checks = first[("M7_Invariants", "checks")]["query"]["checks"]
    assert len(checks) >= 2 and all(set(c) == {"line", "predicate"} for c in checks)
    picked = [s4, first[("S6_InterProceduralCFG", "order")], first[("M7_Invariants", "checks")]]
    specs = [dict(c, id=f"w{i}", dir=str(directory), timeout_seconds=60) for i, c in enumerate(picked)]
    results = harness.run(specs)
    assert all(r["status"] == "ok" for r in results.values()), results
    pairs = results["w0"]["answer"]["observed_def_use_pairs"]
    assert {p["variable"] for p in pairs} == {"amount", "count", "items", "name"}
    calls = results["w1"]["answer"]["function_call_order"]
    # The whole test: checkout's two calls of total, four and one price_of calls under them.
    assert [c["func"] for c in calls].count("shop.prices.price_of") == 5
    assert len(results["w2"]["answer"]["invariant_checks"]) == len(checks)


def test_a_failing_test_file_is_not_scouted(harness):
    files = dict(PACKAGE)
    files["test_shop.py"] = ("from shop.cart import checkout\n\n\n"
                             "def test_wrong():\n    assert checkout(['fig']) == (1, 1)\n")
    directory = harness.instance_dir(files)
    spec = {"id": "s", "scout": {"packages": ["shop"]}, "dir": str(directory), "tests": ["test_shop.py"],
            "timeout_seconds": 60}
    result = harness.run([spec])["s"]
    assert result["status"] == "invalid"
    assert result["reason"].startswith("tests failed: test_shop.py::test_wrong")


def test_invariant_questions_read_the_whole_loop_body(harness):
    """The invariant `checks` question checks each numeric local the loop body reads, up to three, not only
    those of its first line: `step` is read on the body's second line. `counts` and `monotonicity` observe
    the first local the body names, not the first bound at its first line in name order (the counter)."""
    files = {
        "walk/__init__.py": "",
        "walk/core.py": """
            def walk(n):
                total = 0
                step = 1
                for i in range(n):
                    total += i
                    step = step * 2 + total
                return total, step
        """,
        "test_walk.py": """
            from walk.core import walk


            def test_walk():
                assert walk(6) == (15, 163)
                assert walk(3)[0] == 3
        """,
    }
    directory = harness.instance_dir(files)
    spec = {"id": "s", "scout": {"packages": ["walk"]}, "dir": str(directory), "tests": ["test_walk.py"],
            "timeout_seconds": 60}
    result = harness.run([spec])["s"]
    assert result["status"] == "ok", result.get("reason")
    checks = next(c for c in result["candidates"]
                  if c["kind"] == "S7_Invariants" and c["query"]["mode"] == "checks")["query"]["checks"]
    assert {c["predicate"].split()[0] for c in checks} == {"total", "i", "step"}, checks
    assert len({c["line"] for c in checks}) == 1  # all at the body's first line
    observed = {(c["query"]["mode"], c["query"].get("variable") or c["query"]["predicate"].split()[0])
                for c in result["candidates"]
                if c["kind"] == "S7_Invariants" and c["query"]["mode"] in ("counts", "monotonicity")}
    assert observed == {("counts", "total"), ("monotonicity", "total")}, observed  # not the counter `i`
