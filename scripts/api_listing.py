#!/usr/bin/env python3
"""scripts/api_listing.py MODULE DIR - one module's public API as sorted text lines (scripts/check-api).

Reads the symbol graphs swift-symbolgraph-extract wrote to DIR (MODULE.symbols.json and the extension
graphs MODULE@Other.symbols.json) and prints one line per public declaration, `Path.To.name :: the
declaration`, and one per conformance or inheritance, `Type :: conforms to Protocol`, sorted. SPI symbols
are left out; so are the conformances every type has implicitly (Copyable, Escapable, SendableMetatype).
"""
import glob
import json
import os
import sys

IMPLICIT = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype"}


def declaration(symbol):
    return " ".join("".join(f["spelling"] for f in symbol.get("declarationFragments", [])).split())


def main():
    module, folder = sys.argv[1], sys.argv[2]
    lines = set()
    for path in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
        graph = json.load(open(path))
        extended = os.path.basename(path).split("@")[1].split(".symbols")[0] if "@" in path else None
        symbols = {s["identifier"]["precise"]: s for s in graph["symbols"]}

        def public(symbol):
            return symbol is not None and not symbol.get("spi") and symbol["accessLevel"] in ("public", "open")

        for s in graph["symbols"]:
            if public(s):
                where = f"[extends {extended}] " if extended else ""
                lines.add(f"{where}{'.'.join(s['pathComponents'])} :: {declaration(s)}")
        for r in graph["relationships"]:
            if r["kind"] not in ("conformsTo", "inheritsFrom"):
                continue
            source = symbols.get(r["source"])
            if not public(source):
                continue
            target = symbols.get(r["target"])
            name = ".".join(target["pathComponents"]) if target else r.get("targetFallback", r["target"])
            if name in IMPLICIT:
                continue
            verb = "conforms to" if r["kind"] == "conformsTo" else "inherits from"
            lines.add(f"{'.'.join(source['pathComponents'])} :: {verb} {name}")
    print(f"# The public API of {module} (scripts/check-api). Generated: do not edit; run scripts/check-api --update.")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
