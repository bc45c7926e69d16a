#!/usr/bin/env python3
"""Solve a cspi model on a Ray cluster: one Ray task per part of a split.

Every task runs `cspi solve ... --part K/N --format json` (each computes its
own part of the same deterministic split, so nothing but results moves), the
driver writes the parts' outputs to a directory and combines them with
`cspi merge`. See docs/distributed.md.

    python3 contrib/ray/cspi_ray.py --parts 64 -- \\
        solve models/n-queens.csp --param n=14 --count

Without --address a local Ray cluster is started (what the tests do); with
--address auto (or ray://host:10001) the tasks go to an existing cluster.
The cspi binary, the model and its data files must be at the same paths on
every node (a shared file system), or shipped with --working-dir.
"""

import argparse
import os
import shutil
import subprocess
import sys
import time


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Run `cspi solve ... --part K/N` as Ray tasks and merge the parts.",
        usage="%(prog)s --parts N [options] -- solve MODEL [solve options]",
    )
    p.add_argument("--parts", type=int, required=True, help="number of parts N")
    p.add_argument("--address", default=None,
                   help="Ray cluster address (default: start a local cluster)")
    p.add_argument("--cspi", default=shutil.which("cspi") or "cspi",
                   help="path of the cspi binary on the nodes (default: cspi on PATH)")
    p.add_argument("--out", default="cspi-parts",
                   help="directory for the parts' outputs (default: cspi-parts)")
    p.add_argument("--cpus-per-task", type=int, default=1,
                   help="CPUs per task; each part searches on that many threads")
    p.add_argument("--working-dir", default=None,
                   help="ship this directory to the nodes (Ray runtime_env)")
    p.add_argument("--format", choices=["human", "json"], default="human",
                   help="format of the merged result")
    p.add_argument("solve", nargs=argparse.REMAINDER,
                   help="after --: the cspi command line, starting with `solve`")
    args = p.parse_args(argv)
    rest = args.solve[1:] if args.solve[:1] == ["--"] else args.solve
    if not rest or rest[0] != "solve":
        p.error("give the cspi command after --, starting with `solve`")
    if args.parts < 1:
        p.error("--parts must be at least 1")
    for flag in ("--part", "--format", "--threads"):
        if any(a == flag or a.startswith(flag + "=") for a in rest):
            p.error(f"{flag} is set by the driver; leave it out of the solve command")
    args.solve = rest
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        import ray
    except ImportError:
        print("error: the Ray driver needs Ray: pip install 'ray[default]'", file=sys.stderr)
        return 2

    @ray.remote
    def solve_part(cspi, solve, k, n, threads, cwd):
        cmd = [cspi, *solve, "--part", f"{k}/{n}", "--format", "json",
               "--threads", str(threads)]
        began = time.monotonic()
        r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        where = f"{ray.get_runtime_context().get_node_id()[:8]}/{os.getpid()}"
        return k, r.returncode, r.stdout, r.stderr, time.monotonic() - began, where

    init = {"address": args.address, "include_dashboard": False,
            "log_to_driver": False}
    if args.address is None:
        init["num_cpus"] = os.cpu_count()
    if args.working_dir:
        init["runtime_env"] = {"working_dir": args.working_dir}
    ray.init(**init)
    cpus = int(ray.cluster_resources().get("CPU", 0))
    print(f"ray {ray.__version__}: {len(ray.nodes())} node(s), {cpus} CPUs; driver pid {os.getpid()}",
          file=sys.stderr)
    cwd = None if args.working_dir else os.getcwd()
    tasks = [
        solve_part.options(num_cpus=args.cpus_per_task).remote(
            args.cspi, args.solve, k, args.parts, args.cpus_per_task, cwd)
        for k in range(1, args.parts + 1)
    ]
    os.makedirs(args.out, exist_ok=True)
    files, failed = [], False
    for k, code, out, err, secs, where in sorted(ray.get(tasks)):
        path = os.path.join(args.out, f"part-{k}-of-{args.parts}.jsonl")
        with open(path, "w") as f:
            f.write(out)
        files.append(path)
        if code != 0:
            failed = True
            print(f"error: part {k}/{args.parts} exited with {code}:\n{err}", file=sys.stderr)
        else:
            print(f"part {k}/{args.parts}: {secs:.2f} s on Ray worker {where}", file=sys.stderr)
    ray.shutdown()
    if failed:
        return 1
    merged = subprocess.run([args.cspi, "merge", *files, "--format", args.format])
    return merged.returncode


if __name__ == "__main__":
    sys.exit(main())
