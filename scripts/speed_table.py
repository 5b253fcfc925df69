#!/usr/bin/env python3
"""One table of every row, every pass, warm and cold, from the runs scripts/compare-peers recorded.

  scripts/speed_table.py RUNS.txt

RUNS.txt is the manifest compare-peers appends to (.build-peers/results/runs-STAMP.txt, one line
per pass: FORM PASS PROTOCOL FILE [FILE ...]; a cold pass lists its three fresh processes, whose
medians are merged by peer_table.load). A cold process's figure is its first timed rep: bench.sh
times three reps of libplist in each process whatever the protocol (its own REPS=3), and the second
and third reuse the memory the first faulted in. Java's cold processes still run bench.sh's three
untimed warm-ups (its own WARMUP=3), which a table made afterwards cannot undo. For every form,
workload and operation, a cell per pass and protocol gives our ratio: the compared peer's median
time / ours (> 1: we are faster), and the compared peer:

- decode, encode: the fastest other untyped peer of that pass (its name under the table), and
  Foundation's PropertyListSerialization;
- decode-codable, encode-codable: rust plist with serde (the fastest typed peer) and Foundation's
  PropertyListDecoder/Encoder;
- unarchive, archive (keyed archives): Foundation's NSKeyedUnarchiver/NSKeyedArchiver (the peer
  swift-NSKeyedArchiver, whose decode and encode are those; it is not a plain property-list peer).

A ratio under its target is in bold: 2x the fastest peer warm, 1.5x cold, 10x Foundation warm (the
performance issue's goals; a cold Foundation cell has no target), 25x NSKeyedUnarchiver and 40x
NSKeyedArchiver warm. The raw JSON lines are the files the manifest names.

When a warm pass holds our Codable floor (ops decode-codable-floor and encode-codable-floor, which
compare-peers measures after each warm pass: the model's init(from:) and encode(to:) against a
decoder that reads nothing and an encoder that writes nothing, Sources/bplist/Benchmarks/CodableFloor.swift),
a second table gives, per Codable row and warm pass, ours and the floor in ms and the ratio a coder
that cost nothing beyond the floor would reach against each peer (peer / floor): where that is under
the target, no Swift Codable coder can meet it on that model and machine.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_table import ORDER, TYPED, load  # noqa: E402

PLS = "swift-PropertyListSerialization"
CODER = "swift-PropertyListCoder"
SERDE = "rust-plist-serde"
ARCHIVER = "swift-NSKeyedArchiver"
TARGET = {"warm": 2.0, "cold": 1.5, "foundation": 10.0, "unarchive": 25.0, "archive": 40.0}


def read_manifest(path):
    runs = []  # (form, pass, protocol, [files])
    for line in open(path):
        parts = line.split()
        if len(parts) >= 4:
            runs.append((parts[0], parts[1], parts[2], parts[3:]))
    return runs


def cell(peer, ours, target):
    if peer is None or ours is None or ours["median_ms"] <= 0:
        return "–", None
    r = peer["median_ms"] / ours["median_ms"]
    text = "%.2f×" % r
    return ("**%s**" % text if r < target else text), r


def fastest_untyped(rows, wl, op):
    others = [(p, d[op]) for (w, p), d in rows.items()
              if w == wl and p not in ("ours", ARCHIVER) and p not in TYPED and op in d
              and not p.startswith(("ref", "zlib-"))]
    return min(others, key=lambda pr: pr[1]["median_ms"], default=(None, None))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: speed_table.py RUNS.txt")
    manifest = sys.argv[1]
    runs = read_manifest(manifest)
    if not runs:
        sys.exit("speed_table: no runs in %s" % manifest)
    by_form = collections.OrderedDict()
    for form, pas, protocol, files in runs:
        by_form.setdefault(form, []).append(("%s %s" % (protocol, pas), protocol,
                                             load(files, first_rep=protocol == "cold"), files))
    for form, columns in by_form.items():
        workloads = sorted({w for _, _, rows, _ in columns for (w, p) in rows if p == "ours" and w in ORDER},
                           key=ORDER.index)
        print("### %s form: ours against the fastest other peer and Foundation, every pass\n" % form)
        print("Cells: compared peer's median / ours (> 1: we are faster); bold: under the target"
              " (2× warm, 1.5× cold, 10× Foundation warm).\n")
        print("| workload | operation | against | " + " | ".join(label for label, _, _, _ in columns) + " |")
        print("|---|---|---|" + "---|" * len(columns))
        fastest_names = collections.Counter()
        misses = 0
        for wl in workloads:
            for op, typed in (("decode", False), ("encode", False), ("decode-codable", True),
                              ("encode-codable", True), ("unarchive", None), ("archive", None)):
                if not any(op in rows.get((wl, "ours"), {}) for _, _, rows, _ in columns):
                    continue
                base = {"unarchive": "decode", "archive": "encode"}.get(op, op.split("-")[0])
                lines = []
                if typed is None:
                    lines.append(("NSKeyed%s" % op.capitalize().replace("Unarchive", "Unarchiver")
                                  .replace("Archive", "Archiver"),
                                  lambda rows: rows.get((wl, ARCHIVER), {}).get(base), op))
                elif typed:
                    lines.append(("rust serde", lambda rows: rows.get((wl, SERDE), {}).get(base), None))
                    lines.append(("Foundation coder", lambda rows: rows.get((wl, CODER), {}).get(base),
                                  "foundation"))
                else:
                    lines.append(("fastest peer", lambda rows: fastest_untyped(rows, wl, base)[1], None))
                    lines.append(("PropertyListSerialization", lambda rows: rows.get((wl, PLS), {}).get(base),
                                  "foundation"))
                for against, pick, kind in lines:
                    cells = []
                    for _, protocol, rows, _ in columns:
                        ours = rows.get((wl, "ours"), {}).get(op)
                        target = 0.0 if kind and protocol == "cold" else TARGET[kind or protocol]
                        if against == "fastest peer":
                            name, peer = fastest_untyped(rows, wl, base)
                            if name and ours:
                                fastest_names[name] += 1
                        else:
                            peer = pick(rows)
                        text, r = cell(peer, ours, target)
                        if r is not None and r < target:
                            misses += 1
                        cells.append(text)
                    if all(c == "–" for c in cells):
                        continue
                    print("| %s | %s | %s | %s |" % (wl, op, against, " | ".join(cells)))
        print()
        if fastest_names:
            print("Fastest other untyped peer per cell: " + ", ".join(
                "%s %d" % (n, c) for n, c in fastest_names.most_common()) + ".")
        print("Cells under target: %d. Raw JSON lines: %s.\n" % (
            misses, "; ".join(" ".join(os.path.basename(f) for f in files) for _, _, _, files in columns)))
        floor_table(form, workloads, [c for c in columns if c[1] == "warm"])


def floor_table(form, workloads, warm):
    """The Codable floor of each warm pass (see the module's documentation); nothing when none has it."""
    rows = []
    for wl in workloads:
        for op in ("decode-codable", "encode-codable"):
            base = op.split("-")[0]
            cells = collections.defaultdict(list)
            for _, _, run, _ in warm:
                ours = run.get((wl, "ours"), {}).get(op)
                floor = run.get((wl, "ours"), {}).get(op + "-floor")
                if not ours or not floor or floor["median_ms"] <= 0:
                    continue
                cells["ours"].append("%.1f" % ours["median_ms"])
                cells["floor"].append("%.1f" % floor["median_ms"])
                cells["share"].append("%.0f %%" % (100 * floor["median_ms"] / ours["median_ms"]))
                for name, peer, target in (("serde", SERDE, TARGET["warm"]), ("coder", CODER, TARGET["foundation"])):
                    p = run.get((wl, peer), {}).get(base)
                    if p:
                        r = p["median_ms"] / floor["median_ms"]
                        cells[name].append("**%.2f×**" % r if r < target else "%.2f×" % r)
                    else:
                        cells[name].append("–")
            if cells:
                rows.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    wl, op, " / ".join(cells["ours"]), " / ".join(cells["floor"]), " / ".join(cells["share"]),
                    " / ".join(cells["serde"]), " / ".join(cells["coder"])))
    if not rows:
        return
    print("#### %s form: the Codable floor, each warm pass\n" % form)
    print("Ours and the floor in ms (warm medians, pass by pass); the floor's share of ours; the ratio a coder"
          " costing nothing beyond the floor would reach (peer / floor), bold where that is under the target"
          " (2× rust serde, 10× Foundation).\n")
    print("| workload | operation | ours ms | floor ms | floor / ours | reachable vs rust serde"
          " | reachable vs Foundation coder |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(r)
    print()


if __name__ == "__main__":
    main()
