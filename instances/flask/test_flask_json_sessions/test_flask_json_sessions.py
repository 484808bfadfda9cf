"""JSON provider, tagged session serializer, cookie sessions and flashing (flask.json, flask.sessions)."""

import dataclasses
import datetime
import decimal
import uuid
from collections import OrderedDict

import flask
import pytest
from flask import Flask, json
from flask.json.tag import JSONTag, TaggedJSONSerializer
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from markupsafe import Markup


class FixedClockSigner(TimestampSigner):
    """Signs with a constant timestamp so cookies do not depend on the clock."""

    def get_timestamp(self):
        return 1_700_000_000


class FixedClockSessionInterface(SecureCookieSessionInterface):
    def get_signing_serializer(self, app):
        if not app.secret_key:
            return None
        return URLSafeTimedSerializer(
            app.secret_key,
            salt=self.salt,
            serializer=self.serializer,
            signer=FixedClockSigner,
            signer_kwargs={"key_derivation": self.key_derivation, "digest_method": self.digest_method},
        )


def session_app():
    app = Flask(__name__)
    app.secret_key = "bench-secret"
    app.session_interface = FixedClockSessionInterface()

    @app.route("/add/<item>")
    def add(item):
        cart = flask.session.setdefault("cart", [])
        cart.append(item)
        flask.session.modified = True
        return str(len(cart))

    @app.route("/show")
    def show():
        return ",".join(flask.session.get("cart", []))

    @app.route("/clear")
    def clear():
        flask.session.clear()
        return "cleared"

    @app.route("/flash/<cat>/<msg>")
    def do_flash(cat, msg):
        flask.flash(msg, cat)
        return "flashed"

    @app.route("/messages")
    def messages():
        return json.dumps(flask.get_flashed_messages(with_categories=True))

    @app.route("/errors-only")
    def errors_only():
        return "|".join(flask.get_flashed_messages(category_filter=["error", "fatal"]))

    return app


@dataclasses.dataclass
class Point:
    x: int
    y: int


def test_default_provider_serializes_extra_types():
    app = Flask(__name__)
    with app.app_context():
        out = json.dumps(
            {
                "when": datetime.datetime(2015, 10, 21, 7, 28, tzinfo=datetime.timezone.utc),
                "day": datetime.date(2020, 2, 29),
                "price": decimal.Decimal("9.99"),
                "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
                "pt": Point(1, 2),
                "html": Markup("<b>x</b>"),
            }
        )
    assert json.loads(out) == {
        "day": "Sat, 29 Feb 2020 00:00:00 GMT",
        "html": "<b>x</b>",
        "id": "12345678-1234-5678-1234-567812345678",
        "price": "9.99",
        "pt": {"x": 1, "y": 2},
        "when": "Wed, 21 Oct 2015 07:28:00 GMT",
    }
    with pytest.raises(TypeError):
        with app.app_context():
            json.dumps({"bad": object()})


def test_sort_keys_ensure_ascii_and_compact_settings():
    app = Flask(__name__)
    with app.app_context():
        assert json.dumps({"b": 1, "a": "é"}) == '{"a": "\\u00e9", "b": 1}'
        app.json.sort_keys = False
        app.json.ensure_ascii = False
        assert json.dumps({"b": 1, "a": "é"}) == '{"b": 1, "a": "é"}'
    with app.test_request_context():
        app.json.compact = True
        assert flask.jsonify({"b": [1, 2], "a": 1}).get_data(as_text=True) == '{"b":[1,2],"a":1}\n'
        app.json.sort_keys = True
        assert flask.jsonify({"b": [1, 2], "a": 1}).get_data(as_text=True) == '{"a":1,"b":[1,2]}\n'
        app.json.compact = False
        assert flask.jsonify([1]).get_data(as_text=True) == "[\n  1\n]\n"


def test_jsonify_argument_forms():
    app = Flask(__name__)
    with app.test_request_context():
        assert flask.jsonify().get_json() is None
        assert flask.jsonify(1, 2, 3).get_json() == [1, 2, 3]
        assert flask.jsonify("only").get_json() == "only"
        assert flask.jsonify(x=1).get_json() == {"x": 1}
        with pytest.raises(TypeError):
            flask.jsonify(1, x=2)


def test_request_json_parsing_errors():
    app = Flask(__name__)

    @app.post("/echo")
    def echo():
        data = flask.request.get_json(silent=flask.request.args.get("silent") == "1")
        return {"got": data}

    client = app.test_client()
    assert client.post("/echo", json={"a": [1, 2]}).get_json() == {"got": {"a": [1, 2]}}
    bad = client.post("/echo", data="{not json", content_type="application/json")
    assert bad.status_code == 400
    silent = client.post("/echo?silent=1", data="{not json", content_type="application/json")
    assert silent.get_json() == {"got": None}
    assert client.post("/echo", data="x=1").status_code == 415


def test_tagged_serializer_round_trips_nested_values():
    s = TaggedJSONSerializer()
    value = {
        "t": (1, 2, (3, b"\x00\xff")),
        "m": Markup("<i>safe</i>"),
        "u": uuid.UUID(int=5),
        "d": datetime.datetime(2001, 2, 3, 4, 5, 6, tzinfo=datetime.timezone.utc),
        "list": [{" t": "looks tagged"}, b"bytes"],
    }
    dumped = s.dumps(value)
    assert s.loads(dumped) == value
    assert s.tag((1, 2)) == {" t": [1, 2]}
    assert s.tag({" t": 1}) == {" di": {" t__": 1}}
    assert s.loads(s.dumps({" t": 1})) == {" t": 1}
    assert s.tag(b"ab") == {" b": "YWI="}
    assert s.tag([1, (2,)]) == [1, {" t": [2]}]


def test_tagged_serializer_custom_tag_and_duplicate_key():
    class TagOrderedDict(JSONTag):
        __slots__ = ()
        key = " od"

        def check(self, value):
            return isinstance(value, OrderedDict)

        def to_json(self, value):
            return [[k, self.serializer.tag(v)] for k, v in value.items()]

        def to_python(self, value):
            return OrderedDict(value)

    s = TaggedJSONSerializer()
    s.register(TagOrderedDict, index=0)
    od = OrderedDict([("z", 1), ("a", (2, 3))])
    assert s.loads(s.dumps(od)) == OrderedDict([("z", 1), ("a", (2, 3))])
    assert list(s.loads(s.dumps(od)).keys()) == ["z", "a"]
    with pytest.raises(KeyError):
        s.register(TagOrderedDict)
    s.register(TagOrderedDict, force=True)
    assert s.tag(OrderedDict(b=1)) == {" od": [["b", 1]]}


def test_cookie_session_accumulates_and_clears():
    client = session_app().test_client()
    assert [client.get(f"/add/{x}").data for x in ["apple", "pear", "fig"]] == [b"1", b"2", b"3"]
    assert client.get("/show").data == b"apple,pear,fig"
    resp = client.get("/clear")
    assert "session=;" in resp.headers["Set-Cookie"]
    assert client.get("/show").data == b""


def test_tampered_or_foreign_session_cookie_is_ignored():
    app = session_app()
    client = app.test_client()
    client.get("/add/one")
    client.set_cookie("session", "tampered.value.sig")
    assert client.get("/show").data == b""

    other = session_app()
    other.secret_key = "different"
    other_client = other.test_client()
    other_client.get("/add/two")
    cookie = other_client.get_cookie("session").value
    client.set_cookie("session", cookie)
    assert client.get("/show").data == b""

    with app.test_request_context():
        assert FixedClockSessionInterface().get_signing_serializer(app).loads(
            FixedClockSessionInterface().get_signing_serializer(app).dumps({"k": (1, 2)})
        ) == {"k": (1, 2)}


def test_flash_messages_with_categories_and_filters():
    client = session_app().test_client()
    for cat, msg in [("info", "hello"), ("error", "bad"), ("warning", "hmm"), ("fatal", "dead")]:
        assert client.get(f"/flash/{cat}/{msg}").data == b"flashed"
    assert client.get("/errors-only").data == b"bad|dead"
    assert client.get("/messages").data == b"[]"
    client.get("/flash/info/again")
    assert json.loads(client.get("/messages").data) == [["info", "again"]]


def test_session_without_secret_key_is_null_session():
    app = Flask(__name__)

    @app.route("/set")
    def set_value():
        flask.session["x"] = 1
        return "never"

    @app.route("/read")
    def read():
        return str(flask.session.get("x"))

    client = app.test_client()
    assert client.get("/read").data == b"None"
    app.testing = True
    with pytest.raises(RuntimeError) as excinfo:
        client.get("/set")
    assert "secret key" in str(excinfo.value)
