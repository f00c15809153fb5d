#!/usr/bin/env python3
"""Where a clean `blog build` spends its CPU and what holds its memory (issue 32).

Usage: python3 bench/profile.py --blog BIN --source BLOG [--frequency 1999] [--heaptrack] [--work DIR]

BLOG is a blog folder (blog.yml, content/), e.g. one made by ../shared/bench/gen_corpus.py --format pelican
with `title: Bench` and `base_url: https://example.org/` in blog.yml. Its output (BLOG/public), cache and
spare copy are moved aside into WORK first, never deleted (deleting 10,000 files slows the next build's
file creation on ext4, see README.md), so the build is clean.

CPU: `perf record -g` (frame pointers) of `blog build --timings --future`; every sample is put in the
`--timings` stage whose time window holds it, and in a kind of work: the innermost frame on its stack
that matches one of KINDS below. glibc has no frame pointers, so malloc/free samples have no caller; kernel
samples without a blog frame are page faults, slab and path lookups. Prints both tables as shares of the
samples, plus `/usr/bin/time`'s user, system and peak memory of a second, unprofiled build.

Memory (--heaptrack): `heaptrack` of a third build; what is live at the peak heap, grouped by the innermost
frame of blog's code on the allocation's stack. Needs perf, swift-demangle (the Swift toolchain) and,
for --heaptrack, heaptrack and heaptrack_print.
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

KINDS = [  # (kind of work, regex on a demangled frame), innermost frame first
    ("markdown: cmark-gfm (parse, render)", r"\[libcmark\]|^cmark_|houdini_"),
    ("markdown: highlighting", r"Highlighter|CodeBlockStyle|WordTable"),
    ("markdown: blog's passes", r"MarkdownRenderer|renderMarkdown|DialectDocument|GFM\.|Markdown"),
    ("templates: render", r"TemplateRenderer|renderCompiled|RenderedOnce|SiteRenderer\.pages"),
    ("template values", r"TemplateContext|PostValues|ListValues"),
    ("feeds", r"Feed|AbsoluteURLs|BodyHoles"),
    ("write: files, folders", r"SiteWriter|OutputFolder"),
    ("incremental state", r"IncrementalBuild\.state|QuickBuild|FullBuildObserver|Digest|SHA"),
    ("read posts", r"PostReader|readPosts|BoundedYAML|Yams|DateParser"),
    ("site model", r"SiteBuilder|SiteModel|Taxonom|Archive"),
    ("sitemap", r"Sitemap"),
]
ALLOCATOR = re.compile(r"malloc|_int_free|cfree|calloc|realloc|unlink_chunk|malloc_consolidate|^free$")
BLOG_FRAME = re.compile(r"Blog[A-Z][A-Za-z]*|Pipeline|Site[A-Z]|Template|Post|GFM|Markdown|Feed|Highlight|SourceText|"
                        r"Header|Escaping|BodyHoles|Slug|WebText|AbsoluteURLs|SiteState|StateWriter")


def move_aside(blog, work):
    for name in ("public", ".blog-cache", ".public.blog-spare"):
        path = os.path.join(blog, name)
        if os.path.exists(path):
            os.rename(path, os.path.join(work, f"{name.strip('.')}-{time.time_ns()}"))
    os.sync()


def build_args(binary, blog):
    return [binary, "build", "--quiet", "--timings", "--future", "--source", blog, "--output", os.path.join(blog, "public")]


def timings_of(text):
    return [(m.group(2), float(m.group(1))) for m in re.finditer(r"^\s*([\d.]+) s  (.+)$", text, re.M)]


def demangled(args):
    """stdout of `args` through swift-demangle --simplified."""
    producer = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = subprocess.run(["swift-demangle", "--simplified"], stdin=producer.stdout, capture_output=True, text=True).stdout
    producer.wait()
    return out


def perf_samples(data):
    """[(time, [(frame, is_kernel)])], innermost frame first."""
    samples, current = [], None
    for line in demangled(["perf", "script", "-i", data, "-F", "time,ip,sym,dso"]).split("\n"):
        if not line.strip():
            if current:
                samples.append(current)
            current = None
        elif line[0] not in " \t":
            match = re.search(r"(\d+\.\d+):", line)
            current = (float(match.group(1)), []) if match else None
        elif current:
            match = re.match(r"\s+[0-9a-f]+ (.*) \((.*)\)\s*$", line)
            if match:
                frame = match.group(1) + (" [libcmark]" if "libcmark" in match.group(2) else "")
                current[1].append((frame, "kernel" in match.group(2)))
    if current:
        samples.append(current)
    return samples


def kind_of(stack, rules):
    for frame, _ in stack:
        for kind, rx in rules:
            if rx.search(frame):
                return kind
    if stack and ALLOCATOR.search(stack[0][0]):
        return "glibc malloc/free (no caller recorded)"
    if stack and stack[0][1]:
        return "kernel, no blog frame (page faults, slab, lookups)"
    return "other"


def cpu_profile(args, work):
    move_aside(args.source, work)
    data = os.path.join(work, "perf.data")
    proc = subprocess.run(["perf", "record", "-F", str(args.frequency), "-g", "-o", data, *build_args(args.blog, args.source)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"perf record failed:\n{proc.stderr}")
    stages = timings_of(proc.stdout)
    samples = perf_samples(data)
    if not samples:
        sys.exit("perf recorded no samples")
    rules = [(kind, re.compile(rx)) for kind, rx in KINDS]
    start = min(t for t, _ in samples)
    windows, t = [], start
    for name, seconds in stages:
        windows.append((name, t + seconds))
        t += seconds
    by_stage = collections.defaultdict(collections.Counter)
    by_kind, kernel = collections.Counter(), collections.Counter()
    for when, stack in samples:
        stage = next((name for name, end in windows if when < end), "after the stages")
        kind = kind_of(stack, rules)
        by_stage[stage][kind] += 1
        by_kind[kind] += 1
        if stack and stack[0][1]:
            kernel[kind] += 1
    total = len(samples)
    print(f"CPU: {total:,} samples at {args.frequency} Hz ({total / args.frequency:.2f} s of CPU sampled)\n")
    print("| stage (`--timings`) | share | largest kinds of work in it |")
    print("|---|---:|---|")
    for name in [n for n, _ in stages] + ["after the stages"]:
        counts = by_stage.get(name)
        if counts:
            print(f"| {name} | {100 * sum(counts.values()) / total:.1f}% | " +
                  ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in counts.most_common(5)) + " |")
    print("\n| kind of work | share | in the kernel |")
    print("|---|---:|---:|")
    for kind, count in by_kind.most_common():
        print(f"| {kind} | {100 * count / total:.1f}% | {100 * kernel[kind] / total:.1f}% |")
    print(f"\nkernel in all: {100 * sum(kernel.values()) / total:.1f}%")


def resources(args, work):
    move_aside(args.source, work)
    proc = subprocess.run(["/usr/bin/time", "-f", "time %e %U %S %M", *build_args(args.blog, args.source)],
                          capture_output=True, text=True)
    wall, user, system, peak = re.findall(r"^time ([\d.]+) ([\d.]+) ([\d.]+) (\d+)$", proc.stderr, re.M)[-1]
    print(f"\nunprofiled build: {float(wall):.2f} s wall, {float(user):.2f} s user + {float(system):.2f} s system, "
          f"peak {int(peak) / 1024:,.0f} MiB; stages: " +
          ", ".join(f"{n} {s:.2f} s" for n, s in timings_of(proc.stdout)))


def memory_profile(args, work):
    move_aside(args.source, work)
    base = os.path.join(work, "heaptrack")
    subprocess.run(["heaptrack", "-o", base, *build_args(args.blog, args.source)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    recorded = next(os.path.join(work, n) for n in os.listdir(work) if n.startswith("heaptrack."))
    collapsed = os.path.join(work, "peak.collapsed")
    subprocess.run(["heaptrack_print", "-f", recorded, "--print-peaks", "0", "--print-allocators", "0",
                    "--print-temporary", "0", "--print-leaks", "0",
                    "-F", collapsed, "--flamegraph-cost-type", "peak"], check=True, stdout=subprocess.DEVNULL)
    owners = collections.Counter()
    for line in demangled(["cat", collapsed]).split("\n"):
        stack, _, cost = line.rpartition(" ")
        if not cost.isdigit():
            continue
        frames = [f.strip() for f in stack.split(";") if f.strip()]
        owner = next((f for f in reversed(frames) if BLOG_FRAME.search(f) and "thunk" not in f and "Parallel" not in f),
                     frames[-1] if frames else "?")
        owners[owner[:150]] += int(cost)
    total = sum(owners.values())
    print(f"\nMemory: {total / 2**20:,.0f} MiB live at the peak heap, by the innermost frame of blog's code\n")
    print("| MiB | share | allocated under |")
    print("|---:|---:|---|")
    for owner, cost in owners.most_common(20):
        print(f"| {cost / 2**20:,.1f} | {100 * cost / total:.1f}% | {owner.replace('|', '/')} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blog", required=True, help="the blog binary (a release build)")
    parser.add_argument("--source", required=True, help="the blog folder to build")
    parser.add_argument("--frequency", type=int, default=1999, help="perf's samples a second (default 1999)")
    parser.add_argument("--heaptrack", action="store_true", help="also what is live at the peak heap (slow: 3-5×)")
    parser.add_argument("--work", help="where outputs are moved and profiles kept (default: a temporary folder, kept)")
    args = parser.parse_args()
    for tool in ["perf", "swift-demangle"] + (["heaptrack", "heaptrack_print"] if args.heaptrack else []):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing")
    args.blog, args.source = os.path.abspath(args.blog), os.path.abspath(args.source)
    work = args.work or tempfile.mkdtemp(prefix="blog-profile-")
    os.makedirs(work, exist_ok=True)
    print(f"{args.blog} on {args.source}; load average {os.getloadavg()[0]:.1f}; profiles and moved outputs in {work}\n")
    cpu_profile(args, work)
    resources(args, work)
    if args.heaptrack:
        memory_profile(args, work)


if __name__ == "__main__":
    main()
