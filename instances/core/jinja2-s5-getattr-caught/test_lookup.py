from jinja2 import Environment


def test_attribute_lookup():
    template = Environment().from_string("{{ user.name }}|{{ user.age }}|{{ count.real }}|{{ count.size }}")
    assert template.render(user={"name": "Ann"}, count=7) == "Ann||7|"
