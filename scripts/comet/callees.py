"""Bugs below the entry point (scripts/generate-comet.py): mutants of the functions of its module that the
prompt's slice shows for it, so that an exposing input must reach the bug through the calls between."""

from __future__ import annotations

import os

from tracegate_tracer.generate import mutants
from tracegate_tracer.prompt.locate import Target, TargetNotFound
from tracegate_tracer.prompt.shown import prompt_slice
from tracegate_tracer.recording.linemap import module_name

CALLEES = 3
"""Functions of the entry point's module it reaches (the prompt's slice shows them) whose mutants are proposed too:
a bug one call or more below the function the input is given to."""
CALLEE_MUTANTS = 3


def callee_mutants(site: str, entry: dict, seed: str, kinds: tuple[str, ...]) -> list[dict]:
    """Mutants of the first CALLEES functions of its module the prompt's slice shows for the entry point, each
    with its file: an exposing input must then reach the bug through the calls between (its reference is still
    the entry point's input, and the prompt shows the mutated callee among the reachable functions)."""
    try:
        target = Target(entry["file"], entry["qualname"], [site])
        shown = (prompt_slice(target).get("slice") or {}).get("functions") or []
    except (TargetNotFound, SyntaxError, OSError):
        return []
    found: list[dict] = []
    for block in shown[:CALLEES]:
        module = module_name(block["file"])
        qualname = str(block["func"]).removeprefix(module + ".")
        if qualname == entry["qualname"] or block["file"] != entry["file"]:
            continue  # B2's runs respell and watch the target's own module: the bug stays in it
        try:
            with open(os.path.join(site, block["file"]), encoding="utf-8") as handle:
                source = handle.read()
        except OSError:
            continue
        for mutant in mutants.propose(source, qualname, f"{seed}:{qualname}", CALLEE_MUTANTS, kinds):
            found.append(dict(mutant, file=block["file"],
                              description=f"{mutant.get('description', 'a bug')} in {qualname}, called by "
                                          f"{entry['qualname']}"))
    return found
