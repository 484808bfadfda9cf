"""The host-tracer protocol: the plans the tests send and the result lines the driver writes, checked against
the JSON Schemas generated from the host's zod schemas (tracer/protocol/*.schema.json, written by
`npm run fixtures:update` from src/contracts/tracer-protocol.ts), and the query options table the host
reads (src/contracts/query-options.ts, written by tracer/protocol/query_options.py from the rules).

A key one side does not know is an error on the other: plan.py refuses it, and these tests fail when the
schemas and the tracer name different keys.
"""

import importlib.util
import json
import math
import os
import subprocess
import sys

import pytest
from test_swe_flux import IDS as SWE_FLUX_IDS

from tracegate_tracer import plan as plans
from tracegate_tracer import queries

from catalog import PROGRAMS, Invalid
from conftest import BACKENDS, HARVEST, TRACER_ROOT, catalog_specs, parse_results, plan_of, run_catalog, run_plan

PROTOCOL = os.path.join(TRACER_ROOT, "protocol")
QUERY_OPTIONS_TS = os.path.join(os.path.dirname(TRACER_ROOT), "src", "contracts", "query-options.ts")


def _schema(name):
    with open(os.path.join(PROTOCOL, name), encoding="utf-8") as handle:
        return json.load(handle)


PLAN_SCHEMA = _schema("plan.schema.json")
RESULT_SCHEMA = _schema("result.schema.json")


# -- a JSON Schema subset (what z.toJSONSchema writes for these schemas), standard library only -----------

_ANNOTATIONS = {"$schema", "$defs", "title", "description"}
_KEYWORDS = {"type", "properties", "required", "additionalProperties", "propertyNames", "enum", "const", "items",
             "anyOf", "oneOf", "$ref", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems",
             "minLength"} | _ANNOTATIONS


def _is_type(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and math.isfinite(value) and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise AssertionError(f"JSON Schema type {name!r} is not in the subset")


def _resolve(ref, root):
    assert ref == "#" or ref.startswith("#/"), f"only local $refs are in the subset, got {ref!r}"
    node = root
    for part in ref[2:].split("/") if ref != "#" else ():
        node = node[part]
    return node


def schema_errors(value, schema, root=None, path="$"):
    """Every way `value` breaks `schema` (empty: it conforms). A keyword outside the subset fails loudly."""
    root = schema if root is None else root
    unknown = set(schema) - _KEYWORDS
    assert not unknown, f"JSON Schema keyword(s) {sorted(unknown)} at {path} are not in the test's subset"
    errors = []
    if "$ref" in schema:
        errors += schema_errors(value, _resolve(schema["$ref"], root), root, path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is_type(value, t) for t in types):
            return errors + [f"{path}: {value!r:.80} is not of type {'/'.join(types)}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r:.80} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r:.80} is not one of {schema['enum']}")
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            matches = [not schema_errors(value, option, root, path) for option in schema[keyword]]
            if keyword == "anyOf" and not any(matches):
                errors.append(f"{path}: {value!r:.80} matches none of anyOf")
            if keyword == "oneOf" and sum(matches) != 1:
                errors.append(f"{path}: {value!r:.80} matches {sum(matches)} of oneOf, not exactly one")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} < minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} > maximum {schema['maximum']}")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            errors.append(f"{path}: {value} <= exclusiveMinimum {schema['exclusiveMinimum']}")
        if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
            errors.append(f"{path}: {value} >= exclusiveMaximum {schema['exclusiveMaximum']}")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        errors.append(f"{path}: shorter than {schema['minLength']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for index, item in enumerate(value):
                errors += schema_errors(item, schema["items"], root, f"{path}[{index}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                errors.append(f"{path}: required key {key!r} is missing")
        for key, item in value.items():
            if "propertyNames" in schema:
                errors += schema_errors(key, schema["propertyNames"], root, f"{path} key {key!r}")
            if key in properties:
                errors += schema_errors(item, properties[key], root, f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: key {key!r} is not in the schema")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += schema_errors(item, schema["additionalProperties"], root, f"{path}.{key}")
    return errors


def test_the_validator_can_fail():
    assert schema_errors({"work_dir": "/w", "isolation": None, "instances": []}, PLAN_SCHEMA) == []
    assert schema_errors({"work_dir": "/w", "isolation": None, "instances": [], "bogus": 1}, PLAN_SCHEMA) == [
        "$: key 'bogus' is not in the schema"]
    assert schema_errors({"work_dir": "/w", "instances": []}, PLAN_SCHEMA) == [
        "$: required key 'isolation' is missing"]
    assert schema_errors({"work_dir": "/w", "isolation": {"uid_base": 0}, "instances": []}, PLAN_SCHEMA) == [
        "$.isolation: {'uid_base': 0} matches none of anyOf"]
    assert schema_errors({"work_dir": "/w", "isolation": None, "instances": [{"id": 1}]}, PLAN_SCHEMA) == [
        "$.instances[0]: {'id': 1} matches none of anyOf"]
    assert schema_errors(True, {"type": "integer"}) == ["$: True is not of type integer"]
    with pytest.raises(AssertionError, match="not in the test's subset"):
        schema_errors(1, {"pattern": "x"})


# -- the plan ---------------------------------------------------------------------------------------------

def _spec_schemas():
    """The plan's kinds of spec: (question spec, scout spec); verify specs: _verify_schema()."""
    options = PLAN_SCHEMA["properties"]["instances"]["items"]["anyOf"]
    question = next(s for s in options if "kind" in s["properties"])
    scout = next(s for s in options if "scout" in s["properties"])
    return question, scout


def _verify_schema():
    options = PLAN_SCHEMA["properties"]["instances"]["items"]["anyOf"]
    return next(s for s in options if "verify" in s["properties"])


def _keys(schema):
    return frozenset(schema["properties"])


def _object(schema):
    """The object branch of an optional or nullable object schema."""
    return next(s for s in schema.get("anyOf", [schema]) if s.get("type") == "object")


def test_plan_py_accepts_exactly_the_keys_of_the_schema():
    question, scout = _spec_schemas()
    assert plans.PLAN_KEYS == _keys(PLAN_SCHEMA)
    assert plans.ISOLATION_KEYS == _keys(_object(PLAN_SCHEMA["properties"]["isolation"]))
    assert plans.SPEC_KEYS == _keys(question)
    assert plans.SCOUT_KEYS == _keys(scout)
    verify = _verify_schema()
    assert plans.VERIFY_KEYS == _keys(verify)
    for key, keys in plans.NESTED_KEYS.items():
        where = scout if key == "scout" else verify if key == "verify" else question
        assert keys == _keys(_object(where["properties"][key])), key
    for schema in (PLAN_SCHEMA, question, scout, verify):
        assert schema["additionalProperties"] is False


def _sample_plans(root):
    """Plans as the tests build them (conftest, catalog, and the other test modules' spec helpers)."""
    from test_bad_inputs import spec as bad_inputs_spec
    from test_instance_parser import spec as parser_spec
    from test_swe_flux import INSTANCES
    from test_swe_flux import _spec as swe_flux_spec
    from test_world import spec as world_spec

    directory = root / "inst"
    host = {"id": "host", "dir": "/tg/i/0", "tests": ["test_prog.py::test_it"], "kind": "S2_Loops",
            "target": {"file": "pkg/mod.py", "function": "C.f"}, "query": {"invocation": 1, "loop_line": 3},
            "timeout_seconds": 120, "parser": None, "cwd": "/testbed", "expect_failure": False,
            "instance_hash": "a" * 64, "env_digest": "b" * 64, "variant_epoch": 7,
            "variant_candidate": 0, "variant_search": False}
    mutant = {"file": "heavy/mod.py", "line": 40, "original": ">=", "replacement": ">"}
    specs = [
        host,
        bad_inputs_spec(directory, "bad-inputs", "test_good.py", max_events=50, backend="settrace"),
        parser_spec(directory, "parser", "parser.py"),
        world_spec(directory, "world", "W1_Outcome", "adult", expect_failure=True, mutant=mutant),
        swe_flux_spec(INSTANCES, "/testbed", SWE_FLUX_IDS[0]),
        {"id": "scout", "scout": {"packages": ["shop"]}, "dir": str(directory), "tests": ["test_shop.py"],
         "timeout_seconds": 60},
    ]
    catalog = [dict(spec, backend=BACKENDS[0]) for spec in catalog_specs(root / "programs")]
    return [
        plan_of(root, specs),
        plan_of(root, catalog, keep_traces=True),
        plan_of(root, specs, share_runs=False),
        dict(plan_of(root, specs), isolation={"uid_base": 20000}),
    ]


def test_the_plans_the_tests_send_follow_the_schema(tmp_path):
    for plan in _sample_plans(tmp_path):
        assert schema_errors(plan, PLAN_SCHEMA) == []


def test_a_plan_key_the_driver_does_not_know_stops_the_plan(tmp_path):
    for extra, named in (({"bogus": 1}, "plan key 'bogus' is not part of the protocol"),
                         ({"isolation": {"uid_base": 20000, "gid": 1}},
                          "plan key isolation has key 'gid', which is not part of the protocol")):
        path = tmp_path / "plan.json"
        path.write_text(json.dumps(dict(plan_of(tmp_path, []), **extra)))
        done = subprocess.run([sys.executable, HARVEST, str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stdout == ""
        assert named in done.stderr, done.stderr


# -- the result lines ---------------------------------------------------------------------------------------

def _line_errors(result):
    """A parsed result (conftest.parse_results took its mark off) against the result line's schema."""
    return schema_errors(dict(result, tracegate_result=1), RESULT_SCHEMA)


@pytest.fixture(scope="module")
def driven(tmp_path_factory):
    """One plan over every kind of result: traced, parsed, measured (with and without a mutant), SWE-Flux,
    failed, and specs with keys the protocol does not define. {id: result} and the raw stdout."""
    from test_instance_parser import DEEPEST, PROG, TEST
    from test_instance_parser import spec as parser_spec
    from test_swe_flux import _copies
    from test_swe_flux import _spec as swe_flux_spec
    from test_world import PACKAGE
    from test_world import spec as world_spec

    from conftest import Harness

    root = tmp_path_factory.mktemp("protocol")
    harness = Harness(root)
    traced = harness.instance_dir({"prog.py": PROG, "test_prog.py": TEST, "parser.py": DEEPEST}, name="traced")
    heavy = harness.instance_dir(PACKAGE, name="heavy")
    qa_dir, checkout = _copies(root)
    mutant = {"file": "heavy/mod.py", "line": 40, "original": ">=", "replacement": ">"}
    host = dict(parser_spec(traced, "host", None, query={"mode": "order", "invocation": 1}), expect_failure=False,
                instance_hash="a" * 64, env_digest="b" * 64)
    specs = [
        host,
        parser_spec(traced, "parsed", "parser.py"),
        parser_spec(traced, "missing", None, target={"file": "prog.py", "function": "nope"}),
        world_spec(heavy, "w1-mutant", "W1_Outcome", "adult", expect_failure=True, mutant=mutant),
        world_spec(heavy, "w2", "W2_PeakMemory", "adult"),
        world_spec(heavy, "w3", "W3_WallTime", "adult"),
        world_spec(heavy, "w4", "W4_Profile", "adult"),
        swe_flux_spec(qa_dir, checkout, SWE_FLUX_IDS[0]),
        dict(host, id="bogus-key", bogus=1),
        dict(host, id="bogus-nested", target={"file": "prog.py", "function": "walk", "line": 3}),
        {"id": "scout-bogus", "scout": {"packages": ["prog"]}, "dir": str(traced), "tests": ["test_prog.py"],
         "kind": "S1_IntraProceduralCFG"},
    ]
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(checkout)  # calc imports from the checkout, as an install puts it
    try:
        done = run_plan(root, specs, timeout=600)
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before
    assert done.returncode == 0, done.stderr
    results = {result["id"]: result for result in parse_results(done.stdout)}
    assert sorted(results) == sorted(spec["id"] for spec in specs)
    return results


def test_every_result_line_follows_the_schema(driven):
    for ident, result in driven.items():
        assert _line_errors(result) == [], ident
    for ident in ("host", "parsed", "w1-mutant", "w2", "w3", "w4", SWE_FLUX_IDS[0]):
        assert driven[ident]["status"] == "ok", (ident, driven[ident].get("reason"))
    assert driven["host"]["instance_hash"] == "a" * 64
    assert set(driven["w1-mutant"]["measurement"]) >= {"machine", "runtime", "mutant", "scope"}
    assert {"band", "peak"} <= set(driven["w2"]["measurement"]) and "wall_ms" in driven["w3"]["measurement"]
    assert "executed" in driven["w4"]["measurement"] and driven["missing"]["status"] == "invalid"


def test_the_catalog_results_follow_the_schema(tmp_path_factory):
    # The whole catalog (cached for the session when test_catalog ran first): every answer and context shape.
    results, _work = run_catalog(tmp_path_factory, BACKENDS[0])
    assert len(results) > 100
    for ident, result in results.items():
        assert _line_errors(result) == [], ident


def test_the_schema_refuses_a_key_the_tracer_does_not_write(driven):
    result = dict(driven["host"], tracegate_result=1)
    assert schema_errors(dict(result, runs_agreed=2), RESULT_SCHEMA) == ["$: key 'runs_agreed' is not in the schema"]
    assert schema_errors(dict(result, context=dict(result["context"], extra=1)), RESULT_SCHEMA) == [
        "$.context: key 'extra' is not in the schema"]
    assert schema_errors(dict(result, context=dict(result["context"], first_line=0)), RESULT_SCHEMA) == [
        "$.context.first_line: 0 <= exclusiveMinimum 0"]


def test_a_spec_key_the_driver_does_not_know_is_that_specs_error(driven):
    bogus = driven["bogus-key"]
    assert bogus["status"] == "error"
    assert bogus["reason"].startswith("malformed spec: spec key 'bogus' is not part of the protocol (spec keys: ")
    assert bogus["instance_hash"] == "a" * 64  # still echoed: the host reads it as this spec's error
    nested = driven["bogus-nested"]
    assert nested["status"] == "error" and nested["reason"] == (
        "malformed spec: spec key target has key 'line', which is not part of the protocol "
        "(target keys: file, function)")
    scout = driven["scout-bogus"]
    assert scout["status"] == "error" and "spec key 'kind' is not part of the protocol" in scout["reason"]
    # The same spec without the key is answered, in the same plan.
    assert driven["host"]["status"] == "ok"


# -- query options --------------------------------------------------------------------------------------------

def _option_problem(kind, query):
    """What the host says of a query (src/adapters/suite/query-options.ts), from the same table."""
    mode = query.get("mode", queries.DEFAULT_MODES[kind])
    if mode not in queries.RULES[kind]:
        return f"unknown mode {mode!r}"
    accepted = queries.options(kind, mode)
    for name, value in query.items():
        if name not in accepted:
            return f"unknown option {name!r}"
        if accepted[name] is not None and value not in accepted[name]:
            return f"{name}: {value!r} is not one of {accepted[name]}"
    return None


def test_the_committed_query_options_are_generated_from_the_rules():
    spec = importlib.util.spec_from_file_location("query_options", os.path.join(PROTOCOL, "query_options.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(QUERY_OPTIONS_TS, encoding="utf-8") as handle:
        committed = handle.read()
    assert committed == module.render(), (
        "src/contracts/query-options.ts is stale: run `python3 tracer/protocol/query_options.py` and commit it")


def test_every_catalog_query_uses_declared_options_and_closed_values():
    # An answered question reads only options its rule declares; a closed value outside its set is invalid
    # in the tracer too, so the host's refusal at load loses no question the tracer would answer.
    checked = 0
    for prog in PROGRAMS:
        for ident, kind, _function, query, expected, *_rest in prog["cases"]:
            problem = _option_problem(kind, query)
            if isinstance(expected, Invalid):
                continue
            assert problem is None, (prog["name"], ident, problem)
            checked += 1
    assert checked > 100
    assert [case[0] for prog in PROGRAMS for case in prog["cases"] if _option_problem(case[1], case[3])], (
        "the catalog's bad closed values (unreached, lines, nested) are refused")


def test_every_rule_declares_closed_sets_as_strings():
    for kind, modes in queries.RULES.items():
        for mode in modes:
            for name, values in queries.options(kind, mode).items():
                assert values is None or (values and all(isinstance(v, str) for v in values)), (kind, mode, name)
