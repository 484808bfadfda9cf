"""What the prompt says of the environment: the interpreter's version and the target package's distribution.

An answer can depend on them (a loop's count in one release of a package, a
builtin's behaviour in one Python), so the prompt states them; they are read
from the environment itself, never from a run.
"""

from __future__ import annotations

import functools
import platform
from importlib import metadata


@functools.lru_cache(maxsize=1)
def _distributions() -> dict[str, list[str]]:
    try:
        return metadata.packages_distributions()
    except Exception:  # noqa: BLE001 - a broken dist-info costs the prompt its versions, never the oracle
        return {}


def of(top: str) -> dict[str, object]:
    """{python, packages: {distribution: version}} for the target's top-level package `top`."""
    packages: dict[str, str] = {}
    for name in sorted(set(_distributions().get(top, []))):
        try:
            packages[name] = metadata.version(name)
        except Exception:  # noqa: BLE001 - see _distributions
            continue
    return {"python": platform.python_version(), "packages": packages}
