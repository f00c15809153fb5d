#!/usr/bin/env python3
"""Times clean `blog build` runs on synthetic blogs of 1,000 and 10,000 posts.

Usage: python3 bench/run.py [--sizes 1000 10000] [--runs 5] [--corpus-tool ../shared/bench/gen_corpus.py]

For each size it generates the posts once (Pelican form, ../shared/bench/gen_corpus.py), builds the
release binary, then runs `blog build` RUNS times, each into an empty output folder (a clean build),
and prints the median wall time, the fastest and slowest run, the peak memory of the slowest-memory
run (maximum resident set size from /usr/bin/time), and the number of files written.
The machine is shared: compare numbers measured in the same run, not across days.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(args, **kwargs):
    return subprocess.run(args, check=True, **kwargs)


def timed_build(binary, site, output):
    """One clean build; returns (seconds, peak RSS in MiB)."""
    shutil.rmtree(output, ignore_errors=True)
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "build", "--quiet", "--source", site, "--output", output],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"blog build failed:\n{proc.stderr}")
    peak_kib = int(proc.stderr.strip().splitlines()[-1])
    return elapsed, peak_kib / 1024


def count_files(folder):
    return sum(len(files) for _, _, files in os.walk(folder))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus-tool", default=os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py"))
    parser.add_argument("--work", default=None, help="folder for the generated blogs (default: a temporary folder)")
    args = parser.parse_args()

    if not os.path.exists("/usr/bin/time"):
        sh(["bash", os.path.join(ROOT, "scripts", "install-deps"), "time"])
    sh(["bash", os.path.join(ROOT, "scripts", "install-deps")])
    sh(["swift", "build", "-c", "release", "--product", "blog"], cwd=ROOT, stdout=subprocess.DEVNULL)
    binary = os.path.join(ROOT, ".build", "release", "blog")
    work = args.work or tempfile.mkdtemp(prefix="blog-bench-")

    print(f"blog {subprocess.run([binary, '--version'], capture_output=True, text=True).stdout.strip()}, "
          f"{os.cpu_count()} cores, {args.runs} clean builds per size")
    print(f"{'posts':>7} {'median s':>9} {'min s':>7} {'max s':>7} {'peak MiB':>9} {'files':>7}")
    for size in args.sizes:
        site = os.path.join(work, f"pelican-{size}")
        sh([sys.executable, args.corpus_tool, "--posts", str(size), "--format", "pelican", "--out", site],
           stdout=subprocess.DEVNULL)
        output = os.path.join(work, f"out-{size}")
        timed_build(binary, site, output)  # warm the file cache once
        runs = [timed_build(binary, site, output) for _ in range(args.runs)]
        seconds = [r[0] for r in runs]
        print(f"{size:>7} {statistics.median(seconds):>9.2f} {min(seconds):>7.2f} {max(seconds):>7.2f} "
              f"{max(r[1] for r in runs):>9.0f} {count_files(output):>7}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
