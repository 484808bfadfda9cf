"""values.py: deterministic, bounded renderings; only default reprs lose their addresses."""

from tracegate_tracer.recording.values import render, safe_str


class Plain:
    def method(self):
        return 0


class Hexy:
    def __repr__(self):
        return "Hexy(crc=0x1F2E)"


def test_default_reprs_lose_their_address_and_nothing_else_does():
    plain = Plain()
    assert render(plain) == "<test_values.Plain object at 0x…>"
    assert render(plain.method) == "<bound method Plain.method of <test_values.Plain object at 0x…>>"
    assert render(render) == "<function render at 0x…>"
    assert render("crc=0x1F2E") == "'crc=0x1F2E'"
    assert render([Hexy(), 0x7F, "at 0xdead"]) == "[Hexy(crc=0x1F2E), 127, 'at 0xdead']"
    assert safe_str(ValueError("bad value at 0x7f")) == "bad value at 0x7f"
    assert safe_str(ValueError("bad <Plain object at 0x7f3a>")) == "bad <Plain object at 0x…>"


def test_the_tests_temporary_directory_is_written_tmp_path_wherever_the_harvest_put_it(tmp_path):
    missing = tmp_path / "absent.json"
    assert safe_str(FileNotFoundError(2, "No such file or directory", str(missing))) == (
        "[Errno 2] No such file or directory: '<tmp_path>/absent.json'")
    machine = "/tg/work/g26/tmp/pytest-of-tracegate20026/pytest-0/test_from_pyfile0/missing.py"
    assert render([machine, "/data/pytest-of-x.txt"]) == "['<tmp_path>/missing.py', '/data/pytest-of-x.txt']"


def test_sets_are_sorted_and_long_values_are_cut_and_reported():
    assert render({3, 1, 2}) == "{1, 2, 3}"
    assert render([frozenset({"b", "a"})]) == "[frozenset({'a', 'b'})]"
    cut = set()
    assert render("x" * 10, 500, cut) == "'xxxxxxxxxx'" and not cut
    long = render("x" * 600, 500, cut)
    assert len(long) == 500 and long.endswith("…") and cut == {long}
    many = render(list(range(300)), 500, cut)
    assert len(many) == 500 and many in cut
    message = safe_str(ValueError("y" * 40), 20, cut)
    assert message == "y" * 19 + "…" and message in cut
    assert render("x" * 600, 1000) == repr("x" * 600)
