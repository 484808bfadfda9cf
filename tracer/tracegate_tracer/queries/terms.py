"""The terms of art the questions use, each defined by quoting tracer/README.md.

tests/test_questions.py checks that every text in QUOTED is in the README
word for word, so a question never defines a term differently from the rules.
"""

NAMES = ("`file` is the target file's path relative to site-packages (or to the test directory for a "
         "module that lives there, or to the repository for code installed in place from its checkout); `func` "
         "is the dotted name `module.qualname`, e.g. `pkg.mod.Class.method`.")
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
          "frozensets in sorted order, capped at 500 characters; a path under the test's temporary directory "
          "(pytest's `tmp_path`) is written from `<tmp_path>`.")
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
TMP_PATH = ("A path under the test's temporary directory (pytest's `tmp_path`) is written from `<tmp_path>`: "
            "`<tmp_path>/data.json`.")
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
OUTCOME = ("A test passes when its setup, call and teardown all pass; it fails when its call fails (an "
           "assertion or any exception); it errors when its setup or teardown fails, or when its process dies "
           "(a signal, the memory limit). Exception names are the bare `__name__` for builtins, else "
           "`module.qualname`.")
PEAK = ("The peak is the larger of two measures above the test's starting baseline: the peak of memory "
        "allocated through Python's allocators (tracemalloc) and the peak of the process's resident memory; "
        "it covers setup, call and teardown.")
WALL = ("Wall time runs from the runner's invocation of the test to its return: setup, call and teardown, "
        "fixtures included, collection excluded; the answer is the median over five clean runs, each in a "
        "fresh process without tracing.")
EXCLUSIVE = ("Exclusive attribution: time and allocations are credited to the repository frame running when "
             "they happen; time and allocations in standard-library, third-party or C code are credited to the "
             "repository frame that called it, and an in-repository callee's to that callee. Allocation is the "
             "growth of memory allocated through Python's allocators while the code runs (frees are not "
             "subtracted). The repository's code is the target's top-level package; tests are not part of it.")

BUGGY_IO = ("An input exposes the bug when the buggy and the correct version behave differently on it: another "
            "outcome, return value (its `repr()`, memory addresses written `0x…`), standard output or exception "
            "class. The outcome is `ok` when the call returns, `crash` when it raises (the exception class: the "
            "bare `__name__` for builtins, else `module.qualname`) and `timeout` when it does not finish within its "
            "bounds: it runs past 2 seconds, or runs out of memory (1 GiB of address space: a `MemoryError` that "
            "ends the call is a `timeout` too).")
REGRESSION = ("A regression test is fail-to-pass when pytest fails it on the buggy version and passes it on the "
              "correct one, and gives the same two verdicts on a respelling of each version (renamed locals, "
              "reformatted, each file showing the other version's text): a test must tell the versions apart "
              "by what they do, not by reading their source. A test that runs past 20 seconds or out of memory "
              "(1 GiB) fails; a file that does not collect is an error, never a failure.")
QUOTED = (NAMES, LINES, INVOCATION, STEP, ITERATION, OBSERVATION, VALUES, COVERED, BREAK, DEFINITION, USE,
          PAIR, ENTERS, CAUGHT, TMP_PATH, EXC_NAMES, CRASH, CALL, DEPTH, PREDICATE, OUTCOME, PEAK, WALL,
          EXCLUSIVE, BUGGY_IO, REGRESSION)
