#!/usr/bin/env python3
"""Runs every part of a split search on this machine, a few at a time, and
merges them: a long proof (docs/distributed.md) that survives being stopped.

    scripts/run-parts.py --dir DIR --parts N [--jobs J] [--cspi BIN] -- solve MODEL [ARGS...]

Part K runs `cspi solve MODEL ARGS --part K/N --format json` into
DIR/part-K.jsonl (its stderr into DIR/part-K.err). A part whose file holds a finished summary (any status but
UNKNOWN) is not run again, so the command can be stopped (Ctrl-C, the end of
a session) and started again with the same arguments: only the unfinished
parts run. A line per finished part says its status, CPU seconds and how
many parts are left; when every part has finished, `cspi merge` prints the
whole run's result (UNSATISFIABLE only when every part is).
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def finished(path):
    """The summary of a part's output, or None if it is missing or stopped early."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if record.get("type") == "summary":
            return record if record.get("status") != "UNKNOWN" else None
    return None


def said(out, k):
    """The first line cspi wrote on stderr for part k, if any, to show with its failure."""
    try:
        lines = [l.strip() for l in (out / f"part-{k}.err").read_text().splitlines() if l.strip()]
    except OSError:
        return ""
    # A diagnostic's message is its line marked ×, after its code.
    message = next((l.lstrip("× ") for l in lines if l.startswith("×")), lines[0] if lines else "")
    return f": {message}" if message else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="where each part's output is kept")
    ap.add_argument("--parts", type=int, required=True, help="N, the number of parts")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parts run at once")
    ap.add_argument("--cspi", default=str(ROOT / "target/release/cspi"))
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- solve MODEL ARGS...")
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or command[0] != "solve":
        ap.error("give the run after --: solve MODEL [ARGS...]")
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    todo = [k for k in range(1, args.parts + 1) if finished(out / f"part-{k}.jsonl") is None]
    done_before = args.parts - len(todo)
    print(f"{done_before} of {args.parts} parts finished before; {len(todo)} to run, {args.jobs} at a time",
          flush=True)
    running = {}
    cpu = 0.0
    ran = 0

    def stop(*_):
        for proc, _, _ in running.values():
            proc.terminate()
        for proc, _, _ in running.values():
            proc.wait()
        print("stopped: the unfinished parts run again next time", flush=True)
        sys.exit(130)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while todo or running:
        while todo and len(running) < args.jobs:
            k = todo.pop(0)
            path = out / f"part-{k}.jsonl"
            sink = open(path, "w")
            errors = open(out / f"part-{k}.err", "w")
            argv = [args.cspi, *command, "--part", f"{k}/{args.parts}", "--format", "json"]
            running[k] = (subprocess.Popen(argv, stdout=sink, stderr=errors), sink, time.time())
            errors.close()
        pid, status, usage = os.wait3(0)
        k = next((k for k, (p, _, _) in running.items() if p.pid == pid), None)
        if k is None:
            continue
        proc, sink, began = running.pop(k)
        proc.returncode = os.waitstatus_to_exitcode(status)
        sink.close()
        cpu += usage.ru_utime + usage.ru_stime
        ran += 1
        summary = finished(out / f"part-{k}.jsonl")
        state = summary["status"] if summary else f"not finished (exit {proc.returncode}{said(out, k)})"
        left = len(todo) + len(running)
        print(f"part {k}/{args.parts}: {state}, {usage.ru_utime + usage.ru_stime:.1f} s of CPU "
              f"({time.time() - began:.0f} s); {left} left, mean {cpu / ran:.1f} s a part this run",
              flush=True)
    missing = [k for k in range(1, args.parts + 1) if finished(out / f"part-{k}.jsonl") is None]
    if missing:
        print(f"{len(missing)} parts not finished: {missing[:20]}", flush=True)
        return 1
    parts = [str(out / f"part-{k}.jsonl") for k in range(1, args.parts + 1)]
    return subprocess.run([args.cspi, "merge", *parts]).returncode


if __name__ == "__main__":
    sys.exit(main())
