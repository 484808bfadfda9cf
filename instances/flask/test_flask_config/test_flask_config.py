"""Configuration loading and application/request contexts (flask.config, flask.ctx)."""

import json
import tomllib

import flask
import pytest
from flask import Flask
from flask.config import Config


class BaseSettings:
    DEBUG = False
    DATABASE_URI = "sqlite://"
    lowercase_ignored = "nope"
    _PRIVATE = 1


class ProdSettings(BaseSettings):
    DATABASE_URI = "postgres://db"
    WORKERS = 8


def test_from_object_takes_only_uppercase_and_inherits():
    cfg = Config("/nonexistent-root")
    cfg.from_object(ProdSettings)
    assert cfg["DATABASE_URI"] == "postgres://db"
    assert cfg["WORKERS"] == 8
    assert cfg["DEBUG"] is False
    assert "lowercase_ignored" not in cfg
    assert "_PRIVATE" in cfg
    cfg.from_object("json.decoder:JSONDecodeError")
    assert "JSONDecodeError" not in cfg


def test_from_mapping_and_kwargs_filter_lowercase():
    cfg = Config("/root")
    assert cfg.from_mapping({"A": 1, "b": 2}, C=3, d=4) is True
    assert sorted(cfg) == ["A", "C"]
    cfg.from_mapping([("E", 5)])
    assert cfg["E"] == 5


def test_get_namespace_variants():
    cfg = Config("/root")
    cfg.from_mapping(
        IMAGE_STORE_TYPE="fs",
        IMAGE_STORE_PATH="/var/img",
        IMAGE_STORE_BASE_URL="http://img",
        IMAGE_OTHER="x",
        CACHE_TYPE="null",
    )
    assert cfg.get_namespace("IMAGE_STORE_") == {"type": "fs", "path": "/var/img", "base_url": "http://img"}
    assert cfg.get_namespace("IMAGE_STORE_", lowercase=False) == {
        "TYPE": "fs",
        "PATH": "/var/img",
        "BASE_URL": "http://img",
    }
    assert cfg.get_namespace("IMAGE_", trim_namespace=False) == {
        "image_store_type": "fs",
        "image_store_path": "/var/img",
        "image_store_base_url": "http://img",
        "image_other": "x",
    }
    assert cfg.get_namespace("MISSING_") == {}


def test_from_file_json_and_toml(tmp_path):
    (tmp_path / "c.json").write_text(json.dumps({"SECRET": "s", "PORT": 5000, "lower": 1}))
    (tmp_path / "c.toml").write_text('TITLE = "bench"\nLIMITS = [1, 2, 3]\n')
    cfg = Config(str(tmp_path))
    assert cfg.from_file("c.json", load=json.load) is True
    assert cfg.from_file("c.toml", load=tomllib.load, text=False) is True
    assert (cfg["SECRET"], cfg["PORT"], cfg["TITLE"], cfg["LIMITS"]) == ("s", 5000, "bench", [1, 2, 3])
    assert "lower" not in cfg
    assert cfg.from_file("absent.json", load=json.load, silent=True) is False
    with pytest.raises(FileNotFoundError):
        cfg.from_file("absent.json", load=json.load)


def test_from_pyfile_and_errors(tmp_path):
    (tmp_path / "settings.py").write_text("A = 1\nB = A + 1\nitems = [A, B]\nLIST = [i * 10 for i in range(3)]\n")
    (tmp_path / "broken.py").write_text("X = 1 / 0\n")
    cfg = Config(str(tmp_path))
    assert cfg.from_pyfile("settings.py") is True
    assert (cfg["A"], cfg["B"], cfg["LIST"]) == (1, 2, [0, 10, 20])
    assert "items" not in cfg
    assert cfg.from_pyfile("missing.py", silent=True) is False
    with pytest.raises(OSError) as excinfo:
        cfg.from_pyfile("missing.py")
    assert "Unable to load configuration file" in str(excinfo.value)
    with pytest.raises(ZeroDivisionError):
        cfg.from_pyfile("broken.py")


def test_from_envvar_with_explicit_variable(tmp_path, monkeypatch):
    (tmp_path / "env_cfg.py").write_text("FROM_ENV = 'yes'\n")
    cfg = Config(str(tmp_path))
    monkeypatch.delenv("BENCH_FLASK_SETTINGS_UNSET", raising=False)
    assert cfg.from_envvar("BENCH_FLASK_SETTINGS_UNSET", silent=True) is False
    with pytest.raises(RuntimeError):
        cfg.from_envvar("BENCH_FLASK_SETTINGS_UNSET")
    monkeypatch.setenv("BENCH_FLASK_SETTINGS_FILE", str(tmp_path / "env_cfg.py"))
    assert cfg.from_envvar("BENCH_FLASK_SETTINGS_FILE") is True
    assert cfg["FROM_ENV"] == "yes"


def test_config_attributes_on_app():
    app = Flask(__name__)
    assert app.testing is False and app.config["TESTING"] is False
    app.testing = True
    assert app.config["TESTING"] is True
    app.config["SECRET_KEY"] = "k"
    assert app.secret_key == "k"
    app.config["PERMANENT_SESSION_LIFETIME"] = 90
    assert app.permanent_session_lifetime.total_seconds() == 90
    assert app.config["MAX_CONTENT_LENGTH"] is None
    assert repr(Config("/r", {"X": 1})).startswith("<Config {'X': 1}")


def test_app_context_globals_and_teardown_order():
    app = Flask(__name__)
    events = []

    @app.teardown_appcontext
    def td(exc):
        events.append(("teardown", flask.g.get("value")))

    with app.app_context():
        flask.g.value = 1
        assert flask.current_app._get_current_object() is app
        with app.app_context():
            assert "value" not in flask.g
            flask.g.value = 2
        assert flask.g.value == 1
        assert flask.g.pop("value") == 1
        assert flask.g.pop("value", "dflt") == "dflt"
        assert flask.g.setdefault("value", 5) == 5
    assert events == [("teardown", 2), ("teardown", 5)]
    with pytest.raises(RuntimeError):
        flask.g.value


def test_request_context_copy_and_has_request_context():
    app = Flask(__name__)
    assert not flask.has_request_context()
    with app.test_request_context("/path?a=1&a=2&b=3", method="POST", data={"f": "v"}):
        assert flask.has_request_context() and flask.has_app_context()
        assert flask.request.args.getlist("a") == ["1", "2"]
        assert flask.request.form["f"] == "v"
        assert flask.request.path == "/path"

        @flask.copy_current_request_context
        def later():
            return flask.request.args["b"]

    assert later() == "3"
    with pytest.raises(RuntimeError):
        flask.request.args
