"""Every catalog program's answers, under every backend this interpreter has."""

import pytest

from catalog import PROGRAMS, Invalid
from conftest import BACKENDS, run_catalog

CASES = [("{}-{}".format(prog["name"], case[0]), case[4]) for prog in PROGRAMS for case in prog["cases"]]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("ident,expected", CASES, ids=[c[0] for c in CASES])
def test_answer_known_by_construction(tmp_path_factory, backend, ident, expected):
    results, _out = run_catalog(tmp_path_factory, backend)
    result = results[ident]
    if isinstance(expected, Invalid):
        assert result["status"] == "invalid", result
        assert expected.reason in result["reason"], result["reason"]
        return
    assert result["status"] == "ok", result.get("reason")
    assert result["answer"] == expected
    assert result["stats"]["backend"] == backend


def test_catalog_covers_every_kind_three_times():
    from collections import Counter

    from tracegate_tracer.queries import RULES

    counts = Counter(case[1] for prog in PROGRAMS for case in prog["cases"] if not isinstance(case[4], Invalid))
    # World-model kinds: test_world.py; B1/B2 (their replies are run, not traced): test_comet.py.
    assert set(counts) == {kind for kind in RULES if kind[0] not in "WB"}
    assert min(counts.values()) >= 3 and len(PROGRAMS) >= 28
