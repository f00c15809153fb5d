#!/usr/bin/env python3
"""Bounded cost on hostile input: builds a blog holding one pathological post (or site) at full size and at half
size, and prints the CPU seconds (user + system) and peak memory of `blog build --no-cache` on each, and their ratio. Twice the input
should cost about twice (ratio near 2.0); a ratio near 4 is quadratic. The MB each build wrote are shown too: where
the output itself grows faster than the input, so does the cost of writing it. A build that fails must fail with a
`path:line:column: error:` message naming the file, never a crash.

Usage: python3 bench/hostile.py [--binary .build/release/blog] [--only NAME ...] [--scale 1.0]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = "Title: Hostile\nDate: 2024-01-01\n\n"


def big_post(n):            # ~50 MB of ordinary paragraphs at n = 1
    paragraph = "A plain sentence with *emphasis*, `code` and a [link](https://example.org/). " * 8 + "\n\n"
    return HEADER + paragraph * int(80_000 * n)


def many_lines(n):          # 100,000 short lines
    return HEADER + "".join(f"line {i} of a long post\n" for i in range(int(100_000 * n)))


def many_tags(n):           # one post with 10,000 tags
    return "Title: Tags\nDate: 2024-01-01\nTags: " + ", ".join(f"tag{i}" for i in range(int(10_000 * n))) + "\n\nBody.\n"


def nested_quotes(n):       # 50,000 nested > levels
    return HEADER + ">" * int(50_000 * n) + " deep\n"


def nested_lists(n):        # 50,000 nested list levels
    return HEADER + "".join("  " * i + "- item\n" for i in range(int(50_000 * n)))


def backticks(n):           # 100,000 backticks
    return HEADER + "`" * int(100_000 * n) + "\n"


def brackets(n):            # 1,000,000 [
    return HEADER + "[" * int(1_000_000 * n) + "\n"


def liquid_tags(n):         # 100,000 unclosed Liquid tags in a Jekyll-form post
    return "---\ntitle: Liquid\ndate: 2024-01-01\n---\n" + "{% if x %} {{ " * int(100_000 * n) + "\n"


def html_lines(n):          # 100,000 lines of inline HTML (dialect passes)
    return HEADER + "".join(f"<span>line {i}</span>\n##heading {i}\n" for i in range(int(50_000 * n)))


POSTS = {
    "50 MB post": big_post, "100,000 lines": many_lines, "10,000 tags": many_tags,
    "50,000 nested >": nested_quotes, "50,000 nested lists": nested_lists, "100,000 backticks": backticks,
    "1,000,000 [": brackets, "100,000 Liquid tags": liquid_tags, "100,000 HTML/heading lines": html_lines,
}


def every_post_every_tag(folder, n):
    """10,000 posts, each tagged with all of 100 tags and linking to every tag page."""
    posts = int(10_000 * n)
    tags = [f"t{i}" for i in range(100)]
    links = " ".join(f"[{t}](/tags/{t}/)" for t in tags)
    os.makedirs(os.path.join(folder, "content", "posts"))
    for i in range(posts):
        with open(os.path.join(folder, "content", "posts", f"p{i}.md"), "w") as f:
            f.write(f"Title: Post {i}\nDate: 2024-01-01 {i // 3600 % 24:02d}:{i // 60 % 60:02d}\nSlug: p{i}\nTags: {', '.join(tags)}\n\n{links}\n")


def build(binary, folder):
    out = os.path.join(folder, "public")
    result = subprocess.run(["/usr/bin/time", "-f", "TIME %U %S %M", binary, "build", "--no-cache", "--quiet",
                             "--source", folder, "--output", out], capture_output=True, text=True)
    match = re.search(r"TIME ([\d.]+) ([\d.]+) (\d+)", result.stderr)
    errors = [line for line in result.stderr.splitlines() if not line.startswith("TIME") and line.strip()]
    written = sum(os.path.getsize(os.path.join(where, name)) for where, _, names in os.walk(out) for name in names)
    # CPU seconds (user + system): this machine is shared, and wall time drifts with its load.
    return (float(match.group(1)) + float(match.group(2)), int(match.group(3)) / 1024, result.returncode, errors[:2],
            written / 1e6)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "blog"))
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    cases = list(POSTS) + ["10,000 posts x 100 tags, all linked"]
    print(f"{'input':38} {'half: CPU s':>11} {'MiB':>6} {'out MB':>7} {'full: CPU s':>11} {'MiB':>6} {'out MB':>7} "
          f"{'ratio':>6}  exit  message")
    for name in cases:
        if args.only and not any(o in name for o in args.only):
            continue
        row = []
        for n in (0.5 * args.scale, args.scale):
            folder = tempfile.mkdtemp(prefix="blog-hostile-")
            try:
                with open(os.path.join(folder, "blog.yml"), "w") as f:
                    f.write("title: Hostile\nbase_url: https://example.org/\n")
                if name in POSTS:
                    os.makedirs(os.path.join(folder, "content", "posts"))
                    with open(os.path.join(folder, "content", "posts", "hostile.md"), "w") as f:
                        f.write(POSTS[name](n))
                else:
                    every_post_every_tag(folder, n)
                row.append(build(args.binary, folder))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        (t1, m1, _, _, w1), (t2, m2, code, errors, w2) = row
        ratio = t2 / t1 if t1 > 0.05 else float("nan")
        print(f"{name:38} {t1:11.2f} {m1:6.0f} {w1:7.0f} {t2:11.2f} {m2:6.0f} {w2:7.0f} {ratio:6.2f}  {code:4}  "
              f"{' | '.join(errors)[:120]}", flush=True)


if __name__ == "__main__":
    main()
