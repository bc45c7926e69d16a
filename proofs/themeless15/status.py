#!/usr/bin/env python3
"""Where the proof stands in figures: how many parts have ended whole (as one
piece, or as every sub-part of the split they were run in), the CPU they took
(each piece's .cpu file), and the pieces begun and not ended, with what their
logs hold. `cspi merge --partial` checks that the pieces agree and that none
has a fill; this says how far the run has come.

    python3 proofs/themeless15/status.py [--dir DIR] [--parts 256]
"""
import argparse
import importlib.util
import re
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
# scripts/run-parts.py, the runner, for its reading of a piece's summary.
_SPEC = importlib.util.spec_from_file_location("run_parts", HERE.parent.parent / "scripts/run-parts.py")
RUNNER = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(RUNNER)
# part-K.jsonl, part-K.J-of-M.jsonl, part-K.J-of-M.I-of-L.jsonl, ... (M or Me:
# split evenly, cspi's `J/Me`)
STEM = re.compile(r"part-(\d+)((?:\.\d+-of-\d+e?)*)")
SUB = re.compile(r"\.(\d+)-of-(\d+)e?")


def status_of(path):
    """The status of a piece's finished summary; None when it has none (cut
    off, or stopped: UNKNOWN), read as the runner reads it."""
    summary = RUNNER._read_summary(path)
    return summary.get("status") if summary else None


def read(parts):
    """Every piece by its chain (K, J, I, ...): its file, its finished status
    (None when it has none) and its CPU seconds (None when not kept); and how many sub-parts each chain that
    was split was split into."""
    pieces, splits = {}, {}
    for path in parts.glob("part-*.jsonl"):
        m = STEM.fullmatch(path.stem)
        if not m:
            continue
        subs = [(int(j), int(n)) for j, n in SUB.findall(m[2])]
        chain = (int(m[1]),) + tuple(j for j, _ in subs)
        for depth, (_, n) in enumerate(subs):
            splits[chain[:depth + 1]] = n
        status = status_of(path)
        cpu = path.with_suffix(".cpu")
        seconds = float(cpu.read_text()) if status and cpu.exists() else None
        pieces[chain] = (path, status, seconds)
    return pieces, splits


def ended(chain, pieces, splits):
    """The statuses and CPU seconds of the pieces that end `chain` whole,
    or None when it has not ended."""
    _, status, seconds = pieces.get(chain, (None, None, None))
    if status:
        return [(status, seconds)]
    if chain not in splits:
        return None
    out = []
    for j in range(1, splits[chain] + 1):
        below = ended(chain + (j,), pieces, splits)
        if below is None:
            return None
        out += below
    return out


def plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=str(HERE / "parts"), help="the run's parts (default: parts/ here)")
    ap.add_argument("--parts", type=int, default=256, help="how many parts the run has")
    args = ap.parse_args()
    pieces, splits = read(Path(args.dir))
    whole, timed, statuses = [], [], set()
    for k in range(1, args.parts + 1):
        done = ended((k,), pieces, splits)
        if done is None:
            continue
        whole.append(k)
        statuses |= {s for s, _ in done}
        if all(t is not None for _, t in done):
            timed.append(sum(t for _, t in done))
    verdict = ("every one without a fill" if statuses <= {"UNSATISFIABLE"}
               else f"statuses {sorted(statuses)}: see cspi merge --partial")
    print(f"{len(whole)} of {args.parts} parts ended whole, {verdict}")
    if timed:
        mean = statistics.mean(timed)
        print(f"CPU over the {len(timed)} timed: {sum(timed):,.0f} s in all, median "
              f"{statistics.median(timed):,.0f} s, mean {mean:,.0f} s, longest {max(timed):,.0f} s; "
              f"at that mean some {(args.parts - len(whole)) * mean / 3600:.1f} h of CPU left")
    for chain in sorted(pieces):
        path, status, _ = pieces[chain]
        if status or chain in splits or chain[0] in whole:
            continue
        log = path.with_suffix(".log")
        if log.exists():
            text = log.read_text()
            empty, runs = text.count('"empty"'), text.count('"start"')
            note = f"its log: {plural(empty, 'sub-problem')} ended empty, {plural(runs, 'run')}"
        else:
            note = "no log"
        print(f"begun, not ended: {path.name} ({note})")


if __name__ == "__main__":
    main()
