#!/usr/bin/env python3
"""Replays the parts of a split over W workers: how `--part K/N` would scale
on a cluster (docs/distributed.md).

    python3 scripts/split-sim.py part-*.jsonl --workers 16,64,256

Reads each part's time: `time_ms` from the JSON summary of a `.jsonl` file,
or seconds from the first line of any other file (benches/scale.sh writes
each part's CPU seconds so, since wall times suffer from other jobs). Then schedules the parts
in order on W identical workers, each part going to the first worker free
(what a Slurm array, a Kubernetes Indexed Job or Ray does with N tasks and W
slots), and prints the makespan, the speed-up over one worker (the sum of
the parts' times) and the efficiency.
"""

import argparse
import heapq
import json
import sys


def part_time(path):
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    if not path.endswith(".jsonl"):
        return float(lines[0])
    summary = json.loads(lines[-1])
    return summary["stats"]["time_ms"] / 1000.0


def makespan(times, workers):
    free = [0.0] * min(workers, len(times))
    heapq.heapify(free)
    for t in times:
        heapq.heappush(free, heapq.heappop(free) + t)
    return max(free) if free else 0.0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("parts", nargs="+")
    p.add_argument("--workers", default="16,64,256")
    a = p.parse_args()
    times = [part_time(f) for f in a.parts]
    total = sum(times)
    print(f"{len(times)} parts, {total:.2f} s in all, longest {max(times):.3f} s")
    print("| workers | makespan (s) | speed-up | efficiency |")
    print("| ---: | ---: | ---: | ---: |")
    for w in (int(x) for x in a.workers.split(",")):
        m = makespan(times, w)
        print(f"| {w} | {m:.3f} | {total / m:.1f} | {100 * total / m / w:.0f}% |")


if __name__ == "__main__":
    sys.exit(main())
