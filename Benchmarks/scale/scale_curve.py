#!/usr/bin/env python3
"""Benchmarks/scale/scale_curve.py - time and peak memory against input size, ours and the peers.

Run through `Benchmarks/scale-curve` (which builds what is needed). For each size it:

1. writes the peers' `mixed` workload at that size with `bplist generate mixed --bytes N`, the
   streaming writer: that run is the "stream-write" row (time, peak RSS);
2. runs, each in its own process under `/usr/bin/time -v` (so each peak RSS is that operation's):
   ours: `decode` (read the file, build the tree), `encode` (read, decode, then time the write),
   `open-file` (memory-mapped open and validation), `lookup-file` (open + one key-path lookup);
   rust `plist` (the peers' program: decode and encode in one process);
   libplist (decode only: `libplist_decode.c`; its encoder is too slow past 10 MB);
3. appends one JSON line per measurement to the results file, then prints a Markdown table and
   draws `scale-curve.png` (time and peak RSS per operation against input size, log-log).

A peer whose peak RSS, extrapolated linearly from the previous size, would pass the memory cap
(default 18 GiB of this 24 GiB machine) is skipped at that size, and the table says so.
"""

import json
import os
import re
import subprocess
import sys
import time

SIZES = {"1M": 10**6, "10M": 10**7, "100M": 10**8, "1G": 10**9}


def run_timed(cmd, env=None):
    """Runs cmd under /usr/bin/time -v; returns (stdout, wall seconds, peak RSS in KiB, stderr)."""
    full_env = dict(os.environ, **(env or {}))
    started = time.monotonic()
    proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, env=full_env, capture_output=True, text=True)
    wall = time.monotonic() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-600:]}")
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    return proc.stdout, wall, int(match.group(1)) if match else None, proc.stderr


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def main():
    bplist, rust, libplist, work, results_path, png_path = sys.argv[1:7]
    sizes = (sys.argv[7] if len(sys.argv) > 7 else "1M 10M 100M 1G").split()
    cap_kib = int(os.environ.get("SCALE_MEMORY_CAP_GIB", "18")) * 1024 * 1024
    rows = []
    last_rss = {}  # (impl, op) -> (bytes, rss_kib) at the previous size

    def record(size_name, size, impl, op, ms, rss, note=""):
        row = {"size": size_name, "bytes": size, "impl": impl, "op": op, "ms": ms, "rss_kib": rss, "note": note}
        rows.append(row)
        with open(results_path, "a") as f:
            f.write(json.dumps(row) + "\n")
        shown = f"{ms:10.1f} ms" if ms is not None else "   skipped"
        print(f"{size_name:>5} {impl:10} {op:12} {shown}  {(rss or 0) / 1024:8.0f} MiB  {note}", file=sys.stderr)

    def fits(impl, op, size):
        prev = last_rss.get((impl, op))
        if not prev:
            return True, ""
        projected = prev[1] * size / prev[0]
        if projected > cap_kib:
            return False, f"skipped: projected peak RSS {projected / 1024 / 1024:.1f} GiB over the cap"
        return True, ""

    for size_name in sizes:
        size = SIZES[size_name]
        path = os.path.join(work, f"mixed-{size_name}.bplist")
        out, wall, rss, err = run_timed([bplist, "generate", "mixed", "--bytes", str(size), "--out", path])
        actual = os.path.getsize(path)
        # The generator's own rate (its summary line: "... bytes in S s (R MB/s)"), without the
        # process start.
        rate = re.search(r"\(([0-9.]+) MB/s\)", err)
        ms = actual / 1e6 / float(rate.group(1)) * 1000 if rate else wall * 1000
        record(size_name, actual, "ours", "stream-write", ms, rss)

        for op in ["decode", "encode", "open-file", "lookup-file"]:
            ok, note = fits("ours", op, actual)
            if not ok:
                record(size_name, actual, "ours", op, None, None, note)
                continue
            try:
                out, _, rss, _ = run_timed([bplist, "bench", path, "1"], env={"BENCH_OPS": op, "WARMUP": "0"})
            except RuntimeError as failure:
                record(size_name, actual, "ours", op, None, None, f"failed: {str(failure)[-200:]}")
                continue
            line = next(x for x in json_lines(out) if x["op"] == op)
            record(size_name, actual, "ours", op, line["median_ms"], rss)
            last_rss[("ours", op)] = (actual, rss)

        ok, note = fits("rust", "decode+encode", actual)
        if ok:
            try:
                out, _, rss, _ = run_timed([rust, "value", path, "1"], env={"WARMUP": "0"})
            except RuntimeError as failure:
                out, rss = "", None
                record(size_name, actual, "rust-plist", "decode", None, None, f"failed: {str(failure)[-200:]}")
            for line in json_lines(out):
                record(size_name, actual, "rust-plist", line["op"], line["median_ms"], rss, "decode+encode process")
            if rss:
                last_rss[("rust", "decode+encode")] = (actual, rss)
        else:
            record(size_name, actual, "rust-plist", "decode", None, None, note)

        ok, note = fits("libplist", "decode", actual)
        if ok:
            try:
                out, _, rss, _ = run_timed([libplist, path, "1"])
                line = json_lines(out)[0]
                record(size_name, actual, "c-libplist", "decode", line["min_ms"], rss)
                last_rss[("libplist", "decode")] = (actual, rss)
            except RuntimeError as failure:
                record(size_name, actual, "c-libplist", "decode", None, None, f"failed: {str(failure)[-200:]}")
        else:
            record(size_name, actual, "c-libplist", "decode", None, None, note)
        os.remove(path)

    table(rows)
    plot(rows, png_path)


def table(rows):
    print("| size | implementation | operation | time ms | MB/s | peak RSS MiB | note |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        mb = r["bytes"] / 1e6
        t = f"{r['ms']:.1f}" if r["ms"] is not None else "–"
        speed = f"{mb / (r['ms'] / 1000):.0f}" if r["ms"] else "–"
        rss = f"{r['rss_kib'] / 1024:.0f}" if r["rss_kib"] else "–"
        print(f"| {mb:.1f} MB | {r['impl']} | {r['op']} | {t} | {speed} | {rss} | {r['note']} |")


def plot(rows, png_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.2))
    series = sorted({(r["impl"], r["op"]) for r in rows})
    for impl, op in series:
        pts = [r for r in rows if (r["impl"], r["op"]) == (impl, op) and r["ms"] is not None]
        if not pts:
            continue
        xs = [r["bytes"] / 1e6 for r in pts]
        style = "-" if impl == "ours" else "--"
        left.plot(xs, [r["ms"] / 1000 for r in pts], style, marker="o", label=f"{impl} {op}")
        if impl == "ours" or op == "decode":
            rss_label = f"{impl} {op}" + (" (decode+encode process)" if impl == "rust-plist" else "")
            right.plot(xs, [r["rss_kib"] / 1024 for r in pts], style, marker="o", label=rss_label)
    for ax, title, unit in [(left, "time", "seconds"), (right, "peak RSS", "MiB")]:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("input size (MB, mixed workload)")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("bplist00 codecs against input size (one process per operation, 2-core VM)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)


if __name__ == "__main__":
    main()
