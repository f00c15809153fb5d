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


def nested_ifs(n):          # 32,000 nested {% if %} on one line (issue 26: was quadratic, 44 s)
    depth = int(32_000 * n)
    return "---\ntitle: Ifs\ndate: 2024-01-01\n---\n" + "{% if true %}" * depth + "x" + "{% endif %}" * depth + "\n"


def liquid_doubling(n):     # a text doubled by a filter in a loop of 40,000 steps (issue 26: hours before)
    return ("---\ntitle: Doubling\ndate: 2024-01-01\n---\n{% assign x = \"ab\" %}"
            f"{{% for i in (1..{int(40_000 * n)}) %}}{{% assign x = x | append: x %}}{{% endfor %}}{{{{ x | size }}}}\n")


def yaml_aliases(n):        # nested YAML aliases, 8 levels at half, 9 at full (issue 26: out of memory)
    levels = 9 if n >= 1 else 8
    lines = ["a0: &a0 [" + ", ".join(["lol"] * 9) + "]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels)]
    return "---\ntitle: Aliases\ndate: 2024-01-01\n" + "\n".join(lines) + "\n---\nBody.\n"


def wide_table(n):          # a table of 10,000 columns and 20 rows (issue 26: 26 s, quadratic in the columns)
    cols = int(10_000 * n)
    return HEADER + "|" + "a|" * cols + "\n|" + "-|" * cols + "\n" + ("|" + "b|" * cols + "\n") * 20


def long_title(n):          # a 1 MB title with 500 tags (issue 26: 1.5 GB written)
    return (f"Title: {'T' * int(1_000_000 * n)}\nDate: 2024-01-01\nTags: "
            + ", ".join(f"tag{i}" for i in range(500)) + "\n\nBody.\n")


def sanitized_divs(n):      # 100,000 open <div>s, then as many stray </div>s, under html: sanitize
    return HEADER + "<div>" * int(100_000 * n) + "\n\ntext\n\n" + "</div>" * int(100_000 * n) + "\n"


def footnote_lookalikes(n):  # 40,000 footnote lookalikes in a Hugo-form post (this stop: quadratic, 11 s at 20,000)
    piece = '<sup class="footnote-ref"><a href="#fn-x" id="y">'
    return '+++\ntitle = "Notes"\ndate = 2024-01-01\n+++\nA note[^1] ' + piece * int(40_000 * n) + "\n\n[^1]: N.\n"


POSTS = {
    "50 MB post": big_post, "100,000 lines": many_lines, "10,000 tags": many_tags,
    "50,000 nested >": nested_quotes, "50,000 nested lists": nested_lists, "100,000 backticks": backticks,
    "1,000,000 [": brackets, "100,000 Liquid tags": liquid_tags, "100,000 HTML/heading lines": html_lines,
    "32,000 nested {% if %}": nested_ifs, "Liquid text doubled 40,000 times": liquid_doubling,
    "YAML aliases 9 levels deep": yaml_aliases, "10,000-column table": wide_table,
    "1 MB title, 500 tags": long_title, "sanitize: 100,000 open <div>": sanitized_divs,
    "40,000 footnote lookalikes (Hugo)": footnote_lookalikes,
}
# The settings a case needs beyond the title and base_url.
SETTINGS = {"sanitize: 100,000 open <div>": "html: sanitize\n"}
# Where a case's post goes: Liquid runs in Jekyll-form posts only, those of a `_posts` folder.
JEKYLL = {"100,000 Liquid tags", "32,000 nested {% if %}", "Liquid text doubled 40,000 times"}


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
                    f.write("title: Hostile\nbase_url: https://example.org/\n" + SETTINGS.get(name, ""))
                if name in POSTS:
                    posts = os.path.join(folder, "content", "_posts" if name in JEKYLL else "posts")
                    os.makedirs(posts)
                    with open(os.path.join(posts, "2024-01-01-hostile.md" if name in JEKYLL else "hostile.md"), "w") as f:
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
