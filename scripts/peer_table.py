#!/usr/bin/env python3
"""Print one table from a bench.sh pass that included us as peer "ours" (scripts/compare-peers).

  scripts/peer_table.py RESULTS.jsonl [MORE.jsonl ...]

With several files (the cold protocol's fresh passes), each row is the median of the files'
medians (min_ms the smallest, peak RSS the largest).

Per workload and peer: median ms and MB/s (input bytes / median, MB = 10^6 B, for encode too) of
decode and encode, our speed-up over that peer (peer median / our median: > 1 means we are faster),
encoder output bytes and peak RSS of the process that ran the workload. Then our extra operations
(open, lookup, zlib, keyed) and the memcpy/scan/zlib references when the pass measured them.
"""
import collections
import json
import sys

ORDER = ["mixed", "strings", "numbers", "keyed", "people", "people-ours"]


def load_one(path, first_rep=False):
    """Per (workload, peer): {op: record}. With first_rep, a record's median is its first timed rep:
    a cold pass's figure for a peer whose own settings in bench.sh time several reps in its fresh
    process (libplist: REPS=3), whose later reps reuse the memory the first one faulted in."""
    rows = collections.OrderedDict()  # (workload, peer) -> {op: record}
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        r = json.loads(line)
        if first_rep and r.get("times_ms"):
            r = dict(r, median_ms=r["times_ms"][0], min_ms=r["times_ms"][0])
        rows.setdefault((r["workload"], r["peer"]), {})[r["op"]] = r
    return rows


def load(paths, first_rep=False):
    """One file as it is; several: per (workload, peer, op), the median of the files' medians
    (first_rep: see load_one)."""
    runs = [load_one(p, first_rep) for p in paths]
    if len(runs) == 1:
        return runs[0]
    rows = collections.OrderedDict()
    for run in runs:
        for key, ops in run.items():
            for op, r in ops.items():
                rows.setdefault(key, collections.OrderedDict()).setdefault(op, []).append(r)
    merged = collections.OrderedDict()
    for key, ops in rows.items():
        merged[key] = {}
        for op, rs in ops.items():
            medians = sorted(r["median_ms"] for r in rs)
            n = len(medians)
            mid = medians[n // 2] if n % 2 else (medians[n // 2 - 1] + medians[n // 2]) / 2
            m = dict(rs[0])
            m["median_ms"] = mid
            m["min_ms"] = min(r["min_ms"] for r in rs)
            m["rss_kb"] = max(r.get("rss_kb", 0) for r in rs)
            m["passes"] = n
            merged[key][op] = m
    return merged


def ms(r):
    if r is None:
        return "–"
    v = r["median_ms"]
    return "%.1f" % v if v >= 10 else "%.2f" % v if v >= 0.1 else "%.4f" % v


def mbps(r):
    if r is None or r["median_ms"] <= 0:
        return "–"
    return "%.1f" % (r["in_bytes"] / r["median_ms"] / 1e3)


def ratio(peer, ours):
    if peer is None or ours is None or ours["median_ms"] <= 0:
        return "–"
    return "%.2f×" % (peer["median_ms"] / ours["median_ms"])


def main():
    args = sys.argv[1:]
    first_rep = bool(args) and args[0] == "--first-rep"
    if first_rep:
        args = args[1:]
    if not args:
        sys.exit("usage: peer_table.py [--first-rep] RESULTS.jsonl [MORE.jsonl ...]")
    rows = load(args, first_rep)
    workloads = sorted({w for w, _ in rows if w in ORDER}, key=ORDER.index)
    if len(args) > 1:
        print("Medians of %d passes per row%s.\n" % (
            len(args), ", each the first timed run of its process" if first_rep else ""))
    print("Speed-up = peer median / our median (> 1: we are faster). MB/s = input MB / median.\n")
    fastest_table(rows, workloads)
    for wl in workloads:
        ours = rows.get((wl, "ours"), {})
        peers = [(p, d) for (w, p), d in rows.items()
                 if w == wl and not p.startswith(("ref-", "zlib-"))]
        peers.sort(key=lambda pd: (pd[0] != "ours", pd[0]))
        size = next((r["in_bytes"] for _, d in peers for r in d.values()), 0)
        print("### %s (%d bytes)\n" % (wl, size))
        print("| peer | decode ms | decode MB/s | our decode speed-up | encode ms | encode MB/s"
              " | our encode speed-up | output bytes | peak RSS MiB |")
        print("|---|---|---|---|---|---|---|---|---|")
        for p, d in peers:
            dec, enc = d.get("decode"), d.get("encode")
            rss = max((r.get("rss_kb", 0) for r in d.values()), default=0)
            print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                p, ms(dec), mbps(dec), "–" if p == "ours" else ratio(dec, ours.get("decode")),
                ms(enc), mbps(enc), "–" if p == "ours" else ratio(enc, ours.get("encode")),
                enc["out_bytes"] if enc else "–", "%.0f" % (rss / 1024) if rss else "–"))
        extra = [(op, r) for op, r in ours.items() if op not in ("decode", "encode")]
        if extra:
            print("\nours, other operations: " + "; ".join(
                "%s %s ms (%s MB/s%s)" % (op, ms(r), mbps(r),
                                          ", out %d B" % r["out_bytes"] if r["out_bytes"] else "")
                for op, r in extra))
        refs = [(p, d) for (w, p), d in rows.items() if w == wl and p.startswith(("ref-", "zlib-"))]
        if refs:
            print("\nreferences: " + "; ".join(
                "%s %s %s MB/s" % (p, op, mbps(r)) for p, d in refs for op, r in d.items()))
        print()
    codable_table(rows, workloads)
    keyed_objects(rows)
    base = [(p, d) for (w, p), d in rows.items() if w == "empty"]
    if base:
        print("Baseline peak RSS (empty array): " + ", ".join(
            "%s %.0f MiB" % (p, max(r.get("rss_kb", 0) for r in d.values()) / 1024) for p, d in base))


FOUNDATION = ("swift-PropertyListSerialization", "swift-PropertyListCoder")
TYPED = ("rust-plist-serde", "swift-PropertyListCoder")


def fastest_table(rows, workloads):
    """Per workload and direction: ours, the fastest other untyped peer and our ratio to it, our ratio
    to Foundation (PropertyListSerialization), and the memory-bandwidth references of the pass."""
    lines = []
    for wl in workloads:
        ours = rows.get((wl, "ours"), {})
        refs = {p: d["decode"] for (w, p), d in rows.items() if w == wl and p.startswith("ref-") and "decode" in d}
        for op in ("decode", "encode"):
            mine = ours.get(op)
            if mine is None:
                continue
            others = [(p, d[op]) for (w, p), d in rows.items()
                      if w == wl and p != "ours" and p not in TYPED and op in d
                      and not p.startswith(("ref", "zlib-"))]
            best = min(others, key=lambda pr: pr[1]["median_ms"], default=None)
            found = rows.get((wl, FOUNDATION[0]), {}).get(op)
            ref = " / ".join("%s %s" % (p[4:], mbps(r)) for p, r in refs.items())
            lines.append("| %s | %s | %s ms (%s MB/s) | %s | %s | %s | %s |" % (
                wl, op, ms(mine), mbps(mine),
                "%s %s ms" % (best[0], ms(best[1])) if best else "–",
                ratio(best[1], mine) if best else "–", ratio(found, mine), ref or "–"))
    if lines:
        print("### Ours against the fastest other peer (untyped) and Foundation\n")
        print("| workload | op | ours | fastest other peer | ratio | vs PropertyListSerialization"
              " | ref MB/s |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(lines))
        print()


def codable_table(rows, workloads):
    """Our typed coders (decode-codable, encode-codable: PlistDecoder/PlistEncoder into the peers'
    Codable models) beside the typed peers: rust plist with serde and Foundation's
    PropertyListDecoder/Encoder (swift-PropertyListCoder), whose decode/encode are the same job."""
    typed = ["rust-plist-serde", "swift-PropertyListCoder"]
    lines = []
    for wl in workloads:
        ours = rows.get((wl, "ours"), {})
        dec, enc = ours.get("decode-codable"), ours.get("encode-codable")
        if dec is None and enc is None:
            continue
        cells = [wl, ms(dec), mbps(dec)]
        for p in typed:
            cells.append(ratio(rows.get((wl, p), {}).get("decode"), dec))
        cells += [ms(enc), mbps(enc)]
        for p in typed:
            cells.append(ratio(rows.get((wl, p), {}).get("encode"), enc))
        lines.append("| " + " | ".join(cells) + " |")
    if not lines:
        return
    print("### Codable: PlistDecoder/PlistEncoder (ours) against the typed peers\n")
    print("| workload | decode-codable ms | MB/s | speed-up vs rust serde | vs Foundation PropertyListDecoder"
          " | encode-codable ms | MB/s | speed-up vs rust serde | vs Foundation PropertyListEncoder |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(lines))
    print()


def keyed_objects(rows):
    """Object graphs: our unarchive/archive (hand-written and @KeyedArchivable) against
    NSKeyedUnarchiver/NSKeyedArchiver of the same pass (whose peer reports them as decode/encode)."""
    lines = []
    for wl in ("keyed", "people", "people-ours"):
        ours = rows.get((wl, "ours"), {})
        ns = rows.get((wl, "swift-NSKeyedArchiver"), {})
        cells = []
        for op, ns_op in (("unarchive", "decode"), ("unarchive-macro", "decode"),
                          ("archive", "encode"), ("archive-macro", "encode")):
            if op in ours:
                r = ours[op]
                cells.append("%s %s ms (min %s), %s (best times %s)" % (
                    op, ms(r), "%.1f" % r["min_ms"], ratio(ns.get(ns_op), r),
                    "%.2f×" % (ns[ns_op]["min_ms"] / r["min_ms"]) if ns_op in ns and r["min_ms"] > 0 else "–"))
        if cells:
            lines.append("| %s | %s | %s |" % (
                wl, " / ".join("%s %s" % (o, ms(ns.get(o))) for o in ("decode", "encode")), "; ".join(cells)))
    if lines:
        print("### Object graphs: ours against NSKeyedUnarchiver / NSKeyedArchiver (speed-up = their median / ours)\n")
        print("| workload | NSKeyed unarchive / archive ms | ours |")
        print("|---|---|---|")
        print("\n".join(lines))
        print()


if __name__ == "__main__":
    main()
