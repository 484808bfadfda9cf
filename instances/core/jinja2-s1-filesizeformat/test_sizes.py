from jinja2 import Environment


def render(source, **values):
    return Environment().from_string(source).render(**values)


def test_decimal_megabytes():
    assert render("{{ 3500000|filesizeformat }}") == "3.5 MB"


def test_binary_and_small():
    assert render("{{ n|filesizeformat(true) }}", n=5 * 1024**4) == "5.0 TiB"
    assert render("{{ 1|filesizeformat }} {{ 512|filesizeformat }}") == "1 Byte 512 Bytes"
