"""URL routing, url_for building and class-based views (flask.app, flask.sansio.scaffold, flask.views)."""

import flask
import pytest
from flask import Flask, url_for
from flask.views import MethodView, View
from werkzeug.routing import BaseConverter, BuildError


class ListConverter(BaseConverter):
    def to_python(self, value):
        return value.split("+")

    def to_url(self, value):
        return "+".join(super(ListConverter, self).to_url(v) for v in value)


def make_app():
    app = Flask(__name__)
    app.url_map.converters["list"] = ListConverter

    @app.route("/")
    def index():
        return "index"

    @app.route("/user/<int:uid>")
    def user(uid):
        return f"user {uid * 2}"

    @app.route("/files/<path:sub>")
    def files(sub):
        return "|".join(sub.split("/"))

    @app.route("/tags/<list:tags>")
    def tags(tags):
        return ",".join(reversed(tags))

    @app.route("/items", methods=["GET", "POST"])
    def items():
        return f"{flask.request.method} items"

    @app.get("/only-get")
    def only_get():
        return "g"

    @app.route("/old")
    def old():
        return flask.redirect(url_for("user", uid=7))

    def page(n):
        return "page" if n == 1 else f"page {n}"

    app.add_url_rule("/page/", "page", page, defaults={"n": 1})
    app.add_url_rule("/page/<int:n>", "page", page)
    return app


def test_basic_dispatch_and_converters():
    client = make_app().test_client()
    assert client.get("/").data == b"index"
    assert client.get("/user/21").data == b"user 42"
    assert client.get("/files/a/b/c.txt").data == b"a|b|c.txt"
    assert client.get("/tags/x+y+z").data == b"z,y,x"
    assert client.get("/page/").data == b"page"
    assert client.get("/page/4").data == b"page 4"


def test_not_found_and_method_not_allowed():
    client = make_app().test_client()
    assert client.get("/user/abc").status_code == 404
    assert client.get("/nope").status_code == 404
    resp = client.post("/only-get")
    assert resp.status_code == 405
    assert sorted(resp.headers["Allow"].split(", ")) == ["GET", "HEAD", "OPTIONS"]
    assert client.post("/items").data == b"POST items"
    assert client.head("/items").data == b""


def test_automatic_options_and_strict_slashes_redirect():
    client = make_app().test_client()
    resp = client.options("/items")
    assert resp.status_code == 200
    assert sorted(resp.headers["Allow"].split(", ")) == ["GET", "HEAD", "OPTIONS", "POST"]
    resp = client.get("/page")
    assert resp.status_code == 308
    assert resp.headers["Location"].endswith("/page/")
    resp = client.get("/old")
    assert resp.status_code == 302
    assert resp.headers["Location"] == "/user/7"


def test_url_for_variants():
    app = make_app()
    with app.test_request_context("/", base_url="http://example.com/app"):
        assert url_for("index") == "/app/"
        assert url_for("user", uid=3) == "/app/user/3"
        assert url_for("user", uid=3, q="x y", page=2) == "/app/user/3?q=x+y&page=2"
        assert url_for("files", sub="a/b") == "/app/files/a/b"
        assert url_for("tags", tags=["p", "q"]) == "/app/tags/p+q"
        assert url_for("index", _external=True) == "http://example.com/app/"
        assert url_for("index", _anchor="top x") == "/app/#top%20x"
        assert url_for("page") == "/app/page/"
        assert url_for("page", n=9) == "/app/page/9"
        assert url_for("static", filename="css/site.css") == "/app/static/css/site.css"


def test_url_for_errors_and_build_error_handler():
    app = make_app()
    with app.test_request_context("/"):
        with pytest.raises(BuildError):
            url_for("missing_endpoint")
        with pytest.raises(BuildError):
            url_for("user")

    def fallback(error, endpoint, values):
        if endpoint == "legacy":
            return "/legacy-fallback"
        raise error

    app.url_build_error_handlers.append(fallback)
    with app.test_request_context("/"):
        assert url_for("legacy") == "/legacy-fallback"
        with pytest.raises(BuildError):
            url_for("other_missing")


def test_url_for_outside_request_uses_server_name():
    app = make_app()
    app.config.update(SERVER_NAME="srv.test", APPLICATION_ROOT="/root", PREFERRED_URL_SCHEME="https")
    with app.app_context():
        assert url_for("user", uid=5) == "https://srv.test/root/user/5"
        assert url_for("index", _scheme="http", _external=True) == "http://srv.test/root/"
    with pytest.raises(RuntimeError):
        url_for("index")


def test_duplicate_endpoint_and_view_function_registration():
    app = Flask(__name__)

    @app.route("/a")
    def same():
        return "a"

    with pytest.raises(AssertionError) as excinfo:
        @app.route("/b", endpoint="same")
        def other():
            return "b"
    assert "overwriting an existing endpoint function: same" in str(excinfo.value)

    app.add_url_rule("/c", view_func=same)
    client = app.test_client()
    assert client.get("/c").data == b"a"
    # the rule for /b was added before the endpoint clash was detected
    assert sorted(r.rule for r in app.url_map.iter_rules() if r.endpoint == "same") == ["/a", "/b", "/c"]


def test_method_view_dispatch():
    class Counter(MethodView):
        init_every_request = False
        store = {"count": 0}

        def get(self):
            return {"count": self.store["count"]}

        def post(self):
            amount = flask.request.get_json()["by"]
            for _ in range(amount):
                self.store["count"] += 1
            return {"count": self.store["count"]}, 201

        def delete(self):
            self.store["count"] = 0
            return "", 204

    app = Flask(__name__)
    app.add_url_rule("/counter", view_func=Counter.as_view("counter"))
    client = app.test_client()
    assert client.get("/counter").get_json() == {"count": 0}
    resp = client.post("/counter", json={"by": 3})
    assert resp.status_code == 201 and resp.get_json() == {"count": 3}
    assert client.post("/counter", json={"by": 2}).get_json() == {"count": 5}
    assert client.put("/counter").status_code == 405
    assert client.delete("/counter").status_code == 204
    assert client.get("/counter").get_json() == {"count": 0}
    assert sorted(Counter.methods) == ["DELETE", "GET", "POST"]


def test_generic_view_with_decorators_and_init_args():
    calls = []

    def tag(fn):
        def wrapper(*args, **kwargs):
            calls.append(fn.__name__)
            return fn(*args, **kwargs)

        return wrapper

    class Greeting(View):
        methods = ["GET"]
        decorators = [tag]

        def __init__(self, word):
            self.word = word

        def dispatch_request(self, name):
            return f"{self.word}, {name}!"

    app = Flask(__name__)
    app.add_url_rule("/hi/<name>", view_func=Greeting.as_view("hi", "Hello"))
    app.add_url_rule("/yo/<name>", view_func=Greeting.as_view("yo", "Yo"))
    client = app.test_client()
    assert client.get("/hi/ann").data == b"Hello, ann!"
    assert client.get("/yo/bob").data == b"Yo, bob!"
    assert calls == ["hi", "yo"]
