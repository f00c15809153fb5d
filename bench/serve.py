#!/usr/bin/env python3
"""How fast `blog serve` shows an edit: the time from saving a post to the rebuilt page being served.

Usage: python3 bench/serve.py [--posts 10000] [--edits 500] [--binary .build/release/blog]
                              [--corpus-tool ../shared/bench/gen_corpus.py]

Writes the benchmark blog (Pelican form, as bench/compare.py does), starts `blog serve --port 0` on it, waits for
the first build, then:
- body edits: appends a new paragraph to one post and polls the post's page over HTTP (every 5 ms) until it shows;
- title edits (every 50th edit): changes the post's title and polls the post's page until the new title shows;
- memory: the server's resident memory (VmRSS, from /proc) before the edits and after every 100 of `--edits`
  body edits (alternating with title edits every 50th).
Prints the medians, and the p90s, of each kind; exits 1 if an edit never shows within 60 s.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+) kB", f.read()).group(1)) / 1024


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read().decode("utf-8", "replace")
    except Exception:
        return ""


def wait_for(url, text, limit=60.0):
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if text in fetch(url):
            return time.monotonic() - start
        time.sleep(0.005)
    sys.exit(f"never served within {limit} s: {text!r} at {url}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--posts", type=int, default=10000)
    parser.add_argument("--edits", type=int, default=500)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "blog"))
    parser.add_argument("--corpus-tool", default=os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py"))
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="blog-serve-bench-")
    blog = os.path.join(work, "blog")
    subprocess.run([sys.executable, args.corpus_tool, "--posts", str(args.posts), "--format", "pelican", "--out", blog],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(blog, "blog.yml"), "w") as f:
        f.write("title: Bench\nbase_url: https://example.org/\n")
    posts = os.path.join(blog, "content", "posts")
    names = sorted(os.listdir(posts))
    edited = os.path.join(posts, names[len(names) // 2])
    original = open(edited, encoding="utf-8").read()
    title = re.search(r"^title: (.*)$", original, re.M).group(1)
    slug = re.search(r"^slug: (.*)$", original, re.M).group(1).strip()

    log = open(os.path.join(work, "serve.log"), "w+")
    started = time.monotonic()
    server = subprocess.Popen([args.binary, "serve", "--port", "0", "--future", "--source", blog], stdout=log, stderr=subprocess.STDOUT)
    try:
        url = None
        while url is None:
            if server.poll() is not None:
                log.seek(0)
                sys.exit("blog serve exited:\n" + log.read())
            log.seek(0)
            match = re.search(r"^Serving .* at (http://\S+)", log.read(), re.M)
            url = match.group(1) if match else None
            time.sleep(0.05)
        first_build = time.monotonic() - started
        page = f"{url}posts/{slug}/"
        wait_for(page, title)
        time.sleep(1)
        memory = [("start", rss_mib(server.pid))]
        body, titles = [], []
        text = original
        for edit in range(1, args.edits + 1):
            if edit % 50 == 0:
                new_title = f"{title} (edit {edit})"
                text = re.sub(r"^title: .*$", lambda _: f"title: {new_title}", text, count=1, flags=re.M)
                with open(edited, "w", encoding="utf-8") as f:
                    f.write(text)
                titles.append(wait_for(page, new_title))
            else:
                paragraph = f"Edited in round {edit}."
                text += f"\n\n{paragraph}\n"
                with open(edited, "w", encoding="utf-8") as f:
                    f.write(text)
                body.append(wait_for(page, f"<p>{paragraph}</p>"))
            if edit % 100 == 0:
                memory.append((f"after {edit} edits", rss_mib(server.pid)))

        def summary(values):
            values = sorted(values)
            return f"median {statistics.median(values) * 1000:.0f} ms, p90 {values[int(len(values) * 0.9) - 1] * 1000:.0f} ms, max {values[-1] * 1000:.0f} ms ({len(values)} edits)"

        print(f"blog serve, {args.posts} posts ({args.binary})")
        print(f"first build and serving: {first_build:.2f} s")
        print(f"body edit, save to page served: {summary(body)}")
        if titles:
            print(f"title edit, save to page served: {summary(titles)}")
        print("resident memory: " + ", ".join(f"{label} {mib:.0f} MiB" for label, mib in memory))
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
