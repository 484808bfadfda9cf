import pytest
from jinja2 import Environment, UndefinedError


def test_strict_math():
    template = Environment().from_string("{{ total + 1 }}")
    with pytest.raises(UndefinedError):
        template.render(totals=3)
