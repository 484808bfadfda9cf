from jinja2 import Environment


def test_truncate_words():
    env = Environment()
    assert env.from_string("{{ s|truncate(9) }}").render(s="foo bar baz qux") == "foo..."
    template = env.from_string("{{ s|truncate(12, end='~', leeway=0) }}")
    assert template.render(s="alpha beta gamma delta") == "alpha beta~"
