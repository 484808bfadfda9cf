"""On 3.12+, where both backends exist: settrace and sys.monitoring write
byte-identical traces (apart from the backend's name and paths), the same
answers and the same context (the prompt's slice included) for every catalog
program."""

import json
import sys

import pytest

from conftest import run_catalog

pytestmark = pytest.mark.skipif(sys.version_info < (3, 12), reason="sys.monitoring needs Python 3.12+")


def _trace_bytes(work, result):
    trace = json.loads((work / f"g{result['stats']['group']}" / result["stats"]["trace"]).read_text())
    assert trace["status"] == "ok", trace["reason"]
    trace.pop("backend")
    trace.pop("target_path")
    for record in trace["executed"]:
        record.pop("path")
    for record in trace["invocations"]:
        record.pop("path")  # the catalog's two copies live in different directories
    return json.dumps(trace, sort_keys=True).encode()


def test_settrace_and_monitoring_agree_on_every_program(tmp_path_factory):
    settrace, st_out = run_catalog(tmp_path_factory, "settrace")
    monitoring, mon_out = run_catalog(tmp_path_factory, "monitoring")
    assert settrace.keys() == monitoring.keys()
    compared, differing = 0, []
    for ident in sorted(settrace):
        a, b = settrace[ident], monitoring[ident]
        assert (a["status"], a.get("answer"), a.get("reason")) == (b["status"], b.get("answer"), b.get("reason")), ident
        assert a.get("context") == b.get("context"), ident  # incl. the prompt's slice
        if a["status"] == "ok":
            if _trace_bytes(st_out, a) != _trace_bytes(mon_out, b):
                differing.append(ident)
            compared += 1
    assert not differing, f"traces differ: {differing}"
    assert compared >= 80
