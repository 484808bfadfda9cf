"""Long executions of flask, with state carried across calls.

Each test drives one area of flask (URL building, blueprint registration,
error-handler resolution, response conversion, request hooks, the tagged
session serializer, the JSON provider, config loading, flashing, the CLI)
through many calls over deterministic inputs built by explicit loops:
arithmetic progressions, small-modulus patterns, strings built from the loop
index.  Most loops feed what one call produced into the next call, or run a
sequence of operations on one object, and many checks are aggregates asserted
at the end.  The point is to make flask's own functions run long and deep, so
that questions about what they did take patient, step-by-step reasoning over
the test and the source (harder items than the short tests beside this one).
"""

import dataclasses
import datetime
import decimal
import os
import types
import uuid
from collections import Counter
from unittest import mock

import flask
import pytest
from flask import Blueprint, Flask
from flask.cli import NoAppException, find_app_by_string, routes_command
from flask.config import Config
from flask.json.tag import TaggedJSONSerializer
from markupsafe import Markup
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BuildError


class QuietFlask(Flask):
    """A Flask app that does not log the exceptions it turns into 500s."""

    def log_exception(self, exc_info):
        pass


def test_url_for_over_many_rules_with_defaults_and_fallbacks():
    app = Flask(__name__)

    @app.route("/item/<int:n>")
    def item(n):
        return str(n)

    @app.route("/tag/<name>")
    def tag(name):
        return name

    def page(n):
        return str(n)

    app.add_url_rule("/page/", "page", page, defaults={"n": 1})
    app.add_url_rule("/page/<int:n>", "page", page)

    @app.route("/doc/<lang>/<slug>")
    def doc(lang, slug):
        return slug

    @app.url_defaults
    def default_lang(endpoint, values):
        if endpoint == "doc":
            values.setdefault("lang", "en")

    shop = Blueprint("shop", __name__, url_prefix="/shop/<region>")

    @shop.url_defaults
    def default_region(endpoint, values):
        values.setdefault("region", "eu")

    @shop.route("/")
    def home(region):
        return region

    @shop.route("/cart/<int:n>")
    def cart(region, n):
        return region

    app.register_blueprint(shop)

    # Two build-error handlers: the first rescues "legacy*" endpoints, the
    # second re-raises for "item" and declines everything else.
    def legacy(error, endpoint, values):
        if endpoint.startswith("legacy"):
            return f"/old/{endpoint[6:] or 'root'}"
        return None

    def strict(error, endpoint, values):
        if endpoint == "item":
            raise error

    app.url_build_error_handlers.extend([legacy, strict])

    endpoints = ["item", "tag", "page", "doc", ".cart", ".home", "legacy_x", "shop.cart"]
    built = []
    failed = []
    # The first 24 calls run in a request that matched no blueprint, the next
    # 24 in a request routed to the shop blueprint (so ".cart" is relative).
    for path, start in (("/", 0), ("/shop/eu/", 24)):
        with app.test_request_context(path, base_url="http://bench.test/app"):
            for i in range(start, start + 24):
                ep = endpoints[(i * 3) % 8]
                values = {}
                if ep in ("item", ".cart", "shop.cart", "page") and i % 5 != 4:
                    values["n"] = (i * 7 + 3) % 11
                if ep == "tag":
                    values["name"] = f"k{i % 5}"
                if ep == "doc":
                    values["slug"] = f"s{i}"
                    if i // 8 % 2:
                        values["lang"] = "de"
                if ep in (".cart", ".home", "shop.cart") and i % 3 == 0:
                    values["region"] = f"r{i % 4}"
                if i % 6 == 5:
                    values["q"] = i
                options = {}
                if i % 10 == 7:
                    options["_anchor"] = f"a {i}"
                if i % 9 == 2:
                    options["_external"] = True
                try:
                    url = flask.url_for(ep, **options, **values)
                except BuildError:
                    failed.append(i)
                else:
                    built.append(url)
    assert failed == [4, 7, 12, 15, 20, 23, 24, 29, 44]
    assert len(built) == 39
    assert sum(len(u) for u in built) == 596
    assert built[:8] == [
        "/app/item/3",
        "/app/doc/en/s1",
        "/old/_x",
        "/app/tag/k3",
        "/app/shop/eu/cart/5?q=5",
        "/app/page/",
        "/app/item/4",
        "/app/doc/de/s9",
    ]
    assert [u for u in built if u.startswith("http")] == [
        "http://bench.test/app/tag/k1?q=11",
        "http://bench.test/app/page/5",
        "http://bench.test/app/shop/eu/?q=47#a%2047",
    ]
    assert sorted(u for u in built if "/shop/r" in u) == [
        "/app/shop/r0/cart/2",
        "/app/shop/r1/cart/10",
        "/app/shop/r1/cart/7",
        "/app/shop/r3/",
    ]


def make_tree(log):
    """Root "t" with three children; a0 and a2 have two children each."""

    def make_bp(name, prefix, rule="/<int:x>"):
        bp = Blueprint(name, __name__, url_prefix=prefix)

        @bp.before_request
        def before():
            log.append(name)

        @bp.route(rule)
        def view(x):
            return f"{flask.request.blueprint}:{x}"

        return bp

    root = make_bp("t", "/t")
    a0 = make_bp("a0", "/a0")
    a1 = make_bp("a1", None)
    a2 = make_bp("a2", "/a2/")
    a0.register_blueprint(make_bp("b0", "/b0"))
    a0.register_blueprint(make_bp("b1", None, rule="/leaf/<int:x>"))
    a2.register_blueprint(make_bp("b0", "/b0"))
    a2.register_blueprint(make_bp("b1", "/b1"))
    root.register_blueprint(a0)
    root.register_blueprint(a1, url_prefix="/mid")
    root.register_blueprint(a2)
    return root


def test_blueprint_tree_registered_three_times_and_dispatched():
    app = Flask(__name__)
    log = []
    root = make_tree(log)
    refused = []
    # The same tree is registered under several names; one name repeats.
    for name, prefix in [("t", None), ("u", "/u"), ("t", "/again"), ("w", "/w")]:
        options = {"url_prefix": prefix} if prefix else {}
        try:
            app.register_blueprint(root, name=name, **options)
        except ValueError:
            refused.append(name)
    assert refused == ["t"]
    assert len(app.blueprints) == 24
    assert [n for n in app.blueprints if n.startswith("u")] == [
        "u",
        "u.a0",
        "u.a0.b0",
        "u.a0.b1",
        "u.a1",
        "u.a2",
        "u.a2.b0",
        "u.a2.b1",
    ]
    assert len(list(app.url_map.iter_rules())) == 25

    client = app.test_client()
    tops = ["/t", "/u", "/w"]
    tails = ["", "/a0", "/a0/b0", "/a0/leaf", "/mid", "/a2", "/a2/b0", "/a2/b1"]
    bodies = []
    statuses = Counter()
    for i in range(30):
        x = i * 3 - 10
        resp = client.get(f"{tops[i % 3]}{tails[(i * 5) % 8]}/{x}")
        statuses[resp.status_code] += 1
        if resp.status_code == 200:
            bodies.append(resp.get_data(as_text=True))
    assert statuses == {200: 26, 404: 4}
    assert bodies[:8] == [
        "u.a1:2",
        "w.a0:5",
        "t.a2.b0:8",
        "u.a0.b1:11",
        "w:14",
        "t.a2:17",
        "u.a0.b0:20",
        "w.a2.b1:23",
    ]
    assert sum(int(b.split(":")[1]) for b in bodies) == sum(range(2, 78, 3))
    assert len(log) == 61
    assert sorted(Counter(log).items()) == [("a0", 10), ("a1", 4), ("a2", 9), ("b0", 6), ("b1", 6), ("t", 26)]


class E0(Exception):
    pass


class E1(E0):
    pass


class E2(E1):
    pass


class E3(E2):
    pass


class Other(Exception):
    pass


def test_error_handler_resolution_over_an_exception_hierarchy():
    app = QuietFlask(__name__)
    api = Blueprint("api", __name__, url_prefix="/api")
    raised = [E0, E1, E2, E3, Other]

    def raise_kind(k):
        kind = k % 8
        if kind < 5:
            raise raised[kind](k)
        flask.abort([404, 403, 410][kind - 5])

    @app.route("/raise/<int:k>")
    def app_raise(k):
        raise_kind(k)

    @api.route("/raise/<int:k>")
    def api_raise(k):
        raise_kind(k)

    @app.errorhandler(E0)
    def app_e0(e):
        return f"app-E0:{type(e).__name__}:{e.args[0]}", 400

    @app.errorhandler(404)
    def app_404(e):
        return "app-404", 404

    @app.errorhandler(500)
    def app_500(e):
        return f"app-500:{type(e.original_exception).__name__}", 500

    @api.errorhandler(E2)
    def api_e2(e):
        return f"api-E2:{type(e).__name__}", 409

    @api.errorhandler(HTTPException)
    def api_http(e):
        return f"api-http:{e.code}", e.code

    app.register_blueprint(api)
    client = app.test_client()
    results = []
    for i in range(36):
        prefix = "/api" if i % 3 else ""
        k = (i * 7 + 3) % 11
        resp = client.get(f"{prefix}/raise/{k}")
        results.append((resp.status_code, resp.get_data(as_text=True)))
    assert results[:12] == [
        (400, "app-E0:E3:3"),
        (409, "api-E2:E2"),
        (403, "api-http:403"),
        (400, "app-E0:E2:2"),
        (400, "app-E0:E1:9"),
        (404, "app-404"),
        (400, "app-E0:E1:1"),
        (400, "app-E0:E0:8"),
        (500, "app-500:Other"),
        (400, "app-E0:E0:0"),
        (410, "api-http:410"),
        (409, "api-E2:E3"),
    ]
    assert sum(status for status, _ in results) == 14817
    # Responses no handler produced are werkzeug's default HTML pages.
    kinds = Counter("default" if body.startswith("<!doctype") else body.split(":")[0] for _, body in results)
    assert sorted(kinds.items()) == [
        ("api-E2", 7),
        ("api-http", 5),
        ("app-404", 3),
        ("app-500", 3),
        ("app-E0", 16),
        ("default", 2),
    ]
    assert [client.get(p).get_data(as_text=True) for p in ("/api/nope", "/nope", "/raise/x")] == ["app-404"] * 3


def test_make_response_conversion_matrix():
    app = Flask(__name__)
    statuses = []
    lengths = 0
    header_total = 0
    errors = Counter()
    with app.test_request_context("/conv"):
        for i in range(48):
            kind = i % 8
            body = f"b{i}" * (i % 4 + 1)
            if kind == 0:
                rv = body
            elif kind == 1:
                rv = (body.encode(), 200 + i % 5)
            elif kind == 2:
                rv = {"i": i, "parts": [i % 3, i % 5]}
            elif kind == 3:
                rv = ([i, body], f"{201 + i % 3} MADE")
            elif kind == 4:
                rv = (body, {"X-I": str(i), "X-Mod": str(i % 7)})
            elif kind == 5:
                rv = (flask.Response(body, status=202), 203, [("X-Three", "3")])
            elif kind == 6:
                rv = (f"{j}" for j in range(i % 5))
            else:
                # Invalid forms cycle: None, a 4-tuple, a float.
                rv = [None, (body, 200, {}, "extra"), float(i)][i // 8 % 3]
            try:
                resp = app.make_response(rv)
            except TypeError as e:
                errors[str(e)[:30]] += 1
                continue
            statuses.append(resp.status_code)
            lengths += len(resp.get_data())
            header_total += len(resp.headers)
    assert len(statuses) == 42
    assert statuses[:14] == [200, 201, 200, 201, 200, 203, 200, 200, 204, 200, 203, 200, 203, 200]
    assert sum(statuses) == 8441
    assert lengths == 362
    assert header_total == 96
    assert sorted(errors.items()) == [
        ("The view function did not retu", 4),
        ("The view function for None did", 2),
    ]


def test_request_hooks_with_short_circuits_across_thirty_requests():
    app = Flask(__name__)
    inner = Blueprint("inner", __name__, url_prefix="/in")
    state = {"seen": 0, "blocked": 0, "torn": 0}
    events = []

    @app.url_value_preprocessor
    def pull_step(endpoint, values):
        if values and "step" in values:
            flask.g.step = values.pop("step")

    @app.before_request
    def count():
        state["seen"] += 1

    @app.before_request
    def gate():
        # Refuse a request when the running count hits 3 modulo 7.
        if state["seen"] % 7 == 3:
            state["blocked"] += 1
            return "blocked", 429
        return None

    @inner.before_request
    def inner_before():
        events.append(f"in{flask.g.step}")

    @app.after_request
    def stamp(resp):
        resp.headers["X-Seen"] = str(state["seen"])
        return resp

    @inner.after_request
    def inner_after(resp):
        resp.headers["X-Inner"] = str(len(events))
        return resp

    @app.teardown_request
    def teardown(exc):
        state["torn"] += 1

    def step_body():
        step = flask.g.step
        if step % 4 == 0:
            @flask.after_this_request
            def quad(resp):
                resp.headers["X-Quad"] = str(step // 4)
                return resp
        return str(step * 2)

    @app.route("/s/<int:step>")
    def outer_step():
        return step_body()

    @inner.route("/s/<int:step>")
    def inner_step():
        return step_body() + "i"

    app.register_blueprint(inner)
    client = app.test_client()
    codes = []
    total = 0
    headers = Counter()
    for i in range(30):
        path = f"/in/s/{i}" if i % 3 == 1 else f"/s/{i}"
        resp = client.get(path)
        codes.append(resp.status_code)
        assert resp.headers["X-Seen"] == str(i + 1)
        if resp.status_code == 200:
            total += int(resp.get_data(as_text=True).rstrip("i"))
        for key in ("X-Inner", "X-Quad"):
            if key in resp.headers:
                headers[key] += int(resp.headers[key])
    assert [i for i, code in enumerate(codes) if code == 429] == [2, 9, 16, 23]
    assert total == 770
    assert sorted(headers.items()) == [("X-Inner", 50), ("X-Quad", 24)]
    assert state == {"seen": 30, "blocked": 4, "torn": 30}
    assert events == ["in1", "in4", "in7", "in10", "in13", "in19", "in22", "in25", "in28"]


def test_tagged_serializer_rolls_a_structure_through_many_round_trips():
    s = TaggedJSONSerializer()
    carried = {"start": ()}
    sizes = []
    for i in range(30):
        # Six slots are overwritten in turn with one of five value shapes.
        key = f"k{i % 6}"
        kind = i % 5
        if kind == 0:
            value = (i, (i % 3, b"\x00" * (i % 3)))
        elif kind == 1:
            value = [Markup(f"<b>{i}</b>"), {" t": i}]
        elif kind == 2:
            value = {
                "u": uuid.UUID(int=i * 1000),
                "d": datetime.datetime(2020, 1, 1 + i % 28, i % 24, tzinfo=datetime.timezone.utc),
            }
        elif kind == 3:
            # Reuses what the previous round trip produced for the next slot.
            value = [carried.get(f"k{(i + 1) % 6}"), (i,)]
        else:
            value = {" di": [i, b"ab"]}
        carried[key] = value
        text = s.dumps(carried)
        sizes.append(len(text))
        loaded = s.loads(text)
        assert loaded == carried
        carried = loaded
    assert sizes[:6] == [56, 100, 196, 219, 260, 301]
    assert sum(sizes) == 9668
    assert max(sizes) == 419
    assert s.dumps(carried) == (
        '{"start":{" t":[]},"k0":{" di":{" di__":[24,{" b":"YWI="}]}},'
        '"k1":{" t":[25,{" t":[1,{" b":"AA=="}]}]},'
        '"k2":[{" m":"<b>26</b>"},{" di":{" t__":26}}],'
        '"k3":{"u":{" u":"00000000000000000000000000006978"},"d":{" d":"Tue, 28 Jan 2020 03:00:00 GMT"}},'
        '"k4":[[[[[[null,{" t":[3]}],{" t":[8]}],{" t":[13]}],{" t":[18]}],{" t":[23]}],{" t":[28]}],'
        '"k5":{" di":{" di__":[29,{" b":"YWI="}]}}}'
    )
    assert isinstance(carried["k2"][0], Markup)
    assert carried["k1"] == (25, (1, b"\x00"))


@dataclasses.dataclass
class Row:
    n: int
    label: str


class Opaque:
    pass


def test_json_provider_dumps_mixed_rows_while_settings_change():
    app = Flask(__name__)
    provider = app.json
    lengths = []
    rejected = []
    decoded_total = 0
    with app.test_request_context("/json"):
        for i in range(32):
            # Settings rotate: sort_keys flips every 2 calls, ensure_ascii every
            # 4, compact cycles through None / True / False.
            provider.sort_keys = i % 4 < 2
            provider.ensure_ascii = i % 8 < 4
            provider.compact = [None, True, False][i % 3]
            kind = i % 6
            if kind == 0:
                obj = {"z": i, "a": f"é{i}", "m": [i % 2, i % 3]}
            elif kind == 1:
                obj = [datetime.date(2021, 1 + i % 12, 1 + i % 28), decimal.Decimal(f"{i}.5")]
            elif kind == 2:
                obj = {"row": Row(i, f"r{i % 4}"), "id": uuid.UUID(int=i)}
            elif kind == 3:
                obj = {"html": Markup(f"<i>{i}</i>"), "when": datetime.datetime(2000, 1, 1, i % 24, tzinfo=datetime.timezone.utc)}
            elif kind == 4:
                obj = [Opaque()] if i % 8 == 4 else [i, None, True]
            else:
                obj = {"nested": [{"k": j, "v": f"v{j}"} for j in range(i % 4)]}
            try:
                text = flask.json.dumps(obj)
            except TypeError:
                rejected.append(i)
                continue
            lengths.append(len(text))
            resp = flask.jsonify(obj) if i % 2 else provider.response(payload=obj)
            decoded = flask.json.loads(resp.get_data())
            decoded_total += len(str(decoded))
    assert rejected == [4, 28]
    assert lengths[:6] == [37, 40, 78, 61, 33, 32]
    assert sum(lengths) == 1457
    assert decoded_total == 1624
    with app.app_context():
        with pytest.raises(TypeError):
            provider.response(1, x=2)
        assert provider.response().get_data() == b"null\n"
        assert provider.response(1, 2).get_json() == [1, 2]


def test_config_namespaces_fed_back_through_from_mapping_and_from_object():
    cfg = Config("/bench-root")
    # 24 keys spread over four namespaces, plus lowercase keys that are skipped.
    for i in range(24):
        cfg.from_mapping({f"SVC{i % 4}_OPT{i}": i * 3, f"svc{i % 4}_low{i}": i}, EXTRA=i)
    assert len(cfg) == 25
    sizes = []
    for i in range(30):
        ns = [f"SVC{i % 4}_", f"R{(i + 1) % 3}_", "R0_SVC", f"SVC{i % 4}_OPT1"][i % 4]
        lowercase = i % 2 == 0
        trim = i % 3 != 0
        part = cfg.get_namespace(ns, lowercase=lowercase, trim_namespace=trim)
        sizes.append(len(part))
        # Feed the namespace back in under a new prefix; lowercase keys are
        # dropped by from_mapping, so only the upper-case results survive.
        cfg.from_mapping({f"R{i % 3}_{k}": v + i for k, v in part.items()})
        if i % 5 == 4:
            attrs = {f"OBJ{i}_{k}": v for k, v in list(part.items())[:3]}
            attrs[f"obj{i}_skip"] = 0
            cfg.from_object(types.SimpleNamespace(**attrs))
    assert sizes == [6, 0, 0, 3, 6, 3, 3, 3, 6, 3, 3, 3, 6, 6, 3, 3, 6, 6, 3, 3, 6, 6, 3, 3, 6, 9, 3, 3, 6, 9]
    assert len(cfg) == 64
    totals = {p: sum(v for k, v in cfg.items() if k.startswith(p)) for p in ("R0_", "R1_", "R2_", "OBJ")}
    assert totals == {"R0_": 732, "R1_": 894, "R2_": 1197, "OBJ": 507}
    assert cfg.get_namespace("R1_R", lowercase=False) == {"1_1": 91, "1_5": 103, "1_9": 115}
    assert cfg.get_namespace("OBJ2", trim_namespace=False) == {
        "obj29_svc3_opt11": 60,
        "obj29_svc3_opt15": 72,
        "obj29_svc3_opt19": 84,
    }
    assert sum(1 for k in cfg if k.startswith("R")) == 30


def test_from_prefixed_env_over_rounds_of_nested_keys():
    cfg = Config("/bench-root", {"DB": {"HOST": "h0"}})
    rounds = []
    for r in range(4):
        env = {}
        for i in range(12):
            j = i + r * 3
            if i % 4 == 0:
                env[f"APP_K{j % 7}"] = str(j)
            elif i % 4 == 1:
                env[f"APP_DB__PORT{j % 3}"] = f"[{j}, {j % 5}]"
            elif i % 4 == 2:
                env[f"APP_DB__OPTS__N{j % 4}"] = f"x{j}"
            else:
                env[f"ALT_V{j % 5}"] = "true" if j % 2 else f"{{bad{j}"
        env["OTHER_IGNORED"] = "1"
        # The environment holds exactly these variables while flask reads it.
        with mock.patch.dict(os.environ, env, clear=True):
            cfg.from_prefixed_env("APP")
            cfg.from_prefixed_env("ALT")
        rounds.append(len(cfg))
    assert rounds == [7, 10, 11, 12]
    assert cfg["DB"] == {
        "HOST": "h0",
        "OPTS": {"N2": "x10", "N1": "x13", "N0": "x16", "N3": "x19"},
        "PORT0": [18, 3],
        "PORT1": [10, 0],
        "PORT2": [14, 4],
    }
    assert sorted(cfg) == ["DB", "K0", "K1", "K2", "K3", "K4", "K6", "V0", "V1", "V2", "V3", "V4"]
    assert {k: cfg[k] for k in ("K0", "K4", "K6")} == {"K0": 14, "K4": 11, "K6": 13}
    assert {k: cfg[k] for k in sorted(cfg) if k.startswith("V")} == {
        "V0": "{bad20",
        "V1": "{bad16",
        "V2": "{bad12",
        "V3": True,
        "V4": True,
    }


def test_flash_messages_carried_between_thirty_request_contexts():
    app = Flask(__name__)
    app.secret_key = "bench-only"
    carried = {}
    received = []
    peeks = []
    for i in range(30):
        # The session is never saved to a cookie: its contents are copied by
        # hand from one request context into the next.
        with app.test_request_context(f"/f/{i}"):
            flask.session.update(carried)
            for j in range(i % 3 + 1):
                flask.flash(f"m{i}.{j}", f"c{(i + j) % 3}")
            if i % 4 == 3:
                # Drain: a filtered read first, then a full read of the same
                # pulled list.
                wanted = [f"c{i % 3}"]
                received.extend(flask.get_flashed_messages(category_filter=wanted))
                peeks.append(len(flask.get_flashed_messages(with_categories=True)))
            carried = dict(flask.session)
    assert received[:8] == ["m0.0", "m2.1", "m3.0", "m4.0", "m5.2", "m7.0", "m8.0", "m10.1"]
    assert len(received) == 21
    assert peeks == [7, 8, 9, 7, 8, 9, 7]
    assert carried == {
        "_flashes": [("c1", "m28.0"), ("c2", "m28.1"), ("c2", "m29.0"), ("c0", "m29.1"), ("c1", "m29.2")]
    }


def build_routes_app(with_subdomain):
    app = Flask(__name__, static_folder=None)
    verbs = ["GET", "POST", "PUT", "DELETE", "PATCH"]

    def view(**kwargs):
        return "ok"

    # The blueprint's four rules are added first, then twelve app rules.
    bp = Blueprint("zone", __name__)
    for i in range(4):
        options = {"subdomain": f"s{i % 2}"} if with_subdomain and i != 2 else {}
        bp.add_url_rule(f"/z{i}", f"z{3 - i}", view, methods=["GET", "POST"][: i % 2 + 1], **options)
    app.register_blueprint(bp, url_prefix="/zone")
    for i in range(12):
        methods = [verbs[(i + j) % 5] for j in range(i % 3 + 1)]
        rule = f"/r{(i * 5) % 12}/<int:n>" if i % 4 == 1 else f"/r{(i * 5) % 12}"
        app.add_url_rule(rule, f"ep{(i * 7) % 12:02d}", view, methods=methods)
    return app


def test_routes_command_sorts_tables_of_many_rules():
    widths = []
    first_columns = {}
    for with_subdomain in (False, True):
        app = build_routes_app(with_subdomain)
        runner = app.test_cli_runner()
        for sort in ("endpoint", "methods", "domain", "rule", "match"):
            for all_methods in (False, True):
                args = ["--sort", sort] + (["--all-methods"] if all_methods else [])
                result = runner.invoke(routes_command, args)
                assert result.exit_code == 0, result.output
                lines = result.output.splitlines()
                assert len(lines) == 18
                widths.append(len(lines[0]))
                first_columns[(with_subdomain, sort, all_methods)] = [ln.split()[0] for ln in lines[2:]]
    assert widths == [41, 56] * 5 + [52, 67] * 5
    match_order = [
        "zone.z3", "zone.z2", "zone.z1", "zone.z0",
        "ep00", "ep07", "ep02", "ep09", "ep04", "ep11", "ep06", "ep01", "ep08", "ep03", "ep10", "ep05",
    ]
    assert first_columns[(False, "match", False)] == match_order
    # Without subdomains there is no domain column to sort by.
    assert first_columns[(False, "domain", True)] == match_order
    assert first_columns[(True, "domain", False)] == [
        "zone.z1",
        "ep00", "ep07", "ep02", "ep09", "ep04", "ep11", "ep06", "ep01", "ep08", "ep03", "ep10", "ep05",
        "zone.z3", "zone.z2", "zone.z0",
    ]
    assert first_columns[(True, "rule", True)] == [
        "ep00", "ep11", "ep02", "ep01", "ep10", "ep09", "ep08", "ep07", "ep06", "ep05", "ep04", "ep03",
        "zone.z3", "zone.z2", "zone.z1", "zone.z0",
    ]
    assert first_columns[(False, "methods", False)] == [
        "ep09", "ep08", "ep02", "ep05", "ep01", "zone.z3", "zone.z1", "ep00",
        "ep04", "zone.z2", "zone.z0", "ep10", "ep11", "ep03", "ep06", "ep07",
    ]
    assert first_columns[(True, "methods", True)][:2] == ["ep08", "ep09"]
    assert first_columns[(True, "endpoint", True)] == sorted(match_order)
    empty = Flask(__name__, static_folder=None)
    assert empty.test_cli_runner().invoke(routes_command, []).output == "No routes were registered.\n"


def test_find_app_by_string_over_generated_expressions():
    apps = {f"a{i}": Flask(f"bench_app_{i}") for i in range(3)}
    calls = []

    def factory(slot, *, shift=0):
        calls.append((slot, shift))
        if slot < 0:
            raise TypeError("negative slot")  # raised inside the factory
        return apps[f"a{(slot + shift) % 3}"]

    def no_args():
        return apps["a0"]

    mod = types.ModuleType("bench_mod")
    mod.__dict__.update(apps, factory=factory, no_args=no_args, value=7)
    found = []
    failures = Counter()
    passed_through = 0
    for i in range(36):
        kind = i % 9
        if kind == 0:
            expr = f"a{i % 4}"
        elif kind == 1:
            expr = f"factory({i % 5})"
        elif kind == 2:
            expr = f"factory({i % 4}, shift={i % 3})"
        elif kind == 3:
            expr = f"factory({i}, {i})"
        elif kind == 4:
            expr = f"factory(-{i})"
        elif kind == 5:
            expr = "no_args()" if i % 2 else "no_args(1)"
        elif kind == 6:
            expr = ["value", "mod.factory(1)", "factory(x)"][i // 9 % 3]
        elif kind == 7:
            expr = f"  a{i // 9 % 3}  "
        else:
            expr = [f"factory({i}", "a0 + a1", "[a0]"][i // 9 % 3]
        try:
            found.append(find_app_by_string(mod, expr).name[-1])
        except NoAppException as e:
            failures[" ".join(str(e).split()[:2])] += 1
        except TypeError as e:
            assert str(e) == "negative slot"
            passed_through += 1
    assert "".join(found) == "01100102121202000"
    assert sorted(failures.items()) == [
        ("A valid", 2),
        ("Failed to", 6),
        ("Function reference", 1),
        ("The factory", 6),
    ]
    assert passed_through == 4
    assert calls == [
        (1, 0), (2, 2), (-4, 0), (0, 0), (3, 2), (-13, 0),
        (4, 0), (0, 2), (-22, 0), (3, 0), (1, 2), (-31, 0),
    ]
