"""Response conversion, request hooks and error handling (flask.app.Flask.make_response etc.)."""

import flask
import pytest
from flask import Flask, abort, jsonify, make_response
from werkzeug.exceptions import HTTPException, InternalServerError, NotFound


def make_app():
    app = Flask(__name__)

    @app.route("/str")
    def as_str():
        return "plain"

    @app.route("/bytes")
    def as_bytes():
        return b"raw-bytes"

    @app.route("/dict")
    def as_dict():
        return {"b": 2, "a": [1, 2]}

    @app.route("/list")
    def as_list():
        return [1, "two", None]

    @app.route("/tuple-status")
    def tuple_status():
        return "created", 201

    @app.route("/tuple-headers")
    def tuple_headers():
        return "hdrs", {"X-One": "1", "X-Two": "2"}

    @app.route("/tuple-full")
    def tuple_full():
        return {"ok": True}, 202, [("X-Full", "yes")]

    @app.route("/gen")
    def gen():
        def stream():
            for i in range(4):
                yield f"chunk{i};"

        return stream()

    @app.route("/none")
    def none():
        return None

    @app.route("/bad-tuple")
    def bad_tuple():
        return "a", 200, {}, "extra"

    @app.route("/resp")
    def resp():
        r = make_response("made", 418)
        r.set_cookie("flavor", "oat", max_age=60)
        return r

    return app


def test_string_bytes_dict_and_list_conversion():
    client = make_app().test_client()
    r = client.get("/str")
    assert (r.status_code, r.mimetype, r.data) == (200, "text/html", b"plain")
    assert client.get("/bytes").data == b"raw-bytes"
    r = client.get("/dict")
    assert r.mimetype == "application/json"
    assert r.get_json() == {"a": [1, 2], "b": 2}
    assert client.get("/list").get_json() == [1, "two", None]


def test_tuple_return_values():
    client = make_app().test_client()
    r = client.get("/tuple-status")
    assert (r.status_code, r.data) == (201, b"created")
    r = client.get("/tuple-headers")
    assert r.status_code == 200
    assert (r.headers["X-One"], r.headers["X-Two"]) == ("1", "2")
    r = client.get("/tuple-full")
    assert r.status_code == 202 and r.headers["X-Full"] == "yes" and r.get_json() == {"ok": True}
    r = client.get("/resp")
    assert r.status_code == 418
    assert "flavor=oat" in r.headers["Set-Cookie"]


def test_streamed_generator_response():
    app = make_app()
    r = app.test_client().get("/gen")
    assert r.data == b"chunk0;chunk1;chunk2;chunk3;"
    with app.test_request_context():
        made = app.make_response((f"{i}" for i in range(3)))
        assert made.is_streamed
        assert made.get_data() == b"012"


def test_invalid_return_values_raise_type_error():
    app = make_app()
    app.testing = True
    client = app.test_client()
    with pytest.raises(TypeError) as excinfo:
        client.get("/none")
    assert "did not return a valid response" in str(excinfo.value)
    with pytest.raises(TypeError) as excinfo:
        client.get("/bad-tuple")
    assert "tuple must have the form" in str(excinfo.value)
    with app.test_request_context():
        with pytest.raises(TypeError):
            app.make_response(3.14)


def test_before_after_and_teardown_hooks_order():
    app = Flask(__name__)
    log = []

    @app.before_request
    def first():
        log.append("before1")

    @app.before_request
    def second():
        log.append("before2")
        if flask.request.args.get("short"):
            return "short-circuit"

    @app.after_request
    def after_a(response):
        log.append("afterA")
        response.headers["X-A"] = "1"
        return response

    @app.after_request
    def after_b(response):
        log.append("afterB")
        return response

    @app.teardown_request
    def teardown(exc):
        log.append(f"teardown:{exc is None}")

    @app.route("/")
    def index():
        log.append("view")
        flask.after_this_request(lambda r: (log.append("this"), r)[1])
        return "ok"

    client = app.test_client()
    r = client.get("/")
    assert r.data == b"ok" and r.headers["X-A"] == "1"
    assert log == ["before1", "before2", "view", "this", "afterB", "afterA", "teardown:True"]
    log.clear()
    assert client.get("/?short=1").data == b"short-circuit"
    assert log == ["before1", "before2", "afterB", "afterA", "teardown:True"]


def test_abort_and_http_error_handlers():
    app = Flask(__name__)

    @app.errorhandler(404)
    def not_found(e):
        return f"custom 404: {e.description}", 404

    @app.errorhandler(HTTPException)
    def any_http(e):
        return jsonify(code=e.code, name=e.name), e.code

    @app.route("/missing")
    def missing():
        abort(404, description="no such thing")

    @app.route("/forbidden")
    def forbidden():
        abort(403)

    @app.route("/teapot")
    def teapot():
        abort(make_response("short and stout", 418))

    client = app.test_client()
    assert client.get("/missing").data == b"custom 404: no such thing"
    assert client.get("/unrouted").status_code == 404
    r = client.get("/forbidden")
    assert r.status_code == 403 and r.get_json() == {"code": 403, "name": "Forbidden"}
    r = client.get("/teapot")
    assert (r.status_code, r.data) == (418, b"short and stout")
    r = client.post("/missing")
    assert r.status_code == 405 and r.get_json()["name"] == "Method Not Allowed"


def test_exception_class_hierarchy_resolution():
    class AppError(Exception):
        pass

    class DetailedError(AppError):
        pass

    class Unhandled(Exception):
        pass

    app = Flask(__name__)

    @app.errorhandler(AppError)
    def app_error(e):
        return f"app:{type(e).__name__}", 400

    @app.errorhandler(DetailedError)
    def detailed(e):
        return f"detail:{e}", 409

    @app.errorhandler(500)
    def server_error(e):
        assert isinstance(e, InternalServerError)
        return f"500:{type(e.original_exception).__name__}", 500

    @app.route("/<kind>")
    def boom(kind):
        if kind == "app":
            raise AppError()
        if kind == "detail":
            raise DetailedError("x")
        raise Unhandled()

    client = app.test_client()
    assert client.get("/app").data == b"app:AppError"
    r = client.get("/detail")
    assert (r.status_code, r.data) == (409, b"detail:x")
    r = client.get("/other")
    assert (r.status_code, r.data) == (500, b"500:Unhandled")


def test_register_error_handler_rejects_bad_codes_and_propagation():
    app = Flask(__name__)
    with pytest.raises(ValueError):
        app.register_error_handler(999, lambda e: "x")
    with pytest.raises(TypeError):
        app.register_error_handler(NotFound(), lambda e: "x")

    @app.route("/fail")
    def fail():
        raise KeyError("k")

    app.testing = True
    with pytest.raises(KeyError):
        app.test_client().get("/fail")


def test_render_template_string_with_context_processors():
    app = Flask(__name__)

    @app.context_processor
    def inject():
        return {"site": "Bench"}

    @app.template_filter("shout")
    def shout(s):
        return s.upper() + "!"

    @app.template_global("double")
    def double(n):
        return n * 2

    with app.test_request_context("/page?x=1"):
        out = flask.render_template_string(
            "{{ site }} {{ name|shout }} {{ double(21) }} {{ request.path }} {{ request.args.x }} {{ '<b>' }}",
            name="hi",
        )
    assert out == "Bench HI! 42 /page 1 &lt;b&gt;"
    with app.app_context():
        stream = flask.stream_template_string("{% for i in range(n) %}{{ i }}{% endfor %}", n=3)
        assert "".join(stream) == "012"
