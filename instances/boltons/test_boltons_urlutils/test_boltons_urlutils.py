"""Tests for boltons.urlutils.URL parsing, navigation and query handling."""

import pytest

from boltons.urlutils import URL, URLParseError, find_all_links, parse_host, parse_qsl


def test_parse_components():
    url = URL("https://user:pw@example.com:8080/a/b/c?x=1&y=2&x=3#frag")
    assert url.scheme == "https"
    assert url.username == "user"
    assert url.password == "pw"
    assert url.host == "example.com"
    assert url.port == 8080
    assert url.path_parts == ("", "a", "b", "c")
    assert url.fragment == "frag"
    assert url.query_params.getlist("x") == ["1", "3"]


def test_default_port_and_to_text():
    url = URL("http://example.com:80/path")
    assert url.port == 80
    assert url.uses_netloc
    assert url.to_text() == "http://example.com/path"
    assert URL("http://example.com:81/p").to_text() == "http://example.com:81/p"
    assert URL("mailto:someone@example.com").to_text() == "mailto:someone@example.com"


def test_navigate_relative_paths():
    base = URL("http://example.com/a/b/c")
    assert base.navigate("d").to_text() == "http://example.com/a/b/d"
    assert base.navigate("../d").to_text() == "http://example.com/a/d"
    assert base.navigate("/x/y").to_text() == "http://example.com/x/y"
    assert base.navigate("./e/./f/../g").to_text() == "http://example.com/a/b/e/g"
    assert base.navigate("//other.org/z").to_text() == "http://other.org/z"


def test_normalize():
    url = URL("HTTP://Example.COM/a/./b/../c/%7Efoo")
    url.normalize()
    assert url.to_text() == "http://example.com/a/c/~foo"


def test_query_params_mutation():
    url = URL("http://example.com/search?q=cats")
    url.query_params["page"] = "2"
    url.query_params.add("q", "dogs")
    assert url.to_text() == "http://example.com/search?q=cats&page=2&q=dogs"
    del url.query_params["q"]
    assert url.to_text() == "http://example.com/search?page=2"


def test_parse_qsl_and_parse_host():
    assert parse_qsl("a=1&b=&c&a=2") == [("a", "1"), ("b", None), ("c", None), ("a", "2")]
    assert parse_qsl("a=1&b=&c&a=2", keep_blank_values=False) == [("a", "1"), ("a", "2")]
    import socket

    assert parse_host("example.com") == (None, "example.com")
    assert parse_host("[::1]") == (socket.AF_INET6, "::1")
    assert parse_host("127.0.0.1") == (socket.AF_INET, "127.0.0.1")


def test_unicode_and_quoting():
    url = URL("http://example.com/caf\u00e9?q=\u00fcber")
    assert url.to_text(full_quote=True) == "http://example.com/caf%C3%A9?q=%C3%BCber"
    assert url.path == "/caf\u00e9"
    encoded = URL("http://example.com/a%20b")
    assert encoded.path_parts == ("", "a b")


def test_find_all_links():
    text = "see example.com and https://boltons.readthedocs.io/en/latest/ or ftp://x.org"
    links = find_all_links(text)
    # bare hostnames without a scheme are not picked up
    assert [u.host for u in links] == ["boltons.readthedocs.io", "x.org"]
    with_text = find_all_links("go to http://a.b/c now", with_text=True)
    assert with_text[0] == "go to "
    assert with_text[1].to_text() == "http://a.b/c"
    assert with_text[2] == " now"


def test_invalid_urls():
    with pytest.raises(URLParseError):
        URL("http://example.com:notaport/")
    with pytest.raises(URLParseError):
        URL("http://[::1/")
    with pytest.raises(URLParseError, match="invalid IPv6 host"):
        URL("http://[zz::1]/")
    with pytest.raises(URLParseError, match="expected integer for port"):
        URL("http://a:b:c/")
