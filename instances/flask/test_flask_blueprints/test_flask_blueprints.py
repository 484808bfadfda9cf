"""Blueprint registration, nesting and scoped hooks (flask.sansio.blueprints, flask.blueprints)."""

import flask
import pytest
from flask import Blueprint, Flask, url_for


def build():
    app = Flask(__name__)
    log = []

    api = Blueprint("api", __name__, url_prefix="/api")
    v1 = Blueprint("v1", __name__, url_prefix="/v1")
    v2 = Blueprint("v2", __name__, url_prefix="/v2")
    admin = Blueprint("admin", __name__)

    @api.before_request
    def api_before():
        log.append("api.before")

    @v1.before_request
    def v1_before():
        log.append("v1.before")

    @v1.route("/users/<int:uid>")
    def user(uid):
        return f"v1 user {uid} {url_for('.user', uid=uid + 1)} {flask.request.blueprint}"

    @v2.route("/users/<int:uid>")
    def user_v2(uid):
        return {"id": uid, "next": url_for("api.v1.user", uid=uid)}

    @v1.errorhandler(404)
    def v1_404(e):
        return "v1 not found", 404

    @api.app_errorhandler(410)
    def gone(e):
        return "gone everywhere", 410

    @v1.route("/gone")
    def v1_gone():
        flask.abort(410)

    @v1.route("/missing")
    def v1_missing():
        flask.abort(404)

    @admin.route("/dash")
    def dash():
        return f"admin at {flask.request.blueprint} {url_for('.dash')}"

    @api.app_template_filter("rev")
    def rev(s):
        return s[::-1]

    @api.context_processor
    def api_ctx():
        return {"layer": "api"}

    @api.route("/tpl")
    def tpl():
        return flask.render_template_string("{{ 'abc'|rev }} {{ layer|default('none') }}")

    @app.route("/tpl")
    def app_tpl():
        return flask.render_template_string("{{ 'xyz'|rev }} {{ layer|default('none') }}")

    api.register_blueprint(v1)
    api.register_blueprint(v2)
    app.register_blueprint(api)
    app.register_blueprint(admin, url_prefix="/admin")
    app.register_blueprint(admin, url_prefix="/staff", name="staff")
    return app, log


def test_nested_blueprint_routes_and_relative_url_for():
    app, log = build()
    client = app.test_client()
    assert client.get("/api/v1/users/3").data == b"v1 user 3 /api/v1/users/4 api.v1"
    assert client.get("/api/v2/users/8").get_json() == {"id": 8, "next": "/api/v1/users/8"}
    assert log == ["api.before", "v1.before", "api.before"]


def test_blueprint_registered_twice_with_different_names():
    app, _ = build()
    client = app.test_client()
    assert client.get("/admin/dash").data == b"admin at admin /admin/dash"
    assert client.get("/staff/dash").data == b"admin at staff /staff/dash"
    endpoints = sorted(r.endpoint for r in app.url_map.iter_rules() if r.endpoint != "static")
    assert endpoints == ["admin.dash", "api.tpl", "api.v1.user", "api.v1.v1_gone", "api.v1.v1_missing", "api.v2.user_v2", "app_tpl", "staff.dash"]


def test_blueprint_scoped_and_app_wide_error_handlers():
    app, _ = build()
    client = app.test_client()
    r = client.get("/api/v1/missing")
    assert (r.status_code, r.data) == (404, b"v1 not found")
    r = client.get("/api/v1/gone")
    assert (r.status_code, r.data) == (410, b"gone everywhere")
    r = client.get("/api/v2/nothing-here")
    assert r.status_code == 404 and r.data != b"v1 not found"


def test_blueprint_template_filters_and_context_processors():
    app, _ = build()
    client = app.test_client()
    assert client.get("/api/tpl").data == b"cba api"
    assert client.get("/tpl").data == b"zyx none"


def test_registering_same_name_twice_fails():
    app = Flask(__name__)
    bp = Blueprint("dup", __name__)

    @bp.route("/x")
    def x():
        return "x"

    with pytest.raises(ValueError) as excinfo:
        bp.register_blueprint(bp)
    assert "Cannot register a blueprint on itself" in str(excinfo.value)
    app.register_blueprint(bp)
    with pytest.raises(ValueError) as excinfo:
        app.register_blueprint(bp)
    assert "already registered" in str(excinfo.value)
    app.register_blueprint(bp, name="dup2", url_prefix="/two")
    assert app.test_client().get("/two/x").data == b"x"
    with pytest.raises(ValueError):
        Blueprint("has.dot", __name__)


def test_blueprint_setup_after_registration_is_rejected():
    app = Flask(__name__)
    bp = Blueprint("late", __name__)
    app.register_blueprint(bp)
    with pytest.raises(AssertionError):
        @bp.route("/late")
        def late():
            return "late"


def test_url_defaults_and_value_preprocessors():
    app = Flask(__name__)
    bp = Blueprint("lang", __name__, url_prefix="/<lang>")

    @bp.url_defaults
    def add_lang(endpoint, values):
        values.setdefault("lang", flask.g.get("lang", "en"))

    @bp.url_value_preprocessor
    def pull_lang(endpoint, values):
        flask.g.lang = values.pop("lang")

    @bp.route("/about")
    def about():
        return f"{flask.g.lang} {url_for('.about')} {url_for('.about', lang='fr')}"

    app.register_blueprint(bp)
    client = app.test_client()
    assert client.get("/de/about").data == b"de /de/about /fr/about"
    assert client.get("/it/about").data == b"it /it/about /fr/about"
    with app.test_request_context("/"):
        assert url_for("lang.about") == "/en/about"


def test_blueprint_options_subdomain_and_cli_group():
    app = Flask(__name__, subdomain_matching=True)
    app.config["SERVER_NAME"] = "example.test"
    bp = Blueprint("shop", __name__, subdomain="shop", cli_group="shop-cmds")

    @bp.route("/")
    def home():
        return "shop home"

    @bp.cli.command("restock")
    def restock():
        print("restocked")

    app.register_blueprint(bp)
    client = app.test_client()
    assert client.get("/", base_url="http://shop.example.test").data == b"shop home"
    assert client.get("/", base_url="http://example.test").status_code == 404
    with app.app_context():
        assert url_for("shop.home") == "http://shop.example.test/"
    result = app.test_cli_runner().invoke(args=["shop-cmds", "restock"])
    assert result.output == "restocked\n"
