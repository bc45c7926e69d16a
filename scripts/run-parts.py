#!/usr/bin/env python3
"""Runs every part of a split search on this machine, a few at a time, and
merges them: a long proof (docs/distributed.md) that survives being stopped.

    scripts/run-parts.py --dir DIR --parts N [--jobs J] [--cspi BIN] -- solve MODEL [ARGS...]

Part K runs `cspi solve MODEL ARGS --part K/N --format json` into
DIR/part-K.jsonl (its stderr into DIR/part-K.err). A part whose file holds a finished summary (any status but
UNKNOWN) is not run again, so the command can be stopped (Ctrl-C, the end of
a session) and started again with the same arguments: only the unfinished
parts run. A line per finished part says its status, CPU seconds and how
many parts are left, with an estimate of the CPU still to go from the mean
of every part timed so far, in this sitting or an earlier one (each
finished part's CPU seconds are kept beside its output, DIR/part-K.cpu);
when every part has finished, `cspi merge` prints the whole run's result
(UNSATISFIABLE only when every part is). A search for a solution (not a
count, not optimising) is answered by the first part that finds one: the
parts still running are stopped, none is started, and `cspi merge
--partial` prints that solution with the parts merged; a later sitting
finds the answer and runs nothing.

A part too long for one sitting (a proof's parts have a long tail) can be
split further: `--split K:M` runs part K as M sub-parts (`--part K/N:J/M`),
each into DIR/part-K.J-of-M.jsonl and resumable alike; `cspi merge` takes
them in the part's place. `--split K:J:L` splits sub-part J of part K (split
by another `--split K:M`) into L more (`--part K/N:J/M:I/L`), and so on. A
part or sub-part already finished whole is not split.

`--resplit M` does that by itself for what a sitting's end cut off: a part
or sub-part that an earlier sitting started and did not finish (its file
there without a finished summary, and no error of cspi's beside it) runs as
M sub-parts instead of again from its start, and so do its sub-parts in
turn, down to the sixteen levels `--part` takes (a sub-part split before keeps
the number it was split into). A part too long for any one sitting is then
finished by later ones, and a sitting's end costs at most the sub-parts it
cuts off.

`--logs` keeps a log beside each piece's output (DIR/part-K.log, `cspi solve
--part-log`): the sub-problems it searched to their end without a solution,
recorded as each ends. A piece cut off then takes up where it stopped, at
the sub-problem it was in, instead of from its start, and with the nogoods
its restarts recorded there (DIR/part-K.log.nogoods), so that a sub-problem
longer than a sitting ends over several; with `--resplit` it is split only
when its last run recorded nothing and kept no nogoods, and its CPU seconds
count what its earlier runs had spent up to their last record. For a search
without objective (cspi refuses the log with one).

What `--resplit` and `--stall` split, they split evenly (`--part K/N:J/Me`,
DIR/part-K.J-of-Me.jsonl): every sub-problem of the piece gets its share of
the split, so the one a piece was stopped in, among its last, is split too.
A piece split before keeps the way its files show; `--split K:Me` asks for
it by hand.

`--stall S` (with `--logs` and `--resplit M`) does not wait for a sitting's
end: a piece whose log has recorded no sub-problem ended for S seconds of
its CPU is stopped and run as M sub-parts at once. A proof's sub-problems
have a long tail (most end in seconds, one in thousands may run for hours);
a piece caught in one would otherwise run on, unrecorded, until the sitting
ends, and be split only then (without restart nogoods, `--restarts none`,
that work is thrown away). The CPU a piece has
spent since its log's last record is kept beside it (DIR/part-K.stall), so a
later sitting that takes it up from that record counts it towards S.
"""
import argparse
import json
import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The most levels of sub-parts `cspi solve --part` takes (K/N:J/M:...).
MAX_LEVELS = 16

# cspi's exit codes for a run that did not happen: a model error, a usage
# error, an internal error, an output error (docs/cli.md, "Exit codes").
REFUSED = (1, 2, 3, 4)


_FINISHED = {}


def finished(path):
    """The summary of a part's output, or None if it is missing or stopped early.
    A finished output is read once (the estimate asks after every part)."""
    if path in _FINISHED:
        return _FINISHED[path]
    summary = _read_summary(path)
    if summary is not None:
        _FINISHED[path] = summary
    return summary


def _read_summary(path):
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


def answers(summary):
    """Whether a finished part answers the whole run: a search for one
    solution (or -n K) that found it, not optimising (a best solution a
    limit stopped is not the end)."""
    return summary.get("status") == "SATISFIABLE" and "sense" not in summary.get("part", {})


def cpu_of(path):
    """The CPU seconds kept for a finished part (its .cpu file), or None."""
    try:
        return float(path.with_suffix(".cpu").read_text())
    except (OSError, ValueError):
        return None


def child_cpu(pid):
    """The CPU seconds a running child has used so far (Linux's /proc), or
    None where that cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def recorded(path):
    """How many sub-problems a piece's log records ended empty."""
    try:
        return path.with_suffix(".log").read_text().count('"empty"')
    except OSError:
        return 0


def said(path):
    """The first line cspi wrote on stderr for a part (beside its output, .err), if any."""
    try:
        lines = [l.strip() for l in path.with_suffix(".err").read_text().splitlines() if l.strip()]
    except OSError:
        return ""
    # A diagnostic's message is its line marked ×, after its code.
    message = next((l.lstrip("× ") for l in lines if l.startswith("×")), lines[0] if lines else "")
    return f": {message}" if message else ""


def ways(m):
    """How many sub-parts a split written "M" or "Me" makes (0 for none)."""
    return int(m.rstrip("e")) if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="where each part's output is kept")
    ap.add_argument("--parts", type=int, required=True, help="N, the number of parts")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parts run at once")
    ap.add_argument("--cspi", default=str(ROOT / "target/release/cspi"))
    ap.add_argument("--split", action="append", default=[], metavar="K:M",
                    help="run part K as M sub-parts (K/N:J/M; K:Me splits it evenly, K/N:J/Me); K:J:L "
                         "runs sub-part J of part K as L more, and so on; may be given for several parts")
    ap.add_argument("--resplit", type=int, metavar="M",
                    help="run a part or sub-part an earlier sitting left unfinished as M sub-parts")
    ap.add_argument("--logs", action="store_true",
                    help="keep each piece's empty sub-problems in DIR/part-K.log (cspi --part-log), "
                         "so that a piece cut off takes up where it stopped")
    ap.add_argument("--stall", type=float, metavar="S",
                    help="with --logs and --resplit M: a piece whose log records no sub-problem "
                         "ended for S seconds of its CPU is stopped and run as M sub-parts at once")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- solve MODEL ARGS...")
    args = ap.parse_args()
    if args.resplit is not None and args.resplit < 2:
        ap.error("--resplit M: M must be at least 2")
    if args.stall is not None and (args.resplit is None or not args.logs or args.stall <= 0):
        ap.error("--stall S needs --logs and --resplit M, and S above 0")
    # Each piece split, by its chain of numbers (K, J, ...): how, as `--part`
    # writes it, "M" or "Me" (the split spread evenly, cspi's `J/Me`).
    splits = {}
    for spec in sorted(args.split, key=lambda t: t.count(":")):
        *piece, m = spec.split(":")
        try:
            piece = tuple(int(x) for x in piece)
        except ValueError:
            piece = ()
        if not piece or not re.fullmatch(r"\d+e?", m):
            ap.error(f"--split {spec}: give K:M, part K run as M sub-parts (or K:J:L, and so on)")
        if not (1 <= piece[0] <= args.parts) or ways(m) < 1:
            ap.error(f"--split {spec}: K must be a part from 1 to {args.parts} and M at least 1")
        if len(piece) > 1 and not (piece[:-1] in splits and 1 <= piece[-1] <= ways(splits[piece[:-1]])):
            ap.error(f"--split {spec}: split {':'.join(map(str, piece[:-1]))} first, "
                     f"into at least {piece[-1]} sub-parts")
        splits[piece] = m
    # What --resplit and --stall split into: evenly, so that a piece stopped
    # in one of its last sub-problems has that one split too.
    resplit_into = f"{args.resplit}e" if args.resplit else None
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or command[0] != "solve":
        ap.error("give the run after --: solve MODEL [ARGS...]")
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)

    def split_before(stem):
        """The M an earlier sitting split this part or sub-part into (from
        the files of its sub-parts there), or None."""
        seen = {}
        for f in out.glob(f"{stem}.*-of-*.jsonl"):
            sub = re.fullmatch(r"(\d+)-of-(\d+e?)", f.name[len(stem) + 1:-len(".jsonl")])
            if sub:
                seen[sub[2]] = seen.get(sub[2], 0) + 1
        return max(seen, key=seen.get) if seen else None

    def cut_off(path):
        """Whether a piece ran before and was cut off (its file there without
        a finished summary), not ended by an error of cspi's (a diagnostic or
        an internal error on its stderr), which a split would only repeat."""
        try:
            err = path.with_suffix(".err").read_text()
        except OSError:
            err = ""
        failed = any(l.lstrip().startswith(("×", "internal error")) for l in err.splitlines())
        return path.exists() and not failed

    def progressed(path):
        """Whether the last run of a piece recorded an empty sub-problem in
        its log, or kept the nogoods of the sub-problem it was cut off in
        (`.log.nogoods`): taken up from there, it goes on, where a piece
        cut off inside one sub-problem without them would start that one
        again."""
        if Path(f"{path.with_suffix('.log')}.nogoods").exists():
            return True
        try:
            lines = path.with_suffix(".log").read_text().splitlines()
        except OSError:
            return False
        last = max((i for i, l in enumerate(lines) if '"start"' in l), default=-1)
        return any('"empty"' in l for l in lines[last + 1:])

    def cpu_before(path):
        """The CPU that earlier runs of a piece spent up to the last
        sub-problem each recorded in its log (what a piece taken up from its
        log no longer needs to do); the work in flight when one was cut off
        is done again, and counted, by the run after."""
        try:
            lines = path.with_suffix(".log").read_text().splitlines()
        except OSError:
            return 0.0
        runs, spent = [], 0.0
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("type") == "start":
                runs.append(spent)
                spent = 0.0
            elif isinstance(entry.get("cpu"), (int, float)):
                spent = max(spent, float(entry["cpu"]))
        return sum(runs)

    def resplit(piece, stem):
        """Splits (into `splits`) what an earlier sitting cut off, and its
        sub-parts cut off in turn; an explicit --split stands."""
        path = out / f"{stem}.jsonl"
        if finished(path) is not None:
            return
        m = splits.get(piece)
        if m is None and len(piece) <= MAX_LEVELS:
            again = cut_off(path) and not (args.logs and progressed(path))
            m = split_before(stem) or (resplit_into if again else None)
            if m:
                splits[piece] = m
        for j in range(1, ways(m) + 1):
            resplit(piece + (j,), f"{stem}.{j}-of-{m}")

    if args.resplit:
        for k in range(1, args.parts + 1):
            resplit((k,), f"part-{k}")

    def pieces(piece, part, stem):
        """What stands for a part or sub-part: (name, --part value, file) of
        it whole, or of its sub-parts when it is split and not finished whole."""
        path = out / f"{stem}.jsonl"
        if piece not in splits or finished(path) is not None:
            return [(part, part, path)]
        m = splits[piece]
        return [p for j in range(1, ways(m) + 1)
                for p in pieces(piece + (j,), f"{part}:{j}/{m}", f"{stem}.{j}-of-{m}")]

    def every():
        return [p for k in range(1, args.parts + 1) for p in pieces((k,), f"{k}/{args.parts}", f"part-{k}")]

    def merge_found():
        """`cspi merge --partial` over the parts finished: the solution found."""
        done = [str(path) for _, _, path in every() if finished(path) is not None]
        return subprocess.run([args.cspi, "merge", "--partial", *done]).returncode

    found = [name for name, _, path in every() if (s := finished(path)) and answers(s)]
    if found:
        print(f"part {found[0]} found a solution before: the run is answered", flush=True)
        return merge_found()
    todo = [p for p in every() if finished(p[2]) is None]
    done_before = args.parts - len({p[1].split(":")[0] for p in todo})
    print(f"{done_before} of {args.parts} parts finished before; {len(todo)} to run, {args.jobs} at a time",
          flush=True)
    running = {}
    def part_cpu():
        """The CPU of every part finished and timed, here or in an earlier
        sitting (whole, or the sum of its sub-parts), and how many parts are
        not finished: the estimate of what is left. A sitting's own parts
        alone mislead when it has finished only one or two of a long tail."""
        timed, left = [], 0
        for k in range(1, args.parts + 1):
            paths = [path for _, _, path in pieces((k,), f"{k}/{args.parts}", f"part-{k}")]
            if any(finished(path) is None for path in paths):
                left += 1
            elif None not in (cpu := [cpu_of(path) for path in paths]):
                timed.append(sum(cpu))
        return timed, left

    def stop_running():
        for proc, *_ in running.values():
            proc.terminate()
        for proc, *_ in running.values():
            proc.wait()

    def stop(*_):
        stop_running()
        print("stopped: the unfinished parts run again next time", flush=True)
        sys.exit(130)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    # --stall: for each running piece, its log's count of records and the CPU
    # (or, where unreadable, the wall clock) at which that count last changed.
    progress, stalled = {}, set()

    def clock(proc):
        cpu = child_cpu(proc.pid)
        return cpu if cpu is not None else time.time()

    def check_stalls():
        for name, (proc, _, _, path) in running.items():
            if name in stalled:
                continue
            count, now = recorded(path), clock(proc)
            last = progress.get(name)
            if last is None:
                # Taken up from its log: the CPU an earlier sitting spent in
                # the sub-problem it was cut off in counts towards the stall.
                progress[name] = (count, now - stall_credit(path, count))
            elif last[0] != count:
                progress[name] = (count, now)
                saved.pop(path, None)
            elif now - last[1] >= args.stall and len(name.split(":")) <= MAX_LEVELS:
                stalled.add(name)
                proc.terminate()
            else:
                save_stall(path, count, now - last[1])

    saved = {}

    def save_stall(path, count, spent):
        """Keeps beside a piece (.stall) the CPU it has spent since its log's
        last record, every 10 s of it, for a later sitting's stall clock."""
        if spent - saved.get(path, 0.0) >= 10:
            saved[path] = spent
            path.with_suffix(".stall").write_text(json.dumps({"records": count, "cpu": round(spent, 1)}) + "\n")

    def stall_credit(path, count):
        """The CPU an earlier run spent since the last record of a log that
        still has `count` records (0 when unknown)."""
        try:
            kept = json.loads(path.with_suffix(".stall").read_text())
        except (OSError, ValueError):
            return 0.0
        if not isinstance(kept, dict) or kept.get("records") != count:
            return 0.0
        cpu = kept.get("cpu")
        return float(cpu) if isinstance(cpu, (int, float)) and cpu > 0 else 0.0

    def split_stalled(name, path):
        """Runs a piece stopped for stalling as sub-parts, next."""
        chain = tuple(int(x.split("/")[0]) for x in name.split(":"))
        splits[chain] = resplit_into
        subs = pieces(chain, name, path.stem)
        todo[:0] = subs
        print(f"part {name}: no sub-problem ended in {args.stall:.0f} s of CPU; "
              f"run as {args.resplit} sub-parts", flush=True)

    def reap():
        """Waits for a child to end (checking for stalled pieces meanwhile
        when asked to): its pid, status and resource usage."""
        if args.stall is None:
            return os.wait3(0)
        while True:
            pid, status, usage = os.wait3(os.WNOHANG)
            if pid:
                return pid, status, usage
            check_stalls()
            time.sleep(min(1.0, args.stall / 4))

    while todo or running:
        while todo and len(running) < args.jobs:
            name, part, path = todo.pop(0)
            sink = open(path, "w")
            err = path.with_suffix(".err")
            errors = open(err, "w")
            argv = [args.cspi, *command, "--part", part, "--format", "json"]
            if args.logs:
                argv += ["--part-log", str(path.with_suffix(".log"))]
            running[name] = (subprocess.Popen(argv, stdout=sink, stderr=errors), sink, time.time(), path)
            errors.close()
        pid, status, usage = reap()
        name = next((n for n, (p, _, _, _) in running.items() if p.pid == pid), None)
        if name is None:
            continue
        proc, sink, began, path = running.pop(name)
        progress.pop(name, None)
        saved.pop(path, None)
        path.with_suffix(".stall").unlink(missing_ok=True)
        proc.returncode = os.waitstatus_to_exitcode(status)
        sink.close()
        used = usage.ru_utime + usage.ru_stime
        earlier = cpu_before(path) if args.logs else 0.0
        summary = finished(path)
        if summary:
            path.with_suffix(".cpu").write_text(f"{used + earlier:.1f}\n")
        if name in stalled and not summary:
            stalled.discard(name)
            split_stalled(name, path)
            continue
        state = summary["status"] if summary else f"not finished (exit {proc.returncode}{said(path)})"
        spent = f"{used:.1f} s of CPU"
        if earlier:
            spent += f" and {earlier:.1f} s in earlier runs"
        line = f"part {name}: {state}, {spent} ({time.time() - began:.0f} s); {len(todo) + len(running)} left"
        timed, parts_left = part_cpu()
        if timed:
            mean = sum(timed) / len(timed)
            line += (f", mean {mean:.1f} s a part over the {len(timed)} timed"
                     f" (about {parts_left * mean / 3600:.1f} h of CPU to go for {parts_left} "
                     f"part{'' if parts_left == 1 else 's'})")
        print(line, flush=True)
        if not summary and proc.returncode in REFUSED:
            # The run could not start (a bad model, flag or data file): every
            # other piece would fail alike, each leaving an empty output.
            stop_running()
            print(f"part {name} could not run (exit {proc.returncode}): the other parts stopped; "
                  f"see {path.with_suffix('.err')}", flush=True)
            return proc.returncode
        if summary and answers(summary):
            stop_running()
            print(f"part {name} found a solution: the run is answered, the other parts stopped",
                  flush=True)
            return merge_found()
    missing = [name for name, _, path in every() if finished(path) is None]
    if missing:
        print(f"{len(missing)} parts not finished: {missing[:20]}", flush=True)
        return 1
    return subprocess.run([args.cspi, "merge", *(str(path) for _, _, path in every())]).returncode


if __name__ == "__main__":
    sys.exit(main())
