#!/usr/bin/env python3
"""scripts/typedstream_peer.py FILE REPS - the Python peer of the typedstream rows.

Reads FILE (a typedstream, or a binary plist whose root array holds typedstreams, as `bplist generate
messages|typedstream` writes them) before any timing, then times `typedstream.unarchive_from_data` on
every stream, WARMUP (default 1) untimed and REPS timed times, and prints one JSON line in `bplist
bench`'s format, op "ts-decode" (the typed objects, as our ts-decode builds them).

The module is python-typedstream by dgelessus, published on PyPI as "pytypedstream" (LGPL-3.0):
scripts/compare-typedstream installs it into a scratch virtual environment; nothing of it is in
this repository.
"""

import json
import os
import plistlib
import statistics
import sys
import time

import typedstream


def main() -> None:
    path, reps = sys.argv[1], int(sys.argv[2])
    warmup = int(os.environ.get("WARMUP", "1"))
    with open(path, "rb") as f:
        data = f.read()
    blobs = plistlib.loads(data) if data.startswith(b"bplist") else [data]
    times = []
    for i in range(warmup + reps):
        start = time.perf_counter()
        for blob in blobs:
            typedstream.unarchive_from_data(blob)
        elapsed = (time.perf_counter() - start) * 1e3
        if i >= warmup:
            times.append(elapsed)
    name = os.path.splitext(os.path.basename(path))[0]
    print(json.dumps({
        "peer": "python-typedstream", "workload": name, "op": "ts-decode",
        "median_ms": statistics.median(times), "min_ms": min(times), "times_ms": times,
        "in_bytes": len(data), "out_bytes": 0, "items": len(blobs),
    }), flush=True)


if __name__ == "__main__":
    main()
