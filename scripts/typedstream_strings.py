#!/usr/bin/env python3
"""scripts/typedstream_strings.py FILE... - every string python-typedstream finds in each typedstream.

Reads each FILE (one typedstream) with `typedstream.unarchive_from_data`, walks the objects it
returns (their attributes, lists, tuples, dictionaries; each object once) and prints one JSON line
per file: {"file": FILE, "strings": [...]} with every `str` met, in the order met (repeats kept), or
{"file": FILE, "error": "..."} when the reader refuses the file. Byte strings (class names, data,
C strings) are not strings here: the reader gives them as bytes.

The test TypedStreamCorpusStringsTests runs this on every real typedstream of the corpus and checks
that each string is in `bplist unarchive --json` of the same file. The module is python-typedstream
by dgelessus, published on PyPI as "pytypedstream" (LGPL-3.0): `scripts/typedstream-strings --setup`
installs it into a scratch virtual environment; nothing of it is in this repository, and what it
prints is computed when the test runs, never stored.
"""

import json
import sys

import typedstream


def strings(root):
    """Every str reachable from root, iteratively, each container or object visited once."""
    out = []
    seen = set()
    stack = [root]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            out.append(o)
            continue
        if o is None or isinstance(o, (bool, int, float, complex, bytes, bytearray)):
            continue
        if id(o) in seen:
            continue
        seen.add(id(o))
        children = []
        if isinstance(o, dict):
            for k, v in o.items():
                children += [k, v]
        elif isinstance(o, (list, tuple, set, frozenset)):
            children = list(o)
        else:
            if hasattr(o, "__dict__"):
                children += list(vars(o).values())
            for cls in type(o).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if hasattr(o, slot):
                        children.append(getattr(o, slot))
        stack.extend(reversed(children))
    return out


def main() -> None:
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            data = f.read()
        try:
            found = strings(typedstream.unarchive_from_data(data))
            print(json.dumps({"file": path, "strings": found}), flush=True)
        except Exception as e:  # the reader's refusal is reported, not fatal
            print(json.dumps({"file": path, "error": f"{type(e).__name__}: {e}"}), flush=True)


if __name__ == "__main__":
    main()
