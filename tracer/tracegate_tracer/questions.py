"""The question text and answer template of a declarative query.

Both are rendered from exactly what the rule in queries.py reads (kind,
mode, query parameters, target, tests) and never from a trace, so the
wording cannot drift from the answer: the template is the rule's own, and
every term of art is defined by quoting its rule from tracer/README.md
(tests/test_questions.py checks that each quoted definition is in the
README, and that each template matches the answers its rule gives).
"""

import json

from .linemap import module_name
from .queries import Invalid, rule_for

# -- definitions, quoted from tracer/README.md --------------------------------

NAMES = ("`file` is the target file's path relative to site-packages (or to the test directory for a "
         "module that lives there); `func` is the dotted name `module.qualname`, e.g. `pkg.mod.Class.method`.")
LINES = ("Lines are absolute 1-based physical lines of the target file; a statement that spans several "
         "lines is reported at its first line, a compound statement's header (`if`/`elif`/`while`/`for`/"
         "`with`/`try`/`match`, up to the line before its first body statement) at the header's first line, "
         "an `except` clause at its `except` line; the `def` line is never reported.")
INVOCATION = ("An invocation is one call of the target: invocations are numbered from 1 in the order of "
              "their call events across the whole run (all selected tests, in pytest's order); resuming a "
              "suspended generator continues the same invocation; a recursive call is a new invocation.")
STEP = ("A step is one executed statement of a target frame: a new step starts when the statement "
        "changes, or when the same line is executed again (control jumped back to it, as in a loop).")
ITERATION = ("An iteration of the loop whose header is at line L is one passage from a step at L to the "
             "next step being the first statement of its body; `continue`, inner loops and `else:` add none.")
OBSERVATION = ("An observation is a step of any invocation, seeing the locals before that line runs.")
VALUES = ("Values are `repr()` texts with memory addresses written `0x…`, the elements of sets and "
          "frozensets in sorted order, capped at 500 characters.")
COVERED = "A line is covered when at least one step of any invocation in any selected test is at it."
BREAK = ("A test terminates at break when, in some invocation made during that test, a `break` statement "
         "of that loop (not of a loop nested in it) executes.")
DEFINITION = ("A definition is an executed store of the name by the target's own frame: an assignment, "
              "augmented assignment, `for` target (each iteration), `with … as`, `except … as`, `import`, "
              "or a parameter binding (at the `def` line, when the invocation starts).")
USE = ("A use is an executed load of the name by the frame, counted per evaluation: `a * a` is two uses, "
       "a loop condition is a use each time it is evaluated, `x += 1` is a use of the reaching definition "
       "and then a new definition on that line.")
PAIR = ("The pair (d, u) is observed when the value read at u was stored at d (the last store before the "
        "load in that invocation; `del` kills it). Loads and stores inside a comprehension other than its "
        "first iterable are not the function's; neither are those of nested functions or lambdas.")
ENTERS = ("An exception enters a target frame when it is raised there or propagates into it from a callee "
          "(once per frame).")
CAUGHT = ("It is caught there unless that frame is left by unwinding with that same exception object (a "
          "bare `raise`, a `finally` that re-raises, `raise e` of the same object are not catches; raising "
          "a different exception in the handler means the first was caught).")
EXC_NAMES = "Exception names are the bare `__name__` for builtins, else `module.qualname`."
CRASH = ("A test crashes when an exception propagated out of an invocation it made (the first such "
         "exception's type); a test that ran the target otherwise is safe.")
CALL = ("A call is the start of a new Python frame while the invocation is on the stack. Not calls: "
        "generator/coroutine resumptions, list/dict/set comprehension frames, functions implemented in C. "
        "Generator expressions and lambdas are calls.")
DEPTH = ("The depth of a call is its distance below the target's frame on the stack: a function the target "
         "frame calls is at depth 1, a function that one calls at depth 2; comprehension frames are not a "
         "level of depth.")
PREDICATE = ("The predicate is a Python expression over the target's locals, evaluated on their values read "
             "back as literals; it is checked at every observation where all its names are bound.")

QUOTED = (NAMES, LINES, INVOCATION, STEP, ITERATION, OBSERVATION, VALUES, COVERED, BREAK, DEFINITION, USE,
          PAIR, ENTERS, CAUGHT, EXC_NAMES, CRASH, CALL, DEPTH, PREDICATE)


# -- pieces -------------------------------------------------------------------

def _code(value):
    return "`%s`" % value


def _names(values):
    values = [values] if isinstance(values, str) else sorted(set(values or ()))
    return ", ".join(_code(v) for v in values)


def _include(query):
    prefixes = list(query.get("include") or ())
    if not prefixes:
        return "Count calls of any Python function."
    return "Count only calls of functions whose dotted name starts with %s." % " or ".join(
        '"%s"' % p for p in prefixes)


def _scope(query):
    if query.get("scope", "transitive") == "direct":
        return "Only calls made by the target's own frame (depth 1) count."
    return "Calls at every depth below the target count (callees of callees too)."


def _at(query):
    return "" if query.get("line") is None else " at line %s" % query["line"]


# -- one text per (kind, mode): what is asked, then the terms it uses ----------

def _ask(kind, mode, q):
    k, loop = q.get("invocation"), q.get("loop_line")
    table = {
        ("S1_IntraProceduralCFG", "path"): (
            "List the executed path of invocation %s of the target: the steps of invocation %s's own frame, "
            "in order, repeats kept; no lines of callees (nested functions, lambdas, generator expressions, "
            "comprehensions)." % (k, k), [STEP, INVOCATION, NAMES]),
        ("M1_IntraProceduralCFG", "covered"): (
            "Which lines of the target are covered? Give them sorted ascending, each once.", [COVERED, STEP]),
        ("S2_Loops", "count"): (
            "How many iterations does the loop whose header is at line %s run in invocation %s?" % (loop, k),
            [ITERATION, STEP, INVOCATION]),
        ("S2_Loops", "nth_value"): (
            "In invocation %s, what is the value of %s when iteration %s of the loop whose header is at "
            "line %s is about to run its first body statement? Give `nth_iteration` and `variable` back as "
            "asked." % (k, _code(q.get("variable")), q.get("nth_iteration"), loop),
            [ITERATION, STEP, INVOCATION, VALUES]),
        ("M2_Loops", "extremes"): (
            "Over the invocations in which the header at line %s ran at least once, what are the largest and "
            "the smallest number of iterations of that loop in one invocation?" % loop,
            [ITERATION, STEP, INVOCATION]),
        ("M2_Loops", "total"): (
            "How many iterations does the loop whose header is at line %s run in total, summed over all "
            "invocations?" % loop, [ITERATION, STEP, INVOCATION]),
        ("M2_Loops", "breaks"): (
            "Which tests terminate the loop whose header is at line %s at a `break`? Give their pytest ids, "
            "sorted, each once (an empty list if none)." % loop, [BREAK, INVOCATION]),
        ("S3_ProgramState", "state"): (
            "Consider hit %s of line %s: the %s-th step at that line, counting across all invocations in "
            "execution order. Just after that line runs (at the next step, return, yield or unwind of that "
            "same frame), what are the values of %s? Give `\"<unbound>\"` for a variable that is not bound; "
            "cells and free variables count as locals. Sort by variable name."
            % (q.get("hit"), q.get("line"), q.get("hit"), _names(q.get("variables"))),
            [STEP, VALUES]),
        ("S3_ProgramState", "history"): (
            "In invocation %s, which values does %s take, in order? Read it at each step (before the line "
            "runs) and at the frame's return, yield or unwind; drop consecutive repeats and `<unbound>`; "
            "number the values from 1." % (k, _code(q.get("variable"))), [STEP, INVOCATION, VALUES]),
        ("M3_ProgramState", "extremes"): (
            "Over every observation (and every return, yield or unwind) of %s whose value is an int or float "
            "literal, what are its minimum and maximum?" % _code(q.get("variable")), [OBSERVATION, STEP]),
        ("M3_ProgramState", "unique"): (
            "Which distinct values does %s hold over every observation (and every return, yield or unwind) "
            "where it is bound? Give them sorted as strings, each once." % _code(q.get("variable")),
            [OBSERVATION, STEP, VALUES]),
        ("S4_DataFlow", "pairs"): (
            "In invocation %s, which def-use pairs of %s are observed? Give each once, sorted by variable, "
            "then def_line, then use_line." % (k, _names(q.get("variables"))),
            [DEFINITION, USE, PAIR, INVOCATION]),
        ("M4_DataFlow", "pairs"): (
            "Over all invocations, which def-use pairs of %s are observed? Give each once, sorted by "
            "variable, then def_line, then use_line." % _names(q.get("variables")),
            [DEFINITION, USE, PAIR]),
        ("M4_DataFlow", "counts"): (
            "Over all invocations, which def-use pairs of %s are observed, and how many uses read each "
            "definition (`count`)? Give each pair once, sorted by variable, then def_line, then use_line."
            % _names(q.get("variables")), [DEFINITION, USE, PAIR]),
        ("S5_Exceptions", "caught_kinds"): (
            "Which exception types enter a target frame and are caught there? Give each name once, sorted.",
            [ENTERS, CAUGHT, EXC_NAMES]),
        ("S5_Exceptions", "escaping"): (
            "Invocation %s ends by an exception: which one propagated out of it (the last one that entered "
            "its frame before it unwound)? Give its type and its message, `str(e)`." % k,
            [ENTERS, CAUGHT, EXC_NAMES, INVOCATION]),
        ("M5_Exceptions", "types"): (
            "Which exception types enter a target frame? Give each name once, sorted.", [ENTERS, EXC_NAMES]),
        ("M5_Exceptions", "counts"): (
            "How many times does each exception type enter a target frame (once per frame it enters)? "
            "Sort by type name.", [ENTERS, EXC_NAMES]),
        ("M5_Exceptions", "crashing_tests"): (
            "Which tests crash, with which exception type, and which tests that ran the target are safe? "
            "Sort both lists by pytest id.", [CRASH, ENTERS, EXC_NAMES, INVOCATION]),
        ("S6_InterProceduralCFG", "order"): (
            "Which functions does invocation %s call, in call order, repeats kept? %s %s"
            % (k, _include(q), _scope(q)), [CALL, DEPTH, INVOCATION, NAMES]),
        ("S6_InterProceduralCFG", "count"): (
            "How many times is %s called during invocation %s? %s %s"
            % (_code(q.get("func")), k, _include(q), _scope(q)), [CALL, DEPTH, INVOCATION, NAMES]),
        ("S6_InterProceduralCFG", "max_depth"): (
            "What is the maximum call stack depth reached below invocation %s: the largest depth of a call "
            "made while it is on the stack (0 if it calls nothing)? %s" % (k, _include(q)),
            [CALL, DEPTH, INVOCATION, NAMES]),
        ("M6_InterProceduralCFG", "covered"): (
            "Which functions are called, at any depth, while some invocation is on the stack? %s Give each "
            "once, sorted by file, then func." % _include(q), [CALL, NAMES]),
        ("M6_InterProceduralCFG", "edges"): (
            "Which call edges occur, at any depth, while some invocation is on the stack, and how often? "
            "%s `caller` and `callee` are dotted names; `line` is the caller's call-site line (the statement "
            "line for the target). Sort by caller, callee, line." % _include(q), [CALL, NAMES]),
        ("S7_Invariants", "holds"): (
            "Is the predicate `%s` true at every observation%s where all its names are bound?"
            % (q.get("predicate"), _at(q)), [PREDICATE, OBSERVATION, STEP]),
        ("S7_Invariants", "monotonicity"): (
            "Over the observations at line %s, is %s `constant`, `strictly_increasing`, `non_decreasing` "
            "or `none` of these (checked in that order)?" % (q.get("line"), _code(q.get("variable"))),
            [OBSERVATION, STEP]),
        ("M7_Invariants", "counts"): (
            "Checking the predicate `%s` once per step at line %s, does it always hold, how many steps are "
            "observed, and at how many is it false?" % (q.get("predicate"), q.get("line")),
            [PREDICATE, OBSERVATION, STEP]),
    }
    table[("M7_Invariants", "holds")] = table[("S7_Invariants", "holds")]
    table[("M7_Invariants", "monotonicity")] = table[("S7_Invariants", "monotonicity")]
    return table[(kind, mode)]


def _tests(tests):
    tests = list(tests or ())
    if len(tests) == 1:
        return "Run the test %s with pytest from the instance directory (a pytest id)." % _code(tests[0])
    return ("Run the tests %s with pytest from the instance directory, in that order, as one session "
            "(pytest ids)." % ", ".join(_code(t) for t in tests))


def render(kind, query, target, tests):
    """(question, template_answer) of a declarative query; (None, None) when the kind/mode is unknown."""
    query = query or {}
    try:
        rule = rule_for(kind, query)
    except Invalid:
        return None, None
    file, function = target["file"], target["function"]
    func = "%s.%s" % (module_name(file), function)
    ask, terms = _ask(kind, rule.mode, query)
    template = rule.template
    parts = [
        _tests(tests),
        "The target function is %s (qualified name %s) in %s; \"the target\" below means it." % (
            _code(func), _code(function), _code(file)),
        ask,
        "Definitions: " + " ".join(terms + [LINES]),
        "Answer as JSON of exactly this shape, where \"int\", \"float\", \"str\" and \"bool\" name each "
        "value's type and a one-element list stands for a list of any length: %s"
        % json.dumps(template, separators=(", ", ": ")),
    ]
    return " ".join(parts), template
