"""Finds the target function's source before a run: the question's context."""

import os
import sys

from .linemap import LineMap, find_function, module_name


class TargetNotFound(Exception):
    pass


def find_file(rel_file, instance_dir, search_path=None):
    """The target file as the tests will import it: instance dir, then sys.path."""
    roots = [instance_dir] + list(sys.path if search_path is None else search_path)
    for root in roots:
        candidate = os.path.join(root or ".", rel_file)
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    return None


class Target:
    """The located target: path, LineMap and the context block of result.json."""

    def __init__(self, rel_file, qualname, instance_dir):
        missing = TargetNotFound("target not found: %s::%s" % (rel_file, qualname))
        self.path = find_file(rel_file, instance_dir)
        if self.path is None:
            raise missing
        with open(self.path, encoding="utf-8") as handle:
            self.text = handle.read()
        self.linemap = LineMap(self.text, self.path)
        node = find_function(self.linemap.tree, qualname)
        if node is None:
            raise missing
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        lines = self.text.splitlines(keepends=True)
        self.file = rel_file.replace("\\", "/")
        self.func = "%s.%s" % (module_name(self.file), qualname)
        self.context = {
            "file": self.file,
            "func": self.func,
            "first_line": first,
            "source": "".join(lines[first - 1 : node.end_lineno]),
            "module_source_file": self.file,
        }
