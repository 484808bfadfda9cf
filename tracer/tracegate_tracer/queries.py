"""One rule per question kind (and answer shape): trace + query -> answer.

Each rule is declared once, in RULES, with everything that must agree: what
the recorder has to capture, how the answer is computed from the trace, the
answer template and the question text (questions.py renders the text from
the same declaration). The rules are stated in words in tracer/README.md.

Conventions (SWE-Flux's): `file` is the target file relative to
site-packages, `func` is `module.qualname`, lines are 1-based physical lines
of that file (statement lines, see linemap.py), invocations are numbered from
1 in the order of their call events across the whole run.
"""

import ast
import math

from .trace import events_of


class Invalid(Exception):
    """The question has no answer in this run (status "invalid")."""


class Context:
    """What the rules need besides the trace: names and the target's LineMap."""

    def __init__(self, file, func, linemap):
        self.file, self.func, self.linemap = file, func, linemap


class Rule:
    """One answer shape of one kind: parameters, needs, template, answer."""

    def __init__(self, kind, mode, template, answer, params=(), needs=None):
        self.kind, self.mode, self.template, self.answer = kind, mode, template, answer
        self.params = params
        self.needs = needs or (lambda query: {})


# -- shared helpers ----------------------------------------------------------

def _invocation(trace, query):
    k = query.get("invocation")
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise Invalid("query needs a positive integer 'invocation', got %r" % (k,))
    count = len(trace["invocations"])
    if k > count:
        raise Invalid("invocation %d not reached: the target ran %d time(s)" % (k, count))
    return k


def _lines(trace, inv=None):
    return [event[2] for event in events_of(trace, ("line",), inv)]


def _names(query, key="variables"):
    names = query.get(key)
    if isinstance(names, str):
        names = [names]
    if not names or not all(isinstance(n, str) and n for n in names):
        raise Invalid("query needs '%s': a list of variable names" % key)
    return sorted(set(names))


def _variable(query):
    name = query.get("variable")
    if not isinstance(name, str) or not name:
        raise Invalid("query needs 'variable': a variable name")
    return name


def _loop(query, ctx):
    header = query.get("loop_line")
    body = ctx.linemap.loop_body_first.get(header)
    if body is None:
        raise Invalid("line %r is not a for/while loop header" % (header,))
    if body == header:
        raise Invalid("loop at line %d has its body on the header line" % header)
    return header, body


def _iterations(trace, inv, header, body):
    """Indexes (into the invocation's line events) of each iteration's first body line."""
    events = list(events_of(trace, ("line",), inv))
    return [events[i + 1] for i in range(len(events) - 1)
            if events[i][2] == header and events[i + 1][2] == body]


def _states(trace, inv=None):
    """(event, locals) of every event that carries a locals snapshot, in order."""
    for event in trace["events"]:
        if event[0] in ("line", "return", "yield", "unwind") and (inv is None or event[1] == inv):
            if event[-1] is not None:
                yield event, event[-1]


def _literal(text, name):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise Invalid("the value of %s (%s) is not a Python literal" % (name, text[:80]))


def _number(text):
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and math.isnan(value)):
        return None
    return value


# -- S1 / M1 -----------------------------------------------------------------

def s1_executed_path(trace, query, ctx):
    k = _invocation(trace, query)
    return {"executed_path": [{"file": ctx.file, "func": ctx.func, "line": line} for line in _lines(trace, k)]}


def m1_covered_lines(trace, query, ctx):
    return {"covered_lines": sorted(set(_lines(trace)))}


# -- S2 / M2 -----------------------------------------------------------------

def s2_loop_iterations(trace, query, ctx):
    k = _invocation(trace, query)
    header, body = _loop(query, ctx)
    return {"loop_iteration_count": len(_iterations(trace, k, header, body))}


def s2_nth_iteration_value(trace, query, ctx):
    k = _invocation(trace, query)
    header, body = _loop(query, ctx)
    n, name = query.get("nth_iteration"), _variable(query)
    iterations = _iterations(trace, k, header, body)
    if not isinstance(n, int) or not 1 <= n <= len(iterations):
        raise Invalid("iteration %r not reached: the loop ran %d time(s)" % (n, len(iterations)))
    return {"nth_iteration": n, "variable": name, "value": iterations[n - 1][3][name]}


def _per_invocation_iterations(trace, query, ctx):
    header, body = _loop(query, ctx)
    counts = []
    for record in trace["invocations"]:
        if header in _lines(trace, record["inv"]):
            counts.append(len(_iterations(trace, record["inv"], header, body)))
    if not counts:
        raise Invalid("the loop at line %d never ran" % header)
    return counts


def m2_extremes(trace, query, ctx):
    counts = _per_invocation_iterations(trace, query, ctx)
    return {"max_iterations": max(counts), "min_iterations": min(counts)}


def m2_total(trace, query, ctx):
    return {"total_iterations": sum(_per_invocation_iterations(trace, query, ctx))}


def m2_breaks(trace, query, ctx):
    header, _body = _loop(query, ctx)
    breaks = set(ctx.linemap.break_lines(header))
    if not ctx.linemap.loop_breaks.get(header):
        raise Invalid("the loop at line %d has no `break`" % header)
    if len(breaks) != len(ctx.linemap.loop_breaks.get(header, ())):
        raise Invalid("a `break` of the loop at line %d shares its line with another statement" % header)
    tests = {record["inv"]: record["test"] for record in trace["invocations"]}
    return {"tests_terminating_at_break": sorted({tests[e[1]] for e in events_of(trace, ("line",)) if e[2] in breaks})}


# -- S3 / M3 -----------------------------------------------------------------

def s3_program_state(trace, query, ctx):
    line, hit, variables = query.get("line"), query.get("hit"), _names(query)
    seen, events = 0, trace["events"]
    for index, event in enumerate(events):
        if event[0] == "line" and event[2] == line:
            seen += 1
            if seen == hit:
                after = next((e for e in events[index + 1:] if e[0] in ("line", "return", "yield", "unwind") and e[1] == event[1]), None)
                if after is None or after[-1] is None:
                    raise Invalid("no state observed after hit %d of line %d" % (hit, line))
                state = after[-1]
                return {"observed_state": [{"variable": v, "value": state.get(v, "<unbound>")} for v in variables]}
    raise Invalid("line %r executed %d time(s), hit %r not reached" % (line, seen, hit))


def s3_value_history(trace, query, ctx):
    k, name = _invocation(trace, query), _variable(query)
    history = []
    for _event, state in _states(trace, k):
        value = state.get(name, "<unbound>")
        if value != "<unbound>" and (not history or history[-1] != value):
            history.append(value)
    return {"value_history": [{"step": i, "value": v} for i, v in enumerate(history, 1)]}


def _observed_values(trace, name):
    return [state[name] for _event, state in _states(trace) if state.get(name, "<unbound>") != "<unbound>"]


def m3_extremes(trace, query, ctx):
    name = _variable(query)
    numbers = [n for n in map(_number, _observed_values(trace, name)) if n is not None]
    if not numbers:
        raise Invalid("%s never held a number" % name)
    return {"min_value": min(numbers), "max_value": max(numbers)}


def m3_unique(trace, query, ctx):
    name = _variable(query)
    values = sorted(set(_observed_values(trace, name)))
    if not values:
        raise Invalid("%s was never bound" % name)
    return {"unique_values": values}


# -- S4 / M4 -----------------------------------------------------------------

def _def_use(trace, inv, names):
    """Counts of (variable, def_line, use_line) over the accesses of one invocation."""
    reaching, pairs = {}, {}
    for event in trace["events"]:
        kind = event[0]
        if kind not in ("store", "load", "delete") or event[1] != inv or event[3] not in names:
            continue
        _kind, _inv, line, name = event
        if kind == "store":
            reaching[name] = line
        elif kind == "delete":
            reaching.pop(name, None)
        elif name in reaching:
            key = (name, reaching[name], line)
            pairs[key] = pairs.get(key, 0) + 1
    return pairs


def _pairs_answer(pairs, counts=False):
    rows = []
    for (name, d, u), n in sorted(pairs.items()):
        row = {"def_line": d, "use_line": u, "variable": name}
        if counts:
            row["count"] = n
        rows.append(row)
    return {"observed_def_use_pairs": rows}


def s4_def_use(trace, query, ctx):
    return _pairs_answer(_def_use(trace, _invocation(trace, query), set(_names(query))))


def _suite_pairs(trace, query):
    names, total = set(_names(query)), {}
    for record in trace["invocations"]:
        for key, n in _def_use(trace, record["inv"], names).items():
            total[key] = total.get(key, 0) + n
    return total


def m4_def_use(trace, query, ctx):
    return _pairs_answer(_suite_pairs(trace, query))


def m4_def_use_counts(trace, query, ctx):
    return _pairs_answer(_suite_pairs(trace, query), counts=True)


# -- S5 / M5 -----------------------------------------------------------------

def s5_caught_kinds(trace, query, ctx):
    names = {event[3] for event in events_of(trace, ("exception",)) if event[5] is True}
    return {"caught_exception_kinds": sorted(names)}


def _escaping(trace, k):
    if trace["invocations"][k - 1]["outcome"] != "unwind":
        return None
    escaping = [event for event in events_of(trace, ("exception",), k) if event[5] is False]
    return escaping[-1] if escaping else None


def s5_escaping(trace, query, ctx):
    k = _invocation(trace, query)
    event = _escaping(trace, k)
    if event is None:
        raise Invalid("invocation %d raised no escaping exception" % k)
    return {"exception_type": event[3], "exception_message": event[4]}


def _entered(trace):
    """Each exception that entered a target frame, once per frame it entered."""
    return [event[3] for event in events_of(trace, ("exception",))]


def m5_types(trace, query, ctx):
    return {"exception_types": sorted(set(_entered(trace)))}


def m5_counts(trace, query, ctx):
    counts = {}
    for name in _entered(trace):
        counts[name] = counts.get(name, 0) + 1
    return {"exception_type_counts": [{"exception_type": n, "count": c} for n, c in sorted(counts.items())]}


def m5_crashing_tests(trace, query, ctx):
    crashing, tests = {}, []
    for record in trace["invocations"]:
        test = record["test"]
        if test not in tests:
            tests.append(test)
        event = _escaping(trace, record["inv"])
        if event is not None and test not in crashing:
            crashing[test] = event[3]
    return {"crashing_tests": [{"exception_type": crashing[t], "test": t} for t in sorted(crashing)],
            "safe_tests": sorted(t for t in tests if t not in crashing)}


# -- S6 / M6 -----------------------------------------------------------------

def _calls(trace, query, k=None):
    """(event, depth) of calls under invocation k (any invocation when k is None)."""
    include = tuple(query.get("include") or ())
    scope = query.get("scope", "transitive")
    if scope not in ("direct", "transitive"):
        raise Invalid("unknown S6 scope %r" % (scope,))
    for event in events_of(trace, ("call",)):
        owners, func = event[1], event[3]
        if k is None:
            depth = min(d for _inv, d in owners)
        else:
            depth = next((d for inv, d in owners if inv == k), None)
        if depth is None or (scope == "direct" and depth != 1):
            continue
        if not include or func.startswith(include):
            yield event, depth


def s6_call_order(trace, query, ctx):
    k = _invocation(trace, query)
    return {"function_call_order": [{"file": e[2], "func": e[3]} for e, _d in _calls(trace, query, k)]}


def s6_call_count(trace, query, ctx):
    k = _invocation(trace, query)
    func = query.get("func")
    if not isinstance(func, str) or not func:
        raise Invalid("query needs 'func': a dotted function name")
    return {"function_call_count": sum(1 for e, _d in _calls(trace, query, k) if e[3] == func)}


def s6_max_depth(trace, query, ctx):
    k = _invocation(trace, query)
    return {"maximum_call_stack_depth": max((d for _e, d in _calls(trace, dict(query, scope="transitive"), k)),
                                            default=0)}


def m6_covered(trace, query, ctx):
    seen = {(e[2], e[3]) for e, _d in _calls(trace, query)}
    return {"covered_functions": [{"file": f, "func": fn} for f, fn in sorted(seen)]}


def m6_edges(trace, query, ctx):
    counts = {}
    for event, _depth in _calls(trace, query):
        key = (event[4], event[3], event[5])
        counts[key] = counts.get(key, 0) + 1
    return {"call_edges": [{"caller": c, "callee": e, "line": ln, "count": n}
                           for (c, e, ln), n in sorted(counts.items())]}


# -- S7 / M7 -----------------------------------------------------------------

_FUNCTIONS = {"len": len, "abs": abs, "min": min, "max": max, "sum": sum, "sorted": sorted,
              "all": all, "any": any, "set": set, "round": round}
_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
           ast.Pow: lambda a, b: a ** b}
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
            ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
            ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
            ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b}


class _Predicate:
    """A side-effect-free Python expression over recorded (literal) values."""

    def __init__(self, text):
        if not isinstance(text, str) or not text.strip():
            raise Invalid("query needs 'predicate': a Python expression")
        try:
            self.tree = ast.parse(text, mode="eval")
        except SyntaxError as exc:
            raise Invalid("predicate does not parse: %s" % exc.msg)
        self.text = text
        self.names = sorted({n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name)} - set(_FUNCTIONS))
        for node in ast.walk(self.tree):
            if not isinstance(node, (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.UnaryOp,
                                     ast.Not, ast.USub, ast.UAdd, ast.Compare, ast.Name, ast.Load, ast.Constant,
                                     ast.Tuple, ast.List, ast.Subscript, ast.Slice, ast.Call, ast.IfExp,
                                     *_BINOPS, *_COMPARE)):
                raise Invalid("predicate uses unsupported syntax: %s" % type(node).__name__)
            if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS):
                raise Invalid("predicate may only call %s" % ", ".join(sorted(_FUNCTIONS)))

    def __call__(self, state):
        env = {name: _literal(state[name], name) for name in self.names}
        try:
            return bool(self._eval(self.tree.body, env))
        except Invalid:
            raise
        except Exception as exc:  # noqa: BLE001 - e.g. comparing None with an int
            raise Invalid("predicate %r failed on %r: %s" % (self.text, {n: state[n] for n in self.names}, type(exc).__name__))

    def _eval(self, node, env):
        ev = lambda n: self._eval(n, env)  # noqa: E731
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return env[node.id] if node.id in env else _FUNCTIONS[node.id]
        if isinstance(node, ast.BoolOp):
            values = (ev(v) for v in node.values)
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.UnaryOp):
            value = ev(node.operand)
            return not value if isinstance(node.op, ast.Not) else (-value if isinstance(node.op, ast.USub) else +value)
        if isinstance(node, ast.BinOp):
            return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, comparator in zip(node.ops, node.comparators):
                right = ev(comparator)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, (ast.Tuple, ast.List)):
            return [ev(e) for e in node.elts]
        if isinstance(node, ast.Subscript):
            index = node.slice
            if isinstance(index, ast.Slice):
                part = lambda n: None if n is None else ev(n)  # noqa: E731
                return ev(node.value)[part(index.lower):part(index.upper):part(index.step)]
            return ev(node.value)[ev(index)]
        if isinstance(node, ast.IfExp):
            return ev(node.body) if ev(node.test) else ev(node.orelse)
        if isinstance(node, ast.Call):
            return ev(node.func)(*[ev(a) for a in node.args])
        raise Invalid("predicate uses unsupported syntax: %s" % type(node).__name__)


def _observations(trace, query, names):
    """Snapshots at the line events where the predicate is checked."""
    line = query.get("line")
    states = []
    for event in events_of(trace, ("line",)):
        state = event[3]
        if state is None or (line is not None and event[2] != line):
            continue
        if all(state.get(n, "<unbound>") != "<unbound>" for n in names):
            states.append(state)
    if not states:
        raise Invalid("no observation: %s never all bound%s" % (
            ", ".join(names), "" if line is None else " at line %s" % line))
    return states


def _predicate_needs(query):
    try:
        return {"variables": _Predicate(query.get("predicate")).names}
    except Invalid:
        return {}


def invariant_holds(trace, query, ctx):
    predicate = _Predicate(query.get("predicate"))
    return {"invariant_exists": all(predicate(s) for s in _observations(trace, query, predicate.names))}


def invariant_counts(trace, query, ctx):
    if query.get("line") is None:
        raise Invalid("query needs 'line': where each iteration is observed")
    predicate = _Predicate(query.get("predicate"))
    results = [predicate(s) for s in _observations(trace, query, predicate.names)]
    return {"is_invariant_always_held": all(results), "total_iterations_observed": len(results),
            "violating_iteration_count": results.count(False)}


def monotonicity(trace, query, ctx):
    name = _variable(query)
    if query.get("line") is None:
        raise Invalid("query needs 'line': where the variable is observed")
    values = [_literal(s[name], name) for s in _observations(trace, query, [name])]
    pairs = list(zip(values, values[1:]))
    try:
        if all(a == b for a, b in pairs):
            label = "constant"
        elif all(a < b for a, b in pairs):
            label = "strictly_increasing"
        elif all(a <= b for a, b in pairs):
            label = "non_decreasing"
        else:
            label = "none"
    except TypeError:
        raise Invalid("values of %s are not comparable" % name)
    return {"monotonicity": label}


# -- the table ----------------------------------------------------------------

_INV, _LOOP = ("invocation",), ("loop_line",)
_FILE_FUNC = [{"file": "str", "func": "str"}]
_PAIRS = [{"def_line": "int", "use_line": "int", "variable": "str"}]


def _vars(query):
    return {"variables": _names(query)} if query.get("variables") else {}


def _var(query):
    return {"variables": [query["variable"]]} if isinstance(query.get("variable"), str) else {}


def _flow(query):
    try:
        return {"dataflow": _names(query)}
    except Invalid:
        return {}


_CALLS = lambda query: {"record_calls": True}  # noqa: E731

_TABLE = [
    ("S1_IntraProceduralCFG", "path", {"executed_path": [{"file": "str", "func": "str", "line": "int"}]}, s1_executed_path, _INV, None),
    ("M1_IntraProceduralCFG", "covered", {"covered_lines": ["int"]}, m1_covered_lines, (), None),
    ("S2_Loops", "count", {"loop_iteration_count": "int"}, s2_loop_iterations, _INV + _LOOP, None),
    ("S2_Loops", "nth_value", {"nth_iteration": "int", "variable": "str", "value": "str"}, s2_nth_iteration_value,
     _INV + _LOOP + ("nth_iteration", "variable"), _var),
    ("M2_Loops", "extremes", {"max_iterations": "int", "min_iterations": "int"}, m2_extremes, _LOOP, None),
    ("M2_Loops", "total", {"total_iterations": "int"}, m2_total, _LOOP, None),
    ("M2_Loops", "breaks", {"tests_terminating_at_break": ["str"]}, m2_breaks, _LOOP, None),
    ("S3_ProgramState", "state", {"observed_state": [{"variable": "str", "value": "str"}]}, s3_program_state,
     ("line", "hit", "variables"), _vars),
    ("S3_ProgramState", "history", {"value_history": [{"step": "int", "value": "str"}]}, s3_value_history,
     _INV + ("variable",), _var),
    ("M3_ProgramState", "extremes", {"min_value": "float", "max_value": "float"}, m3_extremes, ("variable",), _var),
    ("M3_ProgramState", "unique", {"unique_values": ["str"]}, m3_unique, ("variable",), _var),
    ("S4_DataFlow", "pairs", {"observed_def_use_pairs": _PAIRS}, s4_def_use, _INV + ("variables",), _flow),
    ("M4_DataFlow", "pairs", {"observed_def_use_pairs": _PAIRS}, m4_def_use, ("variables",), _flow),
    ("M4_DataFlow", "counts", {"observed_def_use_pairs": [dict(_PAIRS[0], count="int")]}, m4_def_use_counts,
     ("variables",), _flow),
    ("S5_Exceptions", "caught_kinds", {"caught_exception_kinds": ["str"]}, s5_caught_kinds, (), None),
    ("S5_Exceptions", "escaping", {"exception_type": "str", "exception_message": "str"}, s5_escaping, _INV, None),
    ("M5_Exceptions", "types", {"exception_types": ["str"]}, m5_types, (), None),
    ("M5_Exceptions", "counts", {"exception_type_counts": [{"exception_type": "str", "count": "int"}]}, m5_counts, (), None),
    ("M5_Exceptions", "crashing_tests", {"crashing_tests": [{"exception_type": "str", "test": "str"}], "safe_tests": ["str"]},
     m5_crashing_tests, (), None),
    ("S6_InterProceduralCFG", "order", {"function_call_order": _FILE_FUNC}, s6_call_order, _INV, _CALLS),
    ("S6_InterProceduralCFG", "count", {"function_call_count": "int"}, s6_call_count, _INV + ("func",), _CALLS),
    ("S6_InterProceduralCFG", "max_depth", {"maximum_call_stack_depth": "int"}, s6_max_depth, _INV, _CALLS),
    ("M6_InterProceduralCFG", "covered", {"covered_functions": _FILE_FUNC}, m6_covered, (), _CALLS),
    ("M6_InterProceduralCFG", "edges", {"call_edges": [{"caller": "str", "callee": "str", "line": "int", "count": "int"}]},
     m6_edges, (), _CALLS),
    ("S7_Invariants", "holds", {"invariant_exists": "bool"}, invariant_holds, ("predicate",), _predicate_needs),
    ("S7_Invariants", "monotonicity", {"monotonicity": "str"}, monotonicity, ("variable", "line"), _var),
    ("M7_Invariants", "holds", {"invariant_exists": "bool"}, invariant_holds, ("predicate",), _predicate_needs),
    ("M7_Invariants", "counts", {"is_invariant_always_held": "bool", "total_iterations_observed": "int",
                                 "violating_iteration_count": "int"}, invariant_counts, ("predicate", "line"),
     _predicate_needs),
    ("M7_Invariants", "monotonicity", {"monotonicity": "str"}, monotonicity, ("variable", "line"), _var),
]

RULES = {}
for _kind, _mode, _template, _answer, _params, _needs in _TABLE:
    RULES.setdefault(_kind, {})[_mode] = Rule(_kind, _mode, _template, _answer, _params, _needs)
DEFAULT_MODES = {kind: next(iter(modes)) for kind, modes in RULES.items()}


def rule_for(kind, query):
    modes = RULES.get(kind)
    if modes is None:
        raise Invalid("question kind %r is not implemented by tracer" % (kind,))
    mode = (query or {}).get("mode", DEFAULT_MODES[kind])
    if mode not in modes:
        raise Invalid("unknown %s mode %r (known: %s)" % (kind.split("_")[0], mode, ", ".join(modes)))
    return modes[mode]


def recording_needs(kind, query):
    """What the recorder must capture beyond lines and exceptions."""
    needs = {"record_calls": False, "variables": None, "dataflow": None}
    try:
        needs.update(rule_for(kind, query or {}).needs(query or {}))
    except Invalid:
        pass
    return needs


def answer(kind, query, trace, ctx):
    rule = rule_for(kind, query or {})
    if not trace["invocations"]:
        raise Invalid("target not executed")
    return rule.answer(trace, query or {}, ctx)
