"""The search for a variant (`variant_search`): every candidate of an epoch's pool in one traced run.

variant.py writes, beside each test file, an unchanged copy; where each target
is called from (the pool's targeted edits aim there) comes from the original's
run in the same plan (sites.py), else from a scout run of that copy;
then one copy per candidate of the pool, which runs only the tests its edit can
change (variant.touched); one pytest process runs them all (a per-test alarm,
relative to the unchanged copy's slowest test, and `--tb=no` keep a candidate
that hangs or fails from costing the others), recording every target the specs
ask about. The trace is split by the copy each invocation's test belongs to, the
copies' marks are taken out of every text (so module names and test ids read as
the original's), a candidate's trace is completed with the unchanged copy's for
the tests it did not run (splice.py), and each spec's question is answered for
the unchanged copy and for every candidate.

A spec's answer is the candidates that change its answer, in pool order (those
whose answer says nothing last: the screen would drop them), with
counts of the others by why they did not (`same`, `failed`, `unreached`,
`unanswered`, `unparsed`), each candidate with the answer this run gave it, and
the unchanged copy's own answer (`unchanged`: the host takes it as the
original's second run when the original is harvested beside its search). It is an
answer of the run like any oracle: the host caches it per epoch and harvests the
first candidates alone, once, in a fresh process, to get their gold; the search's
answer is the second harvest that one must agree with (a run of many copies shares
one interpreter, so a cache warmed by one copy may change what the next does: a
candidate whose answer depends on it is not kept).
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

from .. import queries
from ..group import Result, Spec, answer_by_rule, base_result, make_recordings, with_fields
from ..queries import complexity
from ..recording import trace
from ..runner import forkserver, pytest_run
from ..runner.sandbox import Sandbox
from . import variant
from .pool import NoVariant, pool_size
from .sites import CALL_SITES
from .splice import candidate_trace, mark_of, split

SEARCH_TIMEOUT_FACTOR = 4
"""The search run may take this many times the instance's timeout (it runs every candidate)."""
TEST_EVENTS = 100_000
"""Each test of the search run records at most this many events (past it, its candidate is dropped)."""
USAGE_ERROR = 4
"""pytest's exit code when a test id it was given cannot be collected."""
FIRST_CHUNK = 12
"""The pool's first chunk: its aimed edits, which find a candidate for most searches (docs/benchmarks.md)."""
CHUNK = 48
"""The rest of the pool runs in chunks of this many candidates, one pytest process each, until the search has
found enough. A process costs more than most candidates (pytest's start, the package's import: chunks of 16
all through made the harvest of a 200-instance sample 38% slower than one run), so one chunk holds the rest of
a one-target pool."""
CHUNK_EVENTS = 1_500_000
"""After the first chunk, a chunk holds at most as many candidates as fit this many recorded events, at the
unchanged copy's count per candidate (every target's trace together): a long test's copies, each near
TEST_EVENTS, would otherwise fill the container's memory in one chunk (48 copies of a 60,000-event test over
eight targets is 23 million events) and the driver, killed, would lose every search of its container."""
MIN_CHUNK = 4
WANTED = 1
"""Candidates per spec that change its answer, say something and are at least as complex as the original (semantic
and answer scores no lower, the test no shorter: queries/complexity.py): enough to stop (the host harvests the
first alone; the others found by the chunks run are its next tries, the less complex last)."""
MEMORY_BYTES = 1536 * 1024 * 1024
"""The search run's address space (the container holds 2 GiB): a candidate whose input explodes fails alone."""
TEST_SECONDS = 20.0
"""Each test of the search run is stopped (and its candidate dropped) after this long, or after a quarter of
the instance's timeout if that is shorter; a candidate's test, after ten times the unchanged copy's slowest
in CPU time, its own CPU time (at least 2 s: the plugin's RELATIVE_FACTOR and RELATIVE_FLOOR; CPU time, so that
a loaded machine does not stop a candidate that an idle one keeps)."""
REFERENCE = variant.copy_name("", "o")
"""The unchanged copy's mark in its test ids: its tests are the reference of the candidates' time limit."""


def harvest(specs: list[Spec], sandbox: Sandbox, tracer_root: str) -> list[Result]:
    """A group of `variant_search` specs (harvest.py sends it here, group.harvest_group the others)."""
    results = [base_result(spec) for spec in specs]
    for result in results:
        result["stats"]["group"] = sandbox.index
    first = specs[0]
    epoch = first.get("variant_epoch")
    if first.get("cwd") or isinstance(epoch, bool) or not isinstance(epoch, int):
        return settled(specs, with_fields(results, status="invalid",
                                          reason="no variant: variants need cwd instance and an int epoch"))
    return settled(specs, run(specs, results, os.path.abspath(first["dir"]), epoch, sandbox, tracer_root))


def run(specs: list[Spec], results: list[Result], instance_dir: str, epoch: int, sandbox: Sandbox,
        tracer_root: str) -> list[Result]:
    first = specs[0]
    run_dir = sandbox.path("variant")
    try:
        sources = variant.prepare_scout(instance_dir, first["tests"], run_dir)
    except (NoVariant, OSError) as exc:
        return with_fields(results, status="invalid", reason=f"no variant: {exc}")
    recordings = make_recordings(specs, results, run_dir, run_dir, [], sandbox)
    if not recordings:
        return results
    timeout = float(first.get("timeout_seconds") or 60)
    backend = str(first.get("backend") or "auto")
    unchanged = variant.copy_ids(first["tests"], "o")
    recorded = [CALL_SITES.get(specs[r.members[0]]) for r in recordings]
    sites_from = "original" if all(found is not None for found in recorded) else "scout"
    for result in results:
        result["stats"]["sites_from"] = sites_from
    if sites_from == "original":
        sites = [found or [] for found in recorded]  # the original's run in this plan recorded them: no scout
    else:
        # The scout: the unchanged copy alone, each target invocation's call site in it recorded.
        copies = {os.path.join(run_dir, variant.copy_name(name, "o")): name for name in sources}
        scout = [dict(r.config, trace_path=sandbox.path(f"scout-{i}.json"), site_files=copies, record_calls=False,
                      variables=None, dataflow=None, count_calls=None, events_through=None)
                 for i, r in enumerate(recordings)]
        outcome = _traced(unchanged, run_dir, tracer_root, scout, timeout, sandbox, "scout", timeout / 2, backend)
        if outcome.timed_out:
            return with_fields(results, status="timeout", reason=f"the unchanged tests timed out after {timeout:g}s")
        if outcome.problem() or outcome.failed_tests():
            return with_fields(results, status="invalid", reason="the unchanged copy's tests fail: "
                        f"{outcome.problem() or ', '.join(outcome.failed_tests()[:3])}")
        sites = [_sites(config["trace_path"]) for config in scout]
    try:
        search = variant.prepare_search(sources, first["tests"], epoch, run_dir, sites)
    except (NoVariant, OSError) as exc:
        return with_fields(results, status="invalid", reason=f"no variant: {exc}")
    # The pool in chunks, in order: the search stops once every spec has WANTED candidates that change
    # its answer and say something (aimed edits lead the pool, so most searches end in the first chunk).
    pending = [k for k, ids in enumerate(search.candidates) if ids]
    size = pool_size(sites)  # the aimed edits past it run last, apart (pool.MORE_AIMED)
    # The first chunk is its aimed dozen, fewer when the original's run of a long test recorded many events.
    first_size = room(sum(CALL_SITES.events_of(specs[r.members[0]]) for r in recordings), FIRST_CHUNK + 1) - 1
    chunks = [pending[:first_size]]
    for part in ([k for k in pending[first_size:] if k < size], [k for k in pending[first_size:] if k >= size]):
        chunks += [part[i:i + CHUNK] for i in range(0, len(part), CHUNK)]
    budget = timeout * SEARCH_TIMEOUT_FACTOR
    parts: list[dict[str, dict[str, Any]]] = [{} for _ in recordings]
    overflowed: list[set[str | None]] = [set() for _ in recordings]
    broken: dict[int, dict[str, Any]] = {}  # recording → why its trace cannot be read
    failed: set[str | None] = set()
    ran: set[int] = set()
    decided: dict[int, dict[str, Any]] = {}  # spec → its answer over the chunks run so far
    judged: dict[int, dict[int, Any]] = {}  # spec → candidate → its verdict (_decide), kept as its trace is freed
    spent = 0.0
    slowest = 0.0  # the unchanged copy's slowest test in chunk 0 (CPU s): the later chunks' tests are limited by it
    n = 0
    while n < len(chunks):
        chunk = chunks[n]
        sandbox.fresh_tmp()
        tests = (search.unchanged if n == 0 else []) + [t for k in chunk for t in search.candidates[k] or ()]
        # Every invocation's events: one run holds many copies, each numbering its own invocations from 1.
        configs = [dict(r.config, trace_path=sandbox.path(f"search-{n}-{i}.json"), max_test_events=TEST_EVENTS,
                        copy_marker=variant.COPY_MARK, events_through=None) for i, r in enumerate(recordings)]
        outcome = _traced(tests, run_dir, tracer_root, configs, budget - spent, sandbox, f"search-{n}",
                          min(TEST_SECONDS, timeout / 4), backend, (REFERENCE, slowest))
        spent += outcome.seconds
        if outcome.timed_out or outcome.problem():
            if n == 0:
                if outcome.timed_out:
                    return with_fields(results, status="timeout", reason=f"the search run timed out after {budget:g}s")
                return with_fields(results, status="invalid", reason=f"the search run: {outcome.problem()}")
            break  # the chunks that ran stand; the others are counted as not run
        failed |= {mark_of(t) for t in outcome.failed_tests()}
        if n == 0 and "o" in failed:
            return with_fields(results, status="invalid", reason="the unchanged copy's tests fail in the search run")
        for i, config in enumerate(configs):
            try:
                recorded = trace.load(config["trace_path"])
            except (OSError, ValueError) as exc:
                broken.setdefault(i, {"status": "error", "reason": f"no search trace: {exc}"})
                continue
            finally:
                # Read: its scratch space goes back (a long test's chunks filled the 512 MiB tmpfs, and every
                # group of the container failed to write after it: "No space left on device").
                with contextlib.suppress(OSError):
                    os.remove(config["trace_path"])
            if recorded.get("status") != "ok":
                broken.setdefault(i, {"status": "invalid", "reason": recorded.get("reason")})
                continue
            slowest = max(slowest, float(recorded.get("reference_seconds") or 0))
            parts[i].update(split(recorded))
            overflowed[i] |= {mark_of(t) for t in recorded.get("overflowed_tests", ())}
            del recorded
        ran.update(chunk)
        decided = {index: _decide(specs[index], parts[i], search, failed | overflowed[i], ran, chunk,
                                  judged.setdefault(index, {}), recording.rule_context)
                   for i, recording in enumerate(recordings) if i not in broken for index in recording.members}
        for part in parts:  # judged: only the unchanged copy's trace is read again (a long test's copies are large)
            for k in chunk:
                part.pop(str(k), None)
        if n == 0:
            chunks = chunks[:1] + rechunk([k for c in chunks[1:] for k in c], size, parts)
        if spent >= budget or all(sum(c["harder"] and not c["empty"] for c in d.get("answer", {}).get("candidates", ()))
                                  >= WANTED or d["status"] != "ok" for d in decided.values()):
            break
        n += 1
    for i, recording in enumerate(recordings):
        for index in recording.members:
            if i in broken:
                results[index] = dict(results[index], **broken[i])
                continue
            found = decided[index]  # as the last chunk that ran left it
            if found["status"] == "ok":
                # An answer that says nothing fails the screen, and so does a candidate less complex than the
                # original (the host's `easier`): those go last, in that order. Before them, the candidate whose
                # least-risen component rose most: the variant harvested first is the hardest the search found.
                found["answer"]["candidates"].sort(key=lambda c: (c["empty"], not c["harder"], -c["gain"]))
                for c in found["answer"]["candidates"]:
                    del c["empty"], c["harder"], c["gain"]
            results[index] = dict(results[index], **found)
            results[index]["stats"].update(seconds=spent)
            results[index]["context"] = recording.context  # the target's, no tests: a search is never asked
    return results


def rechunk(rest: list[int], size: int, parts: list[dict[str, dict[str, Any]]]) -> list[list[int]]:
    """The pool past the first chunk in chunks (the aimed edits below `size` first, as before) of at most CHUNK
    candidates, and fewer when the unchanged copy's run recorded many events (CHUNK_EVENTS)."""
    most = room(sum(len((part.get("o") or {}).get("events") or ()) for part in parts), CHUNK)
    chunks: list[list[int]] = []
    for group in ([k for k in rest if k < size], [k for k in rest if k >= size]):
        chunks += [group[i:i + most] for i in range(0, len(group), most)]
    return chunks


def room(events: int, most: int) -> int:
    """Copies a chunk may hold when each records about `events` (rounded up to a power of two, so that a run
    whose count differs by a few events between two harvests chunks its pool the same): MIN_CHUNK to `most`."""
    return max(MIN_CHUNK, min(most, CHUNK_EVENTS // (1 << max(0, events - 1).bit_length())))


def _traced(tests: list[str], run_dir: str, tracer_root: str, configs: list[dict[str, Any]], timeout: float,
            sandbox: Sandbox, name: str, test_seconds: float, backend: str,
            reference: tuple[str, float] | None = None) -> pytest_run.Outcome:
    """One traced pytest run of `tests` (hooks deferred to our plugin; redone traced from the start if a
    target's module was imported before it)."""
    outcome = None
    select = None
    for attempt, defer in enumerate((True, True, False)):
        if attempt == 1 and select is None:
            continue  # no usage error: the next attempt is the run traced from the start, if asked
        config = {"backend": backend, "recorders": configs, "defer": defer}
        config_path = sandbox.write_private(f"{name}-config-{attempt}.json", json.dumps(config))
        outcome = pytest_run.run(tests, run_dir, tracer_root, config_path, timeout, sandbox,
                                 extra_args=("--tb=no",), test_seconds=test_seconds, select_path=select,
                                 memory_bytes=MEMORY_BYTES, reference=reference,
                                 fresh=forkserver.fresh_for(configs) if defer else None)
        if attempt == 0 and outcome.exit_code == USAGE_ERROR and not outcome.timed_out:
            # A copy that fails to import (an edit of module-level code) makes its ids a usage error: again
            # with the files given to pytest and the ids kept by the plugin, so it fails its own tests only.
            select = sandbox.write_private(f"{name}-tests.txt", "\n".join(tests) + "\n")
            sandbox.fresh_tmp()
            continue
        if not defer or outcome.timed_out or outcome.problem():
            break
        try:
            retry = trace.load(configs[0]["trace_path"]).get("retry_from_start")
        except (OSError, ValueError):
            break
        if not retry:
            break
        sandbox.fresh_tmp()
    assert outcome is not None
    return outcome


def _sites(path: str) -> list[tuple[str, int]]:
    """The call sites a scout trace recorded, in invocation order (none if it cannot be read)."""
    try:
        recorded = trace.load(path)
    except (OSError, ValueError):
        return []
    sites = []
    for inv in recorded.get("invocations") or ():
        site = inv.get("site")
        if isinstance(site, list) and len(site) == 2 and isinstance(site[0], str) and isinstance(site[1], int):
            sites.append((site[0], site[1]))
    return list(dict.fromkeys(sites))


def settled(specs: list[Spec], results: list[Result]) -> list[Result]:
    """Every search as an answer: one that could not run (a hang, a crash, no trace) finds no candidate,
    with its reason, so the host caches it for the epoch instead of searching again on every run."""
    out = []
    for spec, result in zip(specs, results, strict=True):
        if result.get("status") == "ok":
            out.append(result)
            continue
        target = spec.get("target") or {}
        context = result.get("context") or {"file": str(target.get("file")), "func": str(target.get("function")),
                                             "first_line": 1, "source": ""}
        reason = str(result.get("reason") or result.get("status"))
        answer = {"candidates": [], "pool": 0, "targeted": 0, "same": 0, "failed": 0, "unreached": 0,
                  "unanswered": 0, "unparsed": 0, "unrun": 0, "search_failed": reason}
        out.append(dict({k: v for k, v in result.items() if k != "reason"}, status="ok", answer=answer,
                        context=context))
    return out


def _decide(spec: Spec, parts: dict[str, dict[str, Any]], search: variant.Search, failed: set[str | None],
            ran: set[int], chunk: list[int], judged: dict[int, Any], ctx: Any) -> dict[str, Any]:
    """The spec's search answer: the candidates whose answer differs from the unchanged copy's. The chunk just
    run is judged from its traces (`parts`); the earlier ones' verdicts are read from `judged`, where this
    chunk's are kept too (the search then frees their traces: memory stays one chunk's)."""
    unchanged = parts.get("o")
    if unchanged is None:
        return {"status": "invalid", "reason": "the unchanged copy does not reach the target in the search run"}
    original = answer_by_rule(spec, unchanged, ctx)
    if original["status"] != "ok":
        return {"status": "invalid", "reason": f"the unchanged copy has no answer: {original.get('reason')}"}
    shown = json.dumps(original["answer"], sort_keys=True)
    needs = queries.recording_needs(spec["kind"], spec.get("query") or {})
    base = complexity.run_scores(unchanged, needs, original["answer"])
    for k in chunk:
        if search.candidates[k] is not None:
            judged[k] = _judge(spec, parts, search, failed, k, shown, needs, base, ctx)
    counts = {"same": 0, "failed": 0, "unreached": 0, "unanswered": 0, "unparsed": 0, "unrun": 0}
    changed: list[dict[str, Any]] = []
    for k, ids in enumerate(search.candidates):
        verdict = "unparsed" if ids is None else "unrun" if k not in ran else judged.get(k, "unrun")
        if isinstance(verdict, dict):
            changed.append(verdict)
        else:
            counts[verdict] += 1
    return {"status": "ok", "answer": {"candidates": changed, "pool": len(search.candidates),
                                       "targeted": search.targeted, **counts, "unchanged": original["answer"]}}


def _judge(spec: Spec, parts: dict[str, dict[str, Any]], search: variant.Search, failed: set[str | None], k: int,
           shown: str, needs: Any, base: dict[str, float], ctx: Any) -> str | dict[str, Any]:
    """One candidate's verdict: why it changes nothing ("failed", "unreached", "unanswered", "same"), or what
    its changed answer is, with its edit and whether it is at least as complex as the original."""
    mark = str(k)
    if mark in failed:
        return "failed"
    trace = candidate_trace(parts, mark, search, k)
    if not trace or not trace["invocations"]:
        return "unreached"
    answer = answer_by_rule(spec, trace, ctx)
    if answer["status"] != "ok":
        return "unanswered"
    if json.dumps(answer["answer"], sort_keys=True) == shown:
        return "same"
    chosen = search.pool[k]
    # At least as complex as the original: its run and answer score no lower, and its edit leaves the test no
    # shorter (the prompt's code: the navigation component).
    scores = complexity.run_scores(trace, needs, answer["answer"])
    harder = (complexity.at_least(scores, base)
              and not any(end - line > text.count("\n") for line, _c, end, _e, text in chosen.edits))
    return {"index": k, "file": chosen.file, "edits": [list(e) for e in chosen.edits], "what": chosen.what,
            "empty": empty(answer["answer"]), "harder": harder, "gain": complexity.least_gain(scores, base),
            "answer": answer["answer"]}


def empty(answer: Any) -> bool:
    """An answer that says nothing: every leaf null, 0, "" or an empty list or object (the host's screen
    drops it as `empty-answer`)."""
    if isinstance(answer, dict):
        return all(empty(v) for v in answer.values())
    if isinstance(answer, list):
        return all(empty(v) for v in answer)
    return answer is None or answer == "" or (type(answer) in (int, float) and answer == 0)
