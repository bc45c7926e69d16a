#!/usr/bin/env python3
"""Boggle benchmark: models/boggle.csp on every shared board, one process per
board, against the plain Python depth-first search (../shared/peers/boggle_ref.py)
run the same way, in the same run.

For each board, each solver runs once as its own process (alternating, so
that a noisy neighbour hurts both alike); the CPU time of each process (user
+ system, from the kernel's child accounting) is summed per solver. The word
sets must be equal: cspi's words (JSON output) against the reference's
(`--words`). Prints a table per board, the totals and the ratio
cspi / reference (below 1: cspi is faster).

    cargo build --release
    python3 benches/boggle.py                       # the 41 boards, yawl dictionary
    python3 benches/boggle.py --dict dictionary-twl06.txt --only board-aqua.txt
    python3 benches/boggle.py --rounds 3            # the best of 3 per board and solver

cspi keeps a compiled copy of the dictionary in its cache (docs/globals.md,
`trie`); the first run of a new dictionary builds it, so one untimed warm-up
run comes first, as a user's second run would be.
"""
import argparse
import json
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "..", "shared", "data", "boggle")
REF = os.path.join(ROOT, "..", "shared", "peers", "boggle_ref.py")
CSPI = os.environ.get("CSPI", os.path.join(ROOT, "target", "release", "cspi"))


def timed(cmd):
    """Runs cmd; returns (stdout, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit("%s failed (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr[-500:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.stdout, cpu


def cspi_words(board, dic):
    cmd = [CSPI, "solve", os.path.join(ROOT, "models", "boggle.csp"), "--param", "board=" + board,
           "--param", "dict=" + dic, "--all", "--format", "json"]
    out, cpu = timed(cmd)
    words = set()
    for line in out.splitlines():
        rec = json.loads(line)
        if rec.get("type") == "solution":
            words.add(rec["values"]["word"] if "values" in rec else rec["word"])
    return words, cpu


def ref_words(board, dic):
    out, cpu = timed([sys.executable, REF, "--words", dic, board])
    lines = out.strip().splitlines()
    return set(lines[:-1]), cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dict", default="dictionary-yawl.txt", help="dictionary file in the data folder")
    ap.add_argument("--only", help="comma-separated board file names")
    ap.add_argument("--rounds", type=int, default=1, help="runs per board and solver; the least CPU counts")
    args = ap.parse_args()
    if not os.path.isdir(DATA):
        print("skipped: ../shared/data/boggle not found")
        return 0
    dic = os.path.join(DATA, args.dict)
    boards = sorted(f for f in os.listdir(DATA) if f.startswith("board"))
    if args.only:
        boards = [b for b in boards if b in args.only.split(",")]
    cspi_words(os.path.join(DATA, boards[0]), dic)  # builds the dictionary's cache
    print("load average at start: %.1f; CPU seconds of each whole process" % os.getloadavg()[0])
    print("| board | words | cspi CPU s | reference CPU s | same words |")
    print("|---|---:|---:|---:|---|")
    total_c = total_r = 0.0
    bad = 0
    for b in boards:
        path = os.path.join(DATA, b)
        best_c = best_r = None
        for _ in range(args.rounds):
            cw, cc = cspi_words(path, dic)
            rw, rc = ref_words(path, dic)
            best_c = cc if best_c is None else min(best_c, cc)
            best_r = rc if best_r is None else min(best_r, rc)
        same = cw == rw
        bad += not same
        total_c += best_c
        total_r += best_r
        note = "yes" if same else "NO (only cspi: %s; only ref: %s)" % (sorted(cw - rw)[:5], sorted(rw - cw)[:5])
        print("| %s | %d | %.3f | %.3f | %s |" % (b, len(rw), best_c, best_r, note), flush=True)
    print("| **total (%d boards)** | | %.2f | %.2f | %s |" % (len(boards), total_c, total_r,
                                                             "all" if not bad else "%d differ" % bad))
    print("ratio cspi / reference: %.2f" % (total_c / total_r if total_r else float("nan")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
