"""Workloads of jinja2 at three sizes (about 30x apart), for the measured kinds (W2 peak memory, W3 wall
time): each test keeps what it built until it ends, so both its time and its peak grow with the size."""

from jinja2 import Environment

ENV = Environment()
ROWS = ENV.from_string("{% for x in items %}{{ x.name|upper }}:{{ loop.index }}\n{% endfor %}")
NESTED = ENV.from_string("{% for r in rows %}<tr>{% for c in r %}<td>{{ c }}</td>{% endfor %}</tr>{% endfor %}")


def _rows(n):
    out = ROWS.render(items=[{"name": f"n{i}"} for i in range(n)])
    assert out.count("\n") == n


def _nested(n):
    out = NESTED.render(rows=[[i, i * 2, i * 3] for i in range(n)])
    assert out.count("<tr>") == n


def test_rows_small():
    _rows(100)


def test_rows_medium():
    _rows(3_000)


def test_rows_large():
    _rows(90_000)


def test_nested_small():
    _nested(100)


def test_nested_medium():
    _nested(3_000)


def test_nested_large():
    _nested(90_000)
