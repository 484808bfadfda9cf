"""Small programs whose answers are known by construction, one or more
questions each. Line numbers are those of the dedented source (line 1 is
the first line). `test_catalog.py` records each program once per backend
(all questions over the same tests share one recording) and checks every
answer; on 3.12+ `test_backends.py` checks that both backends agree."""

import sys
import textwrap
from dataclasses import dataclass


def _src(text):
    return textwrap.dedent(text).lstrip("\n")


def _path(lines, file="prog.py", func=None):
    return {"executed_path": [{"file": file, "func": func, "line": n} for n in lines]}


@dataclass(frozen=True)
class Invalid:
    """An expected answer: status `invalid`, with `reason` in the result's reason."""

    reason: str


PROGRAMS = []


def program(name, prog, test, cases):
    """cases: (case id, kind, function, query, expected answer or Invalid(reason)[, test node id])."""
    PROGRAMS.append({"name": name, "files": {"prog.py": _src(prog), "test_prog.py": _src(test)}, "cases": cases})


# 1 while/else, multi-line statement, early return ----------------------------
program("classify", '''
    def classify(n):
        if n < 0:
            return "negative"
        total = 0
        while n > 0:
            total += n
            n -= 2
        else:
            total = -total
        result = dict(
            total=total,
            sign="positive",
        )
        return result
    ''', '''
    from prog import classify
    def test_classify():
        assert classify(-1) == "negative"
        assert classify(3) == {"total": -4, "sign": "positive"}
    ''', [
    ("early-return", "S1_IntraProceduralCFG", "classify", {"invocation": 1}, _path([2, 3], func="prog.classify")),
    ("while-else", "S1_IntraProceduralCFG", "classify", {"invocation": 2},
     _path([2, 4, 5, 6, 7, 5, 6, 7, 5, 9, 10, 14], func="prog.classify")),
    ("covered", "M1_IntraProceduralCFG", "classify", {}, {"covered_lines": [2, 3, 4, 5, 6, 7, 9, 10, 14]}),
    ("loop", "S2_Loops", "classify", {"invocation": 2, "loop_line": 5}, {"loop_iteration_count": 2}),
])

# 2 recursion ----------------------------------------------------------------
program("fact", '''
    def fact(n):
        if n <= 1:
            return 1
        return n * fact(n - 1)
    ''', '''
    from prog import fact
    def test_it():
        assert fact(3) == 6
    ''', [
    ("outer", "S1_IntraProceduralCFG", "fact", {"invocation": 1}, _path([2, 4], func="prog.fact")),
    ("innermost", "S1_IntraProceduralCFG", "fact", {"invocation": 3}, _path([2, 3], func="prog.fact")),
    ("not-reached", "S1_IntraProceduralCFG", "fact", {"invocation": 5}, Invalid("invocation 5 not reached: the target ran 3 time(s)")),
    ("no-escape", "S5_Exceptions", "fact", {"mode": "escaping", "invocation": 1}, Invalid("invocation 1 raised no escaping exception")),
    ("count", "S6_InterProceduralCFG", "fact", {"mode": "count", "invocation": 1, "func": "prog.fact"},
     {"function_call_count": 2}),
    ("covered", "M6_InterProceduralCFG", "fact", {"mode": "covered", "include": ["prog."]},
     {"covered_functions": [{"file": "prog.py", "func": "prog.fact"}]}),
    # Recursion: the test's one call, then the two recursive calls; no invocation counted twice.
    ("order-all-recursive", "S6_InterProceduralCFG", "fact", {"invocation": "all", "include": ["prog."]},
     {"function_call_order": [{"file": "prog.py", "func": "prog.fact"}] * 3}),
])

# 3 generator method under a decorator ------------------------------------------
program("box-items", '''
    import functools

    class Box:
        @functools.lru_cache(maxsize=None)
        def items(self, n):
            for i in range(n):
                yield i * 2
            return "done"
    ''', '''
    from prog import Box
    def test_it():
        assert list(Box().items(2)) == [0, 2]
    ''', [
    ("path", "S1_IntraProceduralCFG", "Box.items", {"invocation": 1}, _path([6, 7, 6, 7, 6, 8], func="prog.Box.items")),
    ("history", "S3_ProgramState", "Box.items", {"mode": "history", "invocation": 1, "variable": "i"},
     {"value_history": [{"step": 1, "value": "0"}, {"step": 2, "value": "1"}]}),
    ("loop", "S2_Loops", "Box.items", {"invocation": 1, "loop_line": 6}, {"loop_iteration_count": 2}),
])

# 4 nested loops with continue --------------------------------------------------
program("grid", '''
    def grid(rows, cols):
        cells = []
        for r in range(rows):
            c = 0
            while c < cols:
                c += 1
                if c == 2:
                    continue
                cells.append((r, c))
        return cells
    ''', '''
    from prog import grid
    def test_it():
        assert len(grid(3, 4)) == 9
    def test_empty():
        assert grid(0, 4) == []
    ''', [
    ("outer", "S2_Loops", "grid", {"invocation": 1, "loop_line": 3}, {"loop_iteration_count": 3},
     "test_prog.py::test_it"),
    ("inner", "S2_Loops", "grid", {"invocation": 1, "loop_line": 5}, {"loop_iteration_count": 12},
     "test_prog.py::test_it"),
    ("nth", "S2_Loops", "grid", {"mode": "nth_value", "invocation": 1, "loop_line": 3, "nth_iteration": 2,
                                 "variable": "r"}, {"nth_iteration": 2, "variable": "r", "value": "1"},
     "test_prog.py::test_it"),
    ("extremes", "M2_Loops", "grid", {"mode": "extremes", "loop_line": 3}, {"max_iterations": 3, "min_iterations": 0}),
    ("no-break", "M2_Loops", "grid", {"mode": "breaks", "loop_line": 5}, Invalid("the loop at line 5 has no `break`")),  # only `continue`
])

# 5 closure state -----------------------------------------------------------------
program("counter", '''
    def make_counter(start):
        count = start
        def bump(step):
            nonlocal count
            count += step
            label = "n=%d" % count
            return label
        return bump
    ''', '''
    from prog import make_counter
    def test_it():
        bump = make_counter(10)
        bump(1)
        bump(5)
    ''', [
    ("state", "S3_ProgramState", "make_counter.<locals>.bump", {"line": 5, "hit": 2, "variables": ["step", "label", "count"]},
     {"observed_state": [{"variable": "count", "value": "16"}, {"variable": "label", "value": "<unbound>"},
                         {"variable": "step", "value": "5"}]}),
    ("at-return", "S3_ProgramState", "make_counter.<locals>.bump", {"line": 7, "hit": 2, "variables": ["label", "count"]},
     {"observed_state": [{"variable": "count", "value": "16"}, {"variable": "label", "value": "'n=16'"}]}),
    ("flow", "S4_DataFlow", "make_counter.<locals>.bump", {"invocation": 2, "variables": ["count", "label", "step"]},
     {"observed_def_use_pairs": [{"def_line": 5, "use_line": 6, "variable": "count"},
                                 {"def_line": 6, "use_line": 7, "variable": "label"},
                                 {"def_line": 3, "use_line": 5, "variable": "step"}]}),
])

# 6 bounded, address-free values ----------------------------------------------------
program("hold", '''
    def hold():
        thing = object()
        big = "x" * 2000
        return thing
    ''', '''
    from prog import hold
    def test_it():
        hold()
    ''', [
    # A value cut at the cap is never an answer; the instance's max_value_chars raises the cap.
    ("bounded", "S3_ProgramState", "hold", {"line": 3, "hit": 1, "variables": ["big", "thing"]},
     Invalid("a value was cut at 500 characters ('xxxxxxxxx")),
    ("raised-cap", "S3_ProgramState", "hold", {"line": 3, "hit": 1, "variables": ["big", "thing"], "max_value_chars": 2002},
     {"observed_state": [{"variable": "big", "value": "'" + "x" * 2000 + "'"},
                         {"variable": "thing", "value": "<object object at 0x…>"}]}),
    ("address-free", "S3_ProgramState", "hold", {"line": 3, "hit": 1, "variables": ["thing"]},
     {"observed_state": [{"variable": "thing", "value": "<object object at 0x…>"}]}),
])

# 7 exceptions crossing frames, try/finally -----------------------------------------
program("load", '''
    class ParseError(Exception):
        pass

    def parse(text):
        if not text:
            raise ParseError("empty input")
        return int(text)

    def load(text):
        try:
            value = parse(text)
        except ValueError:
            value = -1
        try:
            {}["missing"]
        except KeyError:
            pass
        finally:
            value += 1
        try:
            if value == 0:
                parse("")
        finally:
            value = 99
        return value
    ''', '''
    import pytest
    from prog import load, ParseError
    def test_it():
        assert load("7") == 99
        with pytest.raises(ParseError):
            load("x")
    ''', [
    ("caught", "S5_Exceptions", "load", {"mode": "caught_kinds"}, {"caught_exception_kinds": ["KeyError", "ValueError"]}),
    ("escaping", "S5_Exceptions", "load", {"mode": "escaping", "invocation": 2},
     {"exception_type": "prog.ParseError", "exception_message": "empty input"}),
    ("types", "M5_Exceptions", "load", {"mode": "types"},
     {"exception_types": ["KeyError", "ValueError", "prog.ParseError"]}),
])

# 8 re-raise vs replacement ------------------------------------------------------------
program("convert", '''
    def convert(raw):
        try:
            return int(raw)
        except ValueError:
            if raw == "again":
                raise
            raise LookupError("bad %s" % raw) from None
    ''', '''
    import pytest
    from prog import convert
    def test_it():
        with pytest.raises(ValueError):
            convert("again")
        with pytest.raises(LookupError):
            convert("zz")
    ''', [
    ("caught", "S5_Exceptions", "convert", {"mode": "caught_kinds"}, {"caught_exception_kinds": ["ValueError"]}),
    # Per invocation (SWE-Flux's filter): "again" re-raises its ValueError (not caught); "zz" replaces it (caught).
    ("caught-inv1", "S5_Exceptions", "convert", {"mode": "caught_kinds", "invocation": 1}, {"caught_exception_kinds": []}),
    ("caught-inv2", "S5_Exceptions", "convert", {"mode": "caught_kinds", "invocation": 2},
     {"caught_exception_kinds": ["ValueError"]}),
    ("caught-inv9", "S5_Exceptions", "convert", {"mode": "caught_kinds", "invocation": 9},
     Invalid("invocation 9 not reached: the target ran 2 time(s)")),
    ("reraised", "S5_Exceptions", "convert", {"mode": "escaping", "invocation": 1},
     {"exception_type": "ValueError", "exception_message": "invalid literal for int() with base 10: 'again'"}),
    ("replaced", "S5_Exceptions", "convert", {"mode": "escaping", "invocation": 2},
     {"exception_type": "LookupError", "exception_message": "bad zz"}),
    ("counts", "M5_Exceptions", "convert", {"mode": "counts"},
     {"exception_type_counts": [{"exception_type": "LookupError", "count": 1},
                                {"exception_type": "ValueError", "count": 2}]}),
])

# 9 generator resumptions are not calls ---------------------------------------------------
program("walk", '''
    def numbers(n):
        for i in range(n):
            yield i

    def double(x):
        return helper(x) * 2

    def helper(x):
        return x

    def walk(n):
        total = 0
        for value in numbers(n):
            total += double(value)
        squares = [v * v for v in range(3)]
        return total + len(squares)
    ''', '''
    from prog import walk
    def test_it():
        assert walk(2) == 5
    ''', [
    ("direct", "S6_InterProceduralCFG", "walk", {"invocation": 1, "include": ["prog."], "scope": "direct"},
     {"function_call_order": [{"file": "prog.py", "func": f} for f in ("prog.numbers", "prog.double", "prog.double")]}),
    ("transitive", "S6_InterProceduralCFG", "walk", {"invocation": 1, "include": ["prog.d", "prog.h"], "scope": "transitive"},
     {"function_call_order": [{"file": "prog.py", "func": f} for f in ("prog.double", "prog.helper", "prog.double", "prog.helper")]}),
    ("path", "S1_IntraProceduralCFG", "walk", {"invocation": 1}, _path([12, 13, 14, 13, 14, 13, 15, 16], func="prog.walk")),
    ("max-depth", "S6_InterProceduralCFG", "walk", {"mode": "max_depth", "invocation": 1, "include": ["prog."]},
     {"maximum_call_stack_depth": 2}),
])

# 10 recursion through a generator expression ---------------------------------------------
program("depth", '''
    def depth(node):
        if not node:
            return 0
        return 1 + max(depth(child) for child in node)
    ''', '''
    from prog import depth
    def test_it():
        assert depth([[], [[]]]) == 2
    ''', [
    ("direct", "S6_InterProceduralCFG", "depth", {"invocation": 1, "include": ["prog."], "scope": "direct"},
     {"function_call_order": [{"file": "prog.py", "func": "prog.depth.<locals>.<genexpr>"}]}),
    ("count", "S6_InterProceduralCFG", "depth", {"mode": "count", "invocation": 1, "include": ["prog."], "func": "prog.depth"},
     {"function_call_count": 3}),
    ("max-min", "M2_Loops", "depth", {"mode": "extremes", "loop_line": 2}, Invalid("line 2 is not a for/while loop header")),
    ("max-depth", "S6_InterProceduralCFG", "depth", {"mode": "max_depth", "invocation": 1, "include": ["prog."]},
     {"maximum_call_stack_depth": 4}),
    ("max-depth-leaf", "S6_InterProceduralCFG", "depth", {"mode": "max_depth", "invocation": 2},
     {"maximum_call_stack_depth": 0}),
    ("max-depth-inner", "S6_InterProceduralCFG", "depth", {"mode": "max_depth", "invocation": 3},
     {"maximum_call_stack_depth": 2}),
])

# 11 coverage over selected tests ----------------------------------------------------------
SIGN = '''
    def sign(x):
        if x > 0:
            return 1
        elif x < 0:
            return -1
        return 0
    '''
program("sign", SIGN, '''
    from prog import sign
    def test_pos():
        assert sign(5) == 1
    def test_neg():
        assert sign(-5) == -1
    def test_zero():
        assert sign(0) == 0
    ''', [
    ("two-tests", "M1_IntraProceduralCFG", "sign", {}, {"covered_lines": [2, 3, 4, 5]},
     ["test_prog.py::test_pos", "test_prog.py::test_neg"]),
    ("one-test", "M1_IntraProceduralCFG", "sign", {}, {"covered_lines": [2, 4, 6]}, "test_prog.py::test_zero"),
    ("safe", "M5_Exceptions", "sign", {"mode": "crashing_tests"},
     {"crashing_tests": [], "safe_tests": ["test_prog.py::test_neg", "test_prog.py::test_pos", "test_prog.py::test_zero"]}),
])

# 12 dataflow through a loop with continue --------------------------------------------------
program("accumulate", '''
    def accumulate(values, scale):
        total = 0
        for v in values:
            if v < 0:
                continue
            total += v * scale
        result = total if total else -1
        return result
    ''', '''
    from prog import accumulate
    def test_some():
        assert accumulate([1, -2, 3], 2) == 8
    def test_none():
        assert accumulate([], 5) == -1
    ''', [
    ("pairs", "S4_DataFlow", "accumulate", {"invocation": 1, "variables": ["total", "v", "scale"]},
     {"observed_def_use_pairs": [
         {"def_line": 1, "use_line": 6, "variable": "scale"},
         {"def_line": 2, "use_line": 6, "variable": "total"}, {"def_line": 6, "use_line": 6, "variable": "total"},
         {"def_line": 6, "use_line": 7, "variable": "total"},
         {"def_line": 3, "use_line": 4, "variable": "v"}, {"def_line": 3, "use_line": 6, "variable": "v"}]}),
    ("counts", "M4_DataFlow", "accumulate", {"mode": "counts", "variables": ["total", "v", "scale"]},
     {"observed_def_use_pairs": [
         {"def_line": 1, "use_line": 6, "variable": "scale", "count": 2},
         {"def_line": 2, "use_line": 6, "variable": "total", "count": 1},
         {"def_line": 2, "use_line": 7, "variable": "total", "count": 1},
         {"def_line": 6, "use_line": 6, "variable": "total", "count": 1},
         {"def_line": 6, "use_line": 7, "variable": "total", "count": 2},
         {"def_line": 3, "use_line": 4, "variable": "v", "count": 3},
         {"def_line": 3, "use_line": 6, "variable": "v", "count": 2}]}),
    ("invariant", "S7_Invariants", "accumulate", {"predicate": "total >= 0"}, {"invariant_exists": True}),
    ("extremes", "M3_ProgramState", "accumulate", {"mode": "extremes", "variable": "total"}, {"min_value": 0, "max_value": 8}),
])

# 13 a while condition counts every evaluation ---------------------------------------------
program("countdown", '''
    def countdown(n):
        steps = 0
        while n > 0:
            n -= 2
            steps += 1
        return steps, n
    ''', '''
    from prog import countdown
    def test_it():
        assert countdown(3) == (2, -1)
    ''', [
    ("pairs", "S4_DataFlow", "countdown", {"invocation": 1, "variables": ["n", "steps"]},
     {"observed_def_use_pairs": [
         {"def_line": 1, "use_line": 3, "variable": "n"}, {"def_line": 1, "use_line": 4, "variable": "n"},
         {"def_line": 4, "use_line": 3, "variable": "n"}, {"def_line": 4, "use_line": 4, "variable": "n"},
         {"def_line": 4, "use_line": 6, "variable": "n"},
         {"def_line": 2, "use_line": 5, "variable": "steps"}, {"def_line": 5, "use_line": 5, "variable": "steps"},
         {"def_line": 5, "use_line": 6, "variable": "steps"}]}),
    ("counts", "M4_DataFlow", "countdown", {"mode": "counts", "variables": ["n"]},
     {"observed_def_use_pairs": [
         {"def_line": 1, "use_line": 3, "variable": "n", "count": 1}, {"def_line": 1, "use_line": 4, "variable": "n", "count": 1},
         {"def_line": 4, "use_line": 3, "variable": "n", "count": 2}, {"def_line": 4, "use_line": 4, "variable": "n", "count": 1},
         {"def_line": 4, "use_line": 6, "variable": "n", "count": 1}]}),
    ("loop", "S2_Loops", "countdown", {"invocation": 1, "loop_line": 3}, {"loop_iteration_count": 2}),
    ("iterations", "M7_Invariants", "countdown", {"mode": "counts", "predicate": "steps >= 0", "line": 4},
     {"is_invariant_always_held": True, "total_iterations_observed": 2, "violating_iteration_count": 0}),
    ("monotone", "M7_Invariants", "countdown", {"mode": "monotonicity", "variable": "steps", "line": 4},
     {"monotonicity": "strictly_increasing"}),
])

# 13b a predicate on a line that never runs: M7 counts answers 0 observed (SWE-Flux's row) -------
program("never-runs", '''
    def guard(items):
        total = 0
        for x in items:
            if x < 0:
                text = "negative"
                total -= len(text)
            total += x
        return total
    ''', '''
    from prog import guard
    def test_it():
        assert guard([1, 2, 3]) == 6
    ''', [
    ("never-counts", "M7_Invariants", "guard", {"mode": "counts", "predicate": "text != ''", "line": 5},
     {"is_invariant_always_held": False, "total_iterations_observed": 0, "violating_iteration_count": 0}),
    ("never-holds", "S7_Invariants", "guard", {"predicate": "x > 0", "line": 5},
     Invalid("line 5 never ran in the traced invocation(s)")),
    ("never-bound", "M7_Invariants", "guard", {"mode": "counts", "predicate": "x >= 0", "line": 2},
     Invalid("x never all bound at line 2 (reached 1 time(s))")),
    ("checks-never-runs", "M7_Invariants", "guard",
     {"mode": "checks", "checks": [{"line": 5, "predicate": "text != ''"}, {"line": 7, "predicate": "x > 0"}]},
     {"invariant_checks": [
         {"is_invariant_always_held": False, "total_iterations_observed": 0, "violating_iteration_count": 0},
         {"is_invariant_always_held": True, "total_iterations_observed": 3, "violating_iteration_count": 0}]}),
    ("checks-one", "M7_Invariants", "guard", {"mode": "checks", "checks": [{"line": 7, "predicate": "x > 0"}]},
     Invalid("query key checks must list 2 to 8 objects")),
    ("checks-huge-power", "M7_Invariants", "guard",
     {"mode": "checks", "checks": [{"line": 7, "predicate": "10 ** 10 ** 10 > x"}, {"line": 7, "predicate": "x > 0"}]},
     Invalid("predicate computes a power too large")),
    ("huge-repeat", "M7_Invariants", "guard", {"mode": "counts", "predicate": "len('a' * 10 ** 9) > x", "line": 7},
     Invalid("predicate computes a repeated sequence too large")),
    ("huge-join", "M7_Invariants", "guard",
     {"mode": "counts", "predicate": "len([0] * 10 ** 6 + [0] * 10 ** 6) > x", "line": 7},
     Invalid("predicate computes a joined sequence too large")),
    # Each sort's list under the size bound, but forty of them per observation: bounded over the question.
    ("much-work", "M7_Invariants", "guard",
     {"mode": "counts", "predicate": " + ".join(["len(sorted([x] * 10 ** 6))"] * 40) + " > x", "line": 7},
     Invalid("predicate computes too much to evaluate")),
    ("checks-twice", "S7_Invariants", "guard",
     {"mode": "checks", "checks": [{"line": 7, "predicate": "x > 0"}, {"line": 7, "predicate": "x > 0"}]},
     Invalid("lists the same check twice")),
    ("checks-extra-key", "S7_Invariants", "guard",
     {"mode": "checks", "checks": [{"line": 7, "predicate": "x > 0", "hit": 1}, {"line": 7, "predicate": "x < 0"}]},
     Invalid("each with exactly line and predicate")),
])

# 14 two loads on one line count twice ------------------------------------------------------
program("square-sum", '''
    def square_sum(a, b):
        c = a * a + b * b
        return c + c
    ''', '''
    from prog import square_sum
    def test_it():
        assert square_sum(1, 2) == 10
    ''', [
    ("counts", "M4_DataFlow", "square_sum", {"mode": "counts", "variables": ["a", "b", "c"]},
     {"observed_def_use_pairs": [
         {"def_line": 1, "use_line": 2, "variable": "a", "count": 2}, {"def_line": 1, "use_line": 2, "variable": "b", "count": 2},
         {"def_line": 2, "use_line": 3, "variable": "c", "count": 2}]}),
    ("pairs", "M4_DataFlow", "square_sum", {"variables": ["c"]},
     {"observed_def_use_pairs": [{"def_line": 2, "use_line": 3, "variable": "c"}]}),
])

# 15 comprehensions: only the first iterable belongs to the function ---------------------------
program("scaled", '''
    def scaled(items, k):
        out = [x * k for x in items]
        n = len(out)
        return {v: n for v in out}
    ''', '''
    from prog import scaled
    def test_it():
        assert scaled([1, 2], 3) == {3: 2, 6: 2}
    ''', [
    ("pairs", "S4_DataFlow", "scaled", {"invocation": 1, "variables": ["items", "k", "out", "n", "x", "v"]},
     {"observed_def_use_pairs": [
         {"def_line": 1, "use_line": 2, "variable": "items"},
         {"def_line": 2, "use_line": 3, "variable": "out"}, {"def_line": 2, "use_line": 4, "variable": "out"}]}),
    ("path", "S1_IntraProceduralCFG", "scaled", {"invocation": 1}, _path([2, 3, 4], func="prog.scaled")),
    ("covered", "M1_IntraProceduralCFG", "scaled", {}, {"covered_lines": [2, 3, 4]}),
])

# 16 a multi-line comprehension is one step ---------------------------------------------------
program("pick", '''
    def pick(rows):
        keep = [r for r in
                rows if r]
        total = sum(
            len(r) for r in keep)
        return keep, total
    ''', '''
    from prog import pick
    def test_it():
        assert pick(["a", "", "bc"]) == (["a", "bc"], 3)
    ''', [
    ("path", "S1_IntraProceduralCFG", "pick", {"invocation": 1}, _path([2, 4, 6], func="prog.pick")),
    ("state", "S3_ProgramState", "pick", {"line": 2, "hit": 1, "variables": ["keep"]},
     {"observed_state": [{"variable": "keep", "value": "['a', 'bc']"}]}),
])

# 17 try/except/finally with early return ------------------------------------------------------
program("guarded", '''
    def guarded(x):
        try:
            if x > 0:
                return "pos"
            raise ValueError(x)
        except ValueError:
            return "bad"
        finally:
            x = None
    ''', '''
    from prog import guarded
    def test_it():
        assert guarded(1) == "pos"
        assert guarded(-1) == "bad"
    ''', [
    ("return-through-finally", "S1_IntraProceduralCFG", "guarded", {"invocation": 1}, _path([2, 3, 4, 9], func="prog.guarded")),
    ("handled", "S1_IntraProceduralCFG", "guarded", {"invocation": 2}, _path([2, 3, 5, 6, 7, 9], func="prog.guarded")),
    ("caught", "S5_Exceptions", "guarded", {"mode": "caught_kinds"}, {"caught_exception_kinds": ["ValueError"]}),
])

# 18 exceptions propagating into the target ------------------------------------------------------
program("outer", '''
    class Oops(Exception):
        pass

    def inner(n):
        if n < 0:
            raise Oops("negative")
        return 10 // n

    def outer(n):
        try:
            return inner(n)
        except ZeroDivisionError:
            return None
    ''', '''
    import pytest
    from prog import outer, Oops
    def test_ok():
        assert outer(5) == 2
    def test_zero():
        assert outer(0) is None
    def test_neg():
        with pytest.raises(Oops):
            outer(-1)
    ''', [
    ("types", "M5_Exceptions", "outer", {"mode": "types"}, {"exception_types": ["ZeroDivisionError", "prog.Oops"]}),
    ("crashing", "M5_Exceptions", "outer", {"mode": "crashing_tests"},
     {"crashing_tests": [{"exception_type": "prog.Oops", "test": "test_prog.py::test_neg"}],
      "safe_tests": ["test_prog.py::test_ok", "test_prog.py::test_zero"]}),
    ("escaping", "S5_Exceptions", "outer", {"mode": "escaping", "invocation": 3},
     {"exception_type": "prog.Oops", "exception_message": "negative"}),
])

# 19 call edges -----------------------------------------------------------------------------
program("edges", '''
    def leaf(x):
        return x + 1

    def mid(x):
        return leaf(x) * 2

    def top(xs):
        out = []
        for x in xs:
            out.append(mid(x))
        return leaf(sum(out))
    ''', '''
    from prog import top
    def test_it():
        assert top([1, 2]) == 11
    ''', [
    ("covered", "M6_InterProceduralCFG", "top", {"mode": "covered", "include": ["prog."]},
     {"covered_functions": [{"file": "prog.py", "func": "prog.leaf"}, {"file": "prog.py", "func": "prog.mid"}]}),
    ("edges", "M6_InterProceduralCFG", "top", {"mode": "edges", "include": ["prog."]},
     {"call_edges": [{"caller": "prog.mid", "callee": "prog.leaf", "line": 5, "count": 2},
                     {"caller": "prog.top", "callee": "prog.leaf", "line": 11, "count": 1},
                     {"caller": "prog.top", "callee": "prog.mid", "line": 10, "count": 2}]}),
    ("direct", "S6_InterProceduralCFG", "top", {"invocation": 1, "include": ["prog."], "scope": "direct"},
     {"function_call_order": [{"file": "prog.py", "func": f} for f in ("prog.mid", "prog.mid", "prog.leaf")]}),
    ("count", "S6_InterProceduralCFG", "top", {"mode": "count", "invocation": 1, "func": "prog.leaf"}, {"function_call_count": 3}),
])

# 20 a thread started by a test belongs to that test ------------------------------------------------
program("threads", '''
    def work(box, n):
        box.append(n * n)
    ''', '''
    import threading
    from prog import work
    def test_threads():
        box = []
        t = threading.Thread(target=work, args=(box, 3))
        t.start()
        t.join()
        work(box, 4)
        assert box == [9, 16]
    ''', [
    ("state", "S3_ProgramState", "work", {"line": 2, "hit": 1, "variables": ["n"]}, {"observed_state": [{"variable": "n", "value": "3"}]}),
    ("safe", "M5_Exceptions", "work", {"mode": "crashing_tests"}, {"crashing_tests": [], "safe_tests": ["test_prog.py::test_threads"]}),
])

# 21 while/else with break ---------------------------------------------------------------------
program("find", '''
    def find(items, goal):
        i = 0
        while i < len(items):
            if items[i] == goal:
                break
            i += 1
        else:
            return -1
        return i
    ''', '''
    from prog import find
    def test_it():
        assert find([1, 2, 3], 2) == 1
        assert find([], 1) == -1
        assert find([5, 6], 7) == -1
    ''', [
    ("path", "S1_IntraProceduralCFG", "find", {"invocation": 1}, _path([2, 3, 4, 6, 3, 4, 5, 9], func="prog.find")),
    ("extremes", "M2_Loops", "find", {"mode": "extremes", "loop_line": 3}, {"max_iterations": 2, "min_iterations": 0}),
    ("total", "M2_Loops", "find", {"mode": "total", "loop_line": 3}, {"total_iterations": 4}),
    ("breaks", "M2_Loops", "find", {"mode": "breaks", "loop_line": 3}, {"tests_terminating_at_break": ["test_prog.py::test_it"]}),
    # Per-line execution counts (SWE-Flux's M1 shape): the three paths 2,3,4,6,3,4,5,9 / 2,3,8 / 2,3,4,6,3,4,6,3,8.
    ("line-counts", "M1_IntraProceduralCFG", "find", {"mode": "line_counts"},
     {"line_execution_counts": [{"line": 2, "count": 3}, {"line": 3, "count": 6}, {"line": 4, "count": 4},
                                {"line": 5, "count": 1}, {"line": 6, "count": 3}, {"line": 8, "count": 2},
                                {"line": 9, "count": 1}]}),
])

# 21a SWE-Flux's M1 shape: every body line with zero rows, raw line events ----------------------
program("shape", '''
    def shape(a, b):
        """Doc."""
        total = combine(
            a,
            b * 2,
        )
        # a comment
        if total > 100:
            return -1

        return total

    def combine(x, y):
        return x + y

    def numbers():
        yield 1
    ''', '''
    from prog import numbers, shape
    def test_it():
        assert shape(1, 2) == 5
        assert shape(3, 4) == 11
        numbers().close()  # a generator made and closed: its body never runs
    ''', [
    # Statement steps: the call statement is one step at line 3; nothing else changes.
    ("line-counts-statement", "M1_IntraProceduralCFG", "shape", {"mode": "line_counts"},
     {"line_execution_counts": [{"line": 3, "count": 2}, {"line": 8, "count": 2}, {"line": 11, "count": 2}]}),
    # Every body line (2, the docstring, through 11), zero rows for the lines that never ran.
    ("line-counts-body", "M1_IntraProceduralCFG", "shape", {"mode": "line_counts", "rows": "body"},
     {"line_execution_counts": [{"line": n, "count": {3: 2, 8: 2, 11: 2}.get(n, 0)} for n in range(2, 12)]}),
    # Raw events: line 3 (the callee's name), 4 and 5 (the arguments), then 3 again (the call itself), per
    # invocation, on 3.11 and 3.13 alike.
    ("line-counts-physical", "M1_IntraProceduralCFG", "shape", {"mode": "line_counts", "lines": "physical"},
     {"line_execution_counts": [{"line": 3, "count": 4}, {"line": 4, "count": 2}, {"line": 5, "count": 2},
                                {"line": 8, "count": 2}, {"line": 11, "count": 2}]}),
    ("line-counts-physical-body", "M1_IntraProceduralCFG", "shape",
     {"mode": "line_counts", "lines": "physical", "rows": "body"},
     {"line_execution_counts": [{"line": n, "count": {3: 4, 4: 2, 5: 2, 8: 2, 11: 2}.get(n, 0)}
                                for n in range(2, 12)]}),
    ("line-counts-bad-rows", "M1_IntraProceduralCFG", "shape", {"mode": "line_counts", "rows": "all"},
     Invalid("query key rows must be one of 'executed', 'body', got 'all'")),
    # Closing a generator that never started runs its frame on 3.11 (a call, GeneratorExit at the def line) but
    # no line of its body: no answer of zeros, the question is refused (as SWE-Flux's parser fails); 3.12+ does
    # not run the frame at all.
    ("line-counts-body-never-ran", "M1_IntraProceduralCFG", "numbers", {"mode": "line_counts", "rows": "body"},
     Invalid("no line of the target's body ran in its 1 invocation(s)") if sys.version_info < (3, 12) else
     Invalid("target not executed")),
])

# 21b an early return before the loop (SWE-Flux's conventions: unreached loops, calls over all invocations)
program("early", '''
    def helper(x):
        return x * 2

    def scan(items):
        if not items:
            return 0
        n = 0
        for x in items:
            n += helper(x)
        return n
    ''', '''
    from prog import scan
    def test_it():
        assert scan([1, 2]) == 6
        assert scan([]) == 0
        assert scan([3]) == 6
    ''', [
    ("extremes", "M2_Loops", "scan", {"mode": "extremes", "loop_line": 8}, {"max_iterations": 2, "min_iterations": 1}),
    ("extremes-zero", "M2_Loops", "scan", {"mode": "extremes", "loop_line": 8, "unreached": "zero"},
     {"max_iterations": 2, "min_iterations": 0}),
    ("total-zero", "M2_Loops", "scan", {"mode": "total", "loop_line": 8, "unreached": "zero"}, {"total_iterations": 3}),
    ("bad-unreached", "M2_Loops", "scan", {"mode": "extremes", "loop_line": 8, "unreached": "none"},
     Invalid('query key unreached must be "skip" or "zero", got \'none\'')),
    ("order-one", "S6_InterProceduralCFG", "scan", {"invocation": 1, "include": ["prog."]},
     {"function_call_order": [{"file": "prog.py", "func": "prog.helper"}] * 2}),
    # invocation "all": each call of the target too, before the calls under it (scan([]) calls nothing).
    ("order-all", "S6_InterProceduralCFG", "scan", {"invocation": "all", "include": ["prog."]},
     {"function_call_order": [{"file": "prog.py", "func": f"prog.{f}"}
                              for f in ("scan", "helper", "helper", "scan", "scan", "helper")]}),
    ("order-all-other-prefix", "S6_InterProceduralCFG", "scan", {"invocation": "all", "include": ["prog.help"]},
     {"function_call_order": [{"file": "prog.py", "func": "prog.helper"}] * 3}),
    # Each invocation's first hit of line 9 (SWE-Flux's S3 shape): scan([]) never gets there.
    ("first-hits", "S3_ProgramState", "scan", {"mode": "first_hits", "line": 9, "variables": ["n", "x"]},
     {"first_hit_states": [
         {"invocation": 1, "observed_state": [{"variable": "n", "value": "2"}, {"variable": "x", "value": "1"}]},
         {"invocation": 3, "observed_state": [{"variable": "n", "value": "6"}, {"variable": "x", "value": "3"}]}]}),
    ("first-hits-never", "S3_ProgramState", "scan", {"mode": "first_hits", "line": 2, "variables": ["n"]},
     Invalid("line 2 never executed")),
])

# 21c predicates calling methods of literal values (SWE-Flux's M7 convention; never user code)
program("words", '''
    def words(text):
        parts = text.split()
        out = []
        for p in parts:
            out.append(p.upper())
        return out
    ''', '''
    from prog import words
    def test_it():
        assert words("a bb") == ["A", "BB"]
        assert words("ccc dd e") == ["CCC", "DD", "E"]
    ''', [
    ("methods-hold", "M7_Invariants", "words", {"mode": "counts", "predicate": "p.islower() and len(p.split()) == 1",
                                               "line": 5},
     {"is_invariant_always_held": True, "total_iterations_observed": 5, "violating_iteration_count": 0}),
    ("methods-break", "M7_Invariants", "words", {"mode": "counts", "predicate": "p.startswith('a') or p.endswith('b')",
                                                "line": 5},
     {"is_invariant_always_held": False, "total_iterations_observed": 5, "violating_iteration_count": 3}),
    ("method-of-int", "M7_Invariants", "words", {"mode": "counts", "predicate": "len(p).split() == []", "line": 5},
     Invalid("predicate calls int.split, which is not allowed")),
    ("dunder", "M7_Invariants", "words", {"mode": "counts", "predicate": "p.__class__ == str", "line": 5},
     Invalid("predicate reads attribute '__class__': only method calls are allowed")),
    # Every method that leaves a literal as it is (expandtabs, removeprefix, …), not one that changes it.
    ("methods-any-unchanging", "M7_Invariants", "words",
     {"mode": "counts", "predicate": "p.expandtabs(4) == p and p.removeprefix('c') != 'x'", "line": 5},
     {"is_invariant_always_held": True, "total_iterations_observed": 5, "violating_iteration_count": 0}),
    ("method-mutates", "M7_Invariants", "words", {"mode": "counts", "predicate": "[p].append(1) is None", "line": 5},
     Invalid("predicate calls append(): it may only call")),
    ("method-format", "M7_Invariants", "words", {"mode": "counts", "predicate": "'{0}'.format(p) == p", "line": 5},
     Invalid("predicate calls format(): it may only call")),
    ("method-grows", "M7_Invariants", "words", {"mode": "counts", "predicate": "len(p.center(10 ** 9)) > 0",
                                               "line": 5},
     Invalid("predicate calls str.center for a result of up to 1000000000 items (at most 1000000)")),
])

# 21d SWE-Flux's conventions: physical lines in def-use pairs, tuples of variables, a handler-line filter
program("handle", '''
    def handle(items, k):
        out = []
        for item in items:
            try:
                value = int(
                    item)
            except KeyError:
                value = -2
            except (TypeError, ValueError):
                value = -1
            total = (value
                     * k)
            out.append(total)
        return out, k
    ''', '''
    from prog import handle
    def test_it():
        assert handle(["3", "x", None], 2) == ([6, -2, -2], 2)
    ''', [
    # Statement lines (the default): the read of `item` is at line 5, of `k` at line 11.
    ("pairs-statement", "S4_DataFlow", "handle", {"invocation": 1, "variables": ["item", "k", "value"]},
     {"observed_def_use_pairs": [
         {"def_line": 3, "use_line": 5, "variable": "item"}, {"def_line": 1, "use_line": 11, "variable": "k"},
         {"def_line": 1, "use_line": 14, "variable": "k"}, {"def_line": 5, "use_line": 11, "variable": "value"},
         {"def_line": 10, "use_line": 11, "variable": "value"}]}),
    # Physical lines: `item` is read on line 6, `k` on line 12.
    ("pairs-physical", "S4_DataFlow", "handle",
     {"invocation": 1, "variables": ["item", "k", "value"], "lines": "physical"},
     {"observed_def_use_pairs": [
         {"def_line": 3, "use_line": 6, "variable": "item"}, {"def_line": 1, "use_line": 12, "variable": "k"},
         {"def_line": 1, "use_line": 14, "variable": "k"}, {"def_line": 5, "use_line": 11, "variable": "value"},
         {"def_line": 10, "use_line": 11, "variable": "value"}]}),
    ("counts-physical", "M4_DataFlow", "handle", {"mode": "counts", "variables": ["k"], "lines": "physical"},
     {"observed_def_use_pairs": [{"count": 3, "def_line": 1, "use_line": 12, "variable": "k"},
                                 {"count": 1, "def_line": 1, "use_line": 14, "variable": "k"}]}),
    ("bad-lines", "M4_DataFlow", "handle", {"variables": ["k"], "lines": "logical"},
     Invalid('query key lines must be "statement" or "physical", got \'logical\'')),
    # (value, total) wherever both are bound: after the first iteration, then -1 with the old total, then both new.
    ("tuple", "M3_ProgramState", "handle", {"mode": "unique", "variables": ["value", "total"]},
     {"unique_values": ["(-1, -2)", "(-1, 6)", "(3, 6)"]}),
    ("tuple-of-one", "M3_ProgramState", "handle", {"mode": "unique", "variables": ["value"]},
     Invalid("query key variables must list two or more distinct variable names (in tuple order)")),
    # "x" raises ValueError and None TypeError: both are handled by the second clause, none by the first.
    ("handler-second", "S5_Exceptions", "handle", {"mode": "caught_kinds", "handler_line": 9},
     {"caught_exception_kinds": ["TypeError", "ValueError"]}),
    ("handler-first", "S5_Exceptions", "handle", {"mode": "caught_kinds", "handler_line": 7},
     {"caught_exception_kinds": []}),
    ("handler-not-except", "S5_Exceptions", "handle", {"mode": "caught_kinds", "handler_line": 4},
     Invalid("line 4 is not an `except` clause of the target's file")),
])

# 21f reads from nested scopes counted as the enclosing function's (SWE-Flux's convention)
program("weigh", '''
    def weigh(items, k, base):
        factor = k + 1
        scaled = [x * factor for x in items]
        pick = lambda v: v > base
        kept = list(filter(pick, scaled))
        total = sum(y + base for y in kept)
        return total
    ''', '''
    from prog import weigh
    def test_it():
        assert weigh([1, 2, 3], 1, 3) == 16
    ''', [
    # By default a function's reads are its own frame's: only `kept` (the generator's first iterable) is.
    ("own", "M4_DataFlow", "weigh", {"mode": "counts", "variables": ["base", "factor", "kept", "x"]},
     {"observed_def_use_pairs": [{"count": 1, "def_line": 5, "use_line": 6, "variable": "kept"}]}),
    # Nested: `factor` read by the comprehension for each of 3 items, `base` by the lambda for each of 3
    # values and by the generator expression for each of 2 kept; `x` stays the comprehension's own.
    ("enclosing", "M4_DataFlow", "weigh",
     {"mode": "counts", "variables": ["base", "factor", "kept", "x"], "nested": "enclosing"},
     {"observed_def_use_pairs": [{"count": 3, "def_line": 1, "use_line": 4, "variable": "base"},
                                 {"count": 2, "def_line": 1, "use_line": 6, "variable": "base"},
                                 {"count": 3, "def_line": 2, "use_line": 3, "variable": "factor"},
                                 {"count": 1, "def_line": 5, "use_line": 6, "variable": "kept"}]}),
    ("enclosing-one", "S4_DataFlow", "weigh", {"invocation": 1, "variables": ["factor"], "nested": "enclosing"},
     {"observed_def_use_pairs": [{"def_line": 2, "use_line": 3, "variable": "factor"}]}),
    ("bad-nested", "S4_DataFlow", "weigh", {"invocation": 1, "variables": ["factor"], "nested": "all"},
     Invalid('query key nested must be "own" or "enclosing", got \'all\'')),
])

# 21e per-function call counts from any caller, zero rows kept (SWE-Flux's M6 shape)
program("tally", '''
    def double(x):
        return x * 2

    def unused():
        return 0

    def gen(n):
        for i in range(n):
            yield double(i)

    def total(items):
        return sum(double(x) for x in items) + sum([double(x) for x in items])
    ''', '''
    from prog import double, gen, total
    def test_it():
        assert double(5) == 10
        assert list(gen(3)) == [0, 2, 4]
        assert total([1, 2]) == 12
    ''', [
    # double: once from the test, three times from gen, twice from the generator expression, twice from the
    # list comprehension; gen's resumptions are not calls; `prog.nowhere` is no function at all.
    ("call-counts", "M6_InterProceduralCFG", "total",
     {"mode": "call_counts", "functions": ["prog.unused", "prog.double", "prog.gen", "prog.total", "prog.nowhere"]},
     {"function_call_counts": [{"count": 8, "func": "prog.double"}, {"count": 1, "func": "prog.gen"},
                               {"count": 0, "func": "prog.nowhere"}, {"count": 1, "func": "prog.total"},
                               {"count": 0, "func": "prog.unused"}]}),
    ("call-counts-none", "M6_InterProceduralCFG", "total", {"mode": "call_counts", "functions": []},
     Invalid("query needs 'functions': a list of dotted function names")),
    # A comprehension's own frame: once per evaluation where 3.11 creates it; refused where 3.12+ inlines it.
    ("call-counts-comprehension", "M6_InterProceduralCFG", "total",
     {"mode": "call_counts", "functions": ["prog.total.<locals>.<listcomp>", "prog.total.<locals>.<genexpr>"]},
     {"function_call_counts": [{"count": 1, "func": "prog.total.<locals>.<genexpr>"},
                               {"count": 1, "func": "prog.total.<locals>.<listcomp>"}]}
     if sys.version_info < (3, 12) else
     Invalid("prog.total.<locals>.<listcomp>: Python 3.")),
])

# 22 an invariant that breaks -------------------------------------------------------------------
program("wobble", '''
    def wobble(n):
        x = 0
        for i in range(n):
            x = x + (1 if i % 2 == 0 else -3)
        return x
    ''', '''
    from prog import wobble
    def test_it():
        assert wobble(4) == -4
    ''', [
    ("holds", "S7_Invariants", "wobble", {"predicate": "x >= 0"}, {"invariant_exists": False}),
    ("monotone", "S7_Invariants", "wobble", {"mode": "monotonicity", "variable": "x", "line": 4}, {"monotonicity": "none"}),
    ("counts", "M7_Invariants", "wobble", {"mode": "counts", "predicate": "x >= 0", "line": 4},
     {"is_invariant_always_held": False, "total_iterations_observed": 4, "violating_iteration_count": 2}),
    ("single-counts", "S7_Invariants", "wobble", {"mode": "counts", "predicate": "x < 1", "line": 4},
     {"is_invariant_always_held": False, "total_iterations_observed": 4, "violating_iteration_count": 1}),
    ("checks", "S7_Invariants", "wobble", {"mode": "checks", "checks": [
        {"line": 4, "predicate": "x >= 0"}, {"line": 4, "predicate": "x < 1"}, {"line": 4, "predicate": "i > 0"}]},
     {"invariant_checks": [
         {"is_invariant_always_held": False, "total_iterations_observed": 4, "violating_iteration_count": 2},
         {"is_invariant_always_held": False, "total_iterations_observed": 4, "violating_iteration_count": 1},
         {"is_invariant_always_held": False, "total_iterations_observed": 4, "violating_iteration_count": 1}]}),
])

# 23 a running maximum ---------------------------------------------------------------------------
program("plateau", '''
    def plateau(values):
        best = values[0]
        for v in values:
            best = max(best, v)
        return best
    ''', '''
    from prog import plateau
    def test_it():
        assert plateau([1, 3, 2, 5]) == 5
    ''', [
    ("monotone", "S7_Invariants", "plateau", {"mode": "monotonicity", "variable": "best", "line": 4},
     {"monotonicity": "non_decreasing"}),
    ("holds", "S7_Invariants", "plateau", {"predicate": "best >= 1 and len(values) == 4"}, {"invariant_exists": True}),
    ("unique", "M3_ProgramState", "plateau", {"mode": "unique", "variable": "best"}, {"unique_values": ["1", "3", "5"]}),
    ("holds-suite", "M7_Invariants", "plateau", {"predicate": "best <= max(values)"}, {"invariant_exists": True}),
])

# 24 sets are rendered in sorted order ----------------------------------------------------------
program("tags", '''
    def tags(words):
        seen = set(words)
        nested = [frozenset(words), {"k": seen}]
        return len(seen)
    ''', '''
    from prog import tags
    def test_it():
        assert tags(["pear", "apple", "fig", "apple"]) == 3
    ''', [
    ("set", "S3_ProgramState", "tags", {"line": 2, "hit": 1, "variables": ["seen"]},
     {"observed_state": [{"variable": "seen", "value": "{'apple', 'fig', 'pear'}"}]}),
    ("nested", "S3_ProgramState", "tags", {"line": 3, "hit": 1, "variables": ["nested"]},
     {"observed_state": [{"variable": "nested",
                          "value": "[frozenset({'apple', 'fig', 'pear'}), {'k': {'apple', 'fig', 'pear'}}]"}]}),
    ("unique", "M3_ProgramState", "tags", {"mode": "unique", "variable": "seen"}, {"unique_values": ["{'apple', 'fig', 'pear'}"]}),
])

# 25 floats ---------------------------------------------------------------------------------------
program("mean", '''
    def mean(xs):
        acc = 0.0
        for x in xs:
            acc += x
        return acc / len(xs)
    ''', '''
    from prog import mean
    def test_it():
        assert mean([1.5, 2.5]) == 2.0
        assert mean([4.0]) == 4.0
    ''', [
    ("extremes", "M3_ProgramState", "mean", {"mode": "extremes", "variable": "acc"}, {"min_value": 0.0, "max_value": 4.0}),
    ("nth", "S2_Loops", "mean", {"mode": "nth_value", "invocation": 1, "loop_line": 3, "nth_iteration": 2, "variable": "x"},
     {"nth_iteration": 2, "variable": "x", "value": "2.5"}),
    ("total", "M2_Loops", "mean", {"mode": "total", "loop_line": 3}, {"total_iterations": 3}),
])

# 26 a generator that raises before its first yield ----------------------------------------------
program("chunks", '''
    def chunks(seq, size):
        if size <= 0:
            raise ValueError("size must be positive")
        for start in range(0, len(seq), size):
            yield seq[start:start + size]
    ''', '''
    import pytest
    from prog import chunks
    def test_it():
        assert list(chunks([1, 2, 3], 2)) == [[1, 2], [3]]
        with pytest.raises(ValueError):
            list(chunks([1], 0))
    ''', [
    ("escaping", "S5_Exceptions", "chunks", {"mode": "escaping", "invocation": 2},
     {"exception_type": "ValueError", "exception_message": "size must be positive"}),
    ("loop", "S2_Loops", "chunks", {"invocation": 1, "loop_line": 4}, {"loop_iteration_count": 2}),
    ("types", "M5_Exceptions", "chunks", {"mode": "types"}, {"exception_types": ["ValueError"]}),
    ("flow", "S4_DataFlow", "chunks", {"invocation": 1, "variables": ["size", "start"]},
     {"observed_def_use_pairs": [
         {"def_line": 1, "use_line": 2, "variable": "size"}, {"def_line": 1, "use_line": 4, "variable": "size"},
         {"def_line": 1, "use_line": 5, "variable": "size"}, {"def_line": 4, "use_line": 5, "variable": "start"}]}),
])

# 27 nested functions and lambdas are frames of their own -------------------------------------------
program("apply", '''
    def apply(xs):
        def twice(v):
            return v * 2
        f = lambda v: twice(v) + 1
        return [f(x) for x in xs]
    ''', '''
    from prog import apply
    def test_it():
        assert apply([1, 2]) == [3, 5]
    ''', [
    ("path", "S1_IntraProceduralCFG", "apply", {"invocation": 1}, _path([2, 4, 5], func="prog.apply")),
    ("direct", "S6_InterProceduralCFG", "apply", {"invocation": 1, "include": ["prog."], "scope": "direct"},
     {"function_call_order": [{"file": "prog.py", "func": "prog.apply.<locals>.<lambda>"}] * 2}),
    ("transitive", "S6_InterProceduralCFG", "apply", {"invocation": 1, "include": ["prog."]},
     {"function_call_order": [{"file": "prog.py", "func": "prog.apply.<locals>.<lambda>"},
                              {"file": "prog.py", "func": "prog.apply.<locals>.twice"}] * 2}),
    ("edges", "M6_InterProceduralCFG", "apply", {"mode": "edges", "include": ["prog."]},
     {"call_edges": [{"caller": "prog.apply", "callee": "prog.apply.<locals>.<lambda>", "line": 5, "count": 2},
                     {"caller": "prog.apply.<locals>.<lambda>", "callee": "prog.apply.<locals>.twice", "line": 4, "count": 2}]}),
])

# 28 one-line loops: a backward jump within the line is a new step (a one-line
# `while` reports its condition and body as one step per iteration)--------------------------------------------------
program("oneline", '''
    def spin(n):
        total = 0
        for i in range(n): total += i
        while total > 2: total -= 2
        return total
    ''', '''
    from prog import spin
    def test_it():
        assert spin(4) == 2
    ''', [
    ("path", "S1_IntraProceduralCFG", "spin", {"invocation": 1}, _path([2, 3, 3, 3, 3, 3, 4, 4, 5], func="prog.spin")),
    ("covered", "M1_IntraProceduralCFG", "spin", {}, {"covered_lines": [2, 3, 4, 5]}),
    ("history", "S3_ProgramState", "spin", {"mode": "history", "invocation": 1, "variable": "total"},
     {"value_history": [{"step": i + 1, "value": v} for i, v in enumerate(["0", "1", "3", "6", "4", "2"])]}),
])

# 29 a bound method called through the class's own method -----------------------------------------------
program("stack", '''
    class Stack:
        def __init__(self):
            self.items = []

        def push(self, x):
            self.items.append(x)
            return self

        def drain(self):
            out = []
            while self.items:
                out.append(self.items.pop())
            return out
    ''', '''
    from prog import Stack
    def test_it():
        assert Stack().push(1).push(2).drain() == [2, 1]
    ''', [
    ("loop", "S2_Loops", "Stack.drain", {"invocation": 1, "loop_line": 11}, {"loop_iteration_count": 2}),
    ("flow", "S4_DataFlow", "Stack.drain", {"invocation": 1, "variables": ["out", "self"]},
     {"observed_def_use_pairs": [{"def_line": 10, "use_line": 12, "variable": "out"},
                                 {"def_line": 10, "use_line": 13, "variable": "out"},
                                 {"def_line": 9, "use_line": 11, "variable": "self"},
                                 {"def_line": 9, "use_line": 12, "variable": "self"}]}),
    ("path", "S1_IntraProceduralCFG", "Stack.drain", {"invocation": 1}, _path([10, 11, 12, 11, 12, 11, 13], func="prog.Stack.drain")),
])

# 30 which tests leave a loop at a `break` (nested loops, parametrized test) ----------------------
program("scan", '''
    def first_negative(rows):
        found = None
        for row in rows:
            for x in row:
                if x < 0:
                    found = x
                    break
            if found is not None:
                break
        return found

    def upto(items, stop):
        out = []
        for v in items:
            if v == stop: break
            out.append(v)
        return out
    ''', '''
    import pytest
    from prog import first_negative, upto

    @pytest.mark.parametrize("rows,expected", [([[1, -2], [3]], -2), ([[1], [2]], None), ([], None)],
                             ids=["neg", "pos", "empty"])
    def test_scan(rows, expected):
        assert first_negative(rows) == expected

    def test_last_row():
        assert first_negative([[1], [2, -3, -4]]) == -3
        assert upto([1, 2, 3], 2) == [1]
    ''', [
    ("outer", "M2_Loops", "first_negative", {"mode": "breaks", "loop_line": 3},
     {"tests_terminating_at_break": ["test_prog.py::test_last_row", "test_prog.py::test_scan[neg]"]}),
    ("inner", "M2_Loops", "first_negative", {"mode": "breaks", "loop_line": 4},
     {"tests_terminating_at_break": ["test_prog.py::test_last_row", "test_prog.py::test_scan[neg]"]}),
    ("inner-one-test", "M2_Loops", "first_negative", {"mode": "breaks", "loop_line": 4},
     {"tests_terminating_at_break": []}, "test_prog.py::test_scan[pos]"),
    ("shared-line", "M2_Loops", "upto", {"mode": "breaks", "loop_line": 14},
     Invalid("a `break` of the loop at line 14 shares its line with another statement")),  # `if v == stop: break`
    ("total", "M2_Loops", "first_negative", {"mode": "total", "loop_line": 4}, {"total_iterations": 7}),
])
