#!/usr/bin/env python3
"""blog against Hugo on the same synthetic blog, in one run.

Usage: python3 bench/compare.py [--sizes 1000 10000] [--runs 3] [--corpus-tool ../shared/bench/gen_corpus.py]
                                [--work DIR] [--floor ../shared/bench/floor.c] [--no-hugo] [--rm-now]

For each size N it generates the same N posts twice with the corpus tool (Pelican form for blog,
Hugo form for Hugo; by default ../shared/bench/gen_corpus.py, beside the repository), gives the
Hugo copy the site in bench/hugo/ (config and layouts with the pages of blog's default theme:
post pages, a paginated home with summaries, tag and category pages and their Atom feeds, the
tags and categories indexes, archives, 404, the site's Atom, RSS and JSON feeds, sitemap.xml, robots.txt), builds blog in
release mode, then in each of RUNS rounds, alternating:

  blog clean        `blog build` after removing the output folder, the cache (.blog-cache/) and the
                    spare copy of the previous site (.public.blog-spare/);
                    with a build cache, also `blog build --no-cache` after removing them
  blog touched      `blog build` again, after touching one post (its modification time only)
  blog title edit   `blog build` again, after changing that post's title (lists, tags, feeds change)
  blog body edit    `blog build` again, after appending a paragraph that names the round to the end
                    of that post's body (its page and the feeds holding its body change, not its
                    title or summary); the script checks that the post's page shows it
  blog template edit `blog build` again, after changing the site's copy of one template (site-footer)
  blog title edit, --no-cache   a title edit built with `--no-cache` into the existing output
  floor             ../shared/bench/floor.c (cmark-gfm alone renders every body on 2 threads and
                    writes one file per post) on the same posts, after removing its output
  hugo clean        `hugo` after removing its output (public/) and resources/

Removed folders are moved aside and deleted when the run ends (see Trash; --rm-now deletes them
at once): on this machine's file system the first build after a big deletion pays for it. Before
each timed build the script runs `sync` (untimed), so that no build waits for the disk writes the
previous one left behind.

It prints, per size and kind of build, the median, fastest and slowest wall time, the peak memory
(maximum resident set size, from /usr/bin/time) and the files in the output folder; then the
ratios Hugo/blog, incremental/clean, blog's 10,000/1,000 growth, and the median seconds of each of
blog's stages (`blog build --timings`) in the clean builds and in the body edits. Incremental builds
use blog's on-disk cache when the blog has one; without it they are whole builds into an existing
output folder.

Hugo 0.111 is expected (Debian: `apt-get install -y hugo`). The machine may be shared: compare
numbers of one run, not across days.
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HUGO_SITE = os.path.join(ROOT, "bench", "hugo")
BASE_URL = "https://example.org/"
BLOG_CLEAN, BLOG_NO_CACHE, BLOG_TITLE_NO_CACHE, BLOG_TOUCHED, BLOG_TITLE, BLOG_BODY, BLOG_TEMPLATE, FLOOR, HUGO_CLEAN = (
    "clean", "clean, --no-cache", "one title edited, --no-cache", "one post touched", "one title edited",
    "one body edited", "one template edited", "floor", "hugo")


def sh(args, **kwargs):
    return subprocess.run(args, check=True, **kwargs)


class Trash:
    """Where clean builds put the folders they remove, deleted when the run ends (or at once with
    --rm-now). On a file system such as this machine's (ext4 without a journal), a new file skips
    the inodes freed in the last minute one by one, or in the last six while the inode table is not
    yet written back (perf: recently_deleted), so a build soon after deleting 20,000 files pays for
    the deletion; moving the folder aside keeps the build
    clean (its output folder and cache do not exist) without timing the deletion's aftermath."""

    def __init__(self, work, now):
        self.folder, self.now, self.count = os.path.join(work, "trash"), now, 0

    def remove(self, path):
        if not os.path.exists(path):
            return
        if self.now:
            shutil.rmtree(path)
            return
        os.makedirs(self.folder, exist_ok=True)
        self.count += 1
        os.rename(path, os.path.join(self.folder, str(self.count)))

    def empty(self):
        shutil.rmtree(self.folder, ignore_errors=True)


def count_files(folder):
    return sum(len(files) for _, _, files in os.walk(folder))


def measured(args, cwd=None):
    """Runs `args` under /usr/bin/time; returns (seconds, peak RSS in MiB, stdout).

    Writes every dirty page to disk first (`sync`, untimed): no build pays for the disk writes of
    the one before (Hugo leaves 300 MB of them, and blog's flush before it publishes would wait
    for them)."""
    os.sync()
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "peak-kib %M", *args], cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)} failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    peak = re.findall(r"^peak-kib (\d+)$", proc.stderr, re.M)
    return elapsed, int(peak[-1]) / 1024, proc.stdout


class BlogSite:
    """The Pelican-form copy of the posts, built by `blog`."""

    def __init__(self, binary, folder, corpus_tool, size, trash):
        self.binary, self.folder, self.trash = binary, folder, trash
        sh([sys.executable, corpus_tool, "--posts", str(size), "--format", "pelican", "--out", folder],
           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(os.path.join(folder, "blog.yml"), "w") as f:
            f.write(f"title: Bench\nbase_url: {BASE_URL}\n")
        self.output = os.path.join(folder, "public")
        posts = os.path.join(folder, "content", "posts")
        self.edited = os.path.join(posts, sorted(os.listdir(posts))[len(os.listdir(posts)) // 2])
        with open(self.edited, encoding="utf-8") as f:
            self.original = f.read()
        self.title = re.search(r"^title: (.*)$", self.original, re.M).group(1)
        self.slug = re.search(r"^slug: (.*)$", self.original, re.M).group(1).strip()
        self.edits = self.body_edits = 0

    def build(self, *flags):
        """(seconds, peak MiB, {stage: seconds})"""
        seconds, peak, out = measured([self.binary, "build", "--quiet", "--timings", "--future", *flags,
                                       "--source", self.folder, "--output", self.output])
        stages = {m.group(2): float(m.group(1)) for m in re.finditer(r"^\s*([\d.]+) s  (.+)$", out, re.M)}
        return seconds, peak, stages

    def clean(self):
        self.trash.remove(self.output)
        self.trash.remove(os.path.join(self.folder, ".blog-cache"))
        # The previous site blog keeps beside the output to update into the next one.
        self.trash.remove(os.path.join(self.folder, ".public.blog-spare"))

    def touch(self):
        os.utime(self.edited)

    def edit_title(self):
        """Changes the title only: the paragraphs earlier body edits appended stay."""
        self.edits += 1
        with open(self.edited, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"^title: .*$", lambda _: f"title: {self.title} (edit {self.edits})", text, count=1, flags=re.M)
        with open(self.edited, "w", encoding="utf-8") as f:
            f.write(text)

    def edit_body(self):
        """Appends a paragraph after all of the body, new each round (the summary, its first
        paragraph, and the title stay); returns the paragraph."""
        self.body_edits += 1
        paragraph = f"Edited in round {self.body_edits}."
        with open(self.edited, "a", encoding="utf-8") as f:
            f.write(f"\n\n{paragraph}\n")
        return paragraph

    def check_page(self, paragraph):
        """Fails unless the edited post's page (`posts/<slug>/`, the default permalink) shows `paragraph`."""
        page = os.path.join(self.output, "posts", self.slug, "index.html")
        try:
            with open(page, encoding="utf-8") as f:
                html = f.read()
        except FileNotFoundError:
            sys.exit(f"body edit: no page for the edited post {self.edited} at {page}")
        if f"<p>{paragraph}</p>" not in html:
            sys.exit(f"body edit: {page} lacks the paragraph appended to {self.edited}: {paragraph!r}")

    def edit_template(self, round_number):
        """Overrides the default theme's footer with a copy that ends with a comment naming the round."""
        with open(os.path.join(ROOT, "themes", "default", "templates", "site-footer.mustache"), encoding="utf-8") as f:
            footer = f.read()
        folder = os.path.join(self.folder, "themes", "default", "templates")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "site-footer.mustache"), "w", encoding="utf-8") as f:
            f.write(footer + f"<!-- round {round_number} -->\n")

    def restore(self):
        with open(self.edited, "w", encoding="utf-8") as f:
            f.write(self.original)
        shutil.rmtree(os.path.join(self.folder, "themes"), ignore_errors=True)


class Floor:
    """../shared/bench/floor.c, built beside the corpus tool's folder into the work folder."""

    def __init__(self, source, work, posts, trash):
        self.binary, self.posts, self.trash = os.path.join(work, "floor"), posts, trash
        self.output = os.path.join(work, f"floor-out-{os.path.basename(os.path.dirname(os.path.dirname(posts)))}")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libcmark-gfm"], capture_output=True, text=True,
                               check=True).stdout.split()
        sh(["cc", "-O2", "-o", self.binary, source, *flags, "-lcmark-gfm-extensions", "-lpthread"])

    def build(self):
        self.trash.remove(self.output)
        os.makedirs(self.output)
        return measured([self.binary, self.posts, self.output, "2"])


class HugoSite:
    """The Hugo-form copy of the posts with bench/hugo/ around it."""

    def __init__(self, folder, corpus_tool, size, trash):
        self.folder, self.trash = folder, trash
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(HUGO_SITE, folder)
        os.makedirs(os.path.join(folder, "static"), exist_ok=True)
        shutil.copy(os.path.join(ROOT, "themes", "default", "static", "style.css"), os.path.join(folder, "static"))
        sh([sys.executable, corpus_tool, "--posts", str(size), "--format", "hugo", "--out", folder],
           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.output = os.path.join(folder, "public")

    def clean(self):
        self.trash.remove(self.output)
        self.trash.remove(os.path.join(self.folder, "resources"))

    def build(self):
        seconds, peak, _ = measured(["hugo", "--quiet", "--source", self.folder, "--destination", self.output])
        return seconds, peak, {}


def hugo_version():
    if not shutil.which("hugo"):
        sys.exit("hugo is not installed: on Debian or Ubuntu, `apt-get install -y hugo` (0.111 expected), "
                 "or run with --no-hugo to time blog alone")
    version = subprocess.run(["hugo", "version"], capture_output=True, text=True).stdout
    match = re.search(r"v(\d+\.\d+\.\d+)", version)
    number = match.group(1) if match else version.strip()
    if not number.startswith("0.111."):
        print(f"note: Hugo {number} here; the layouts in bench/hugo/ were written for 0.111", file=sys.stderr)
    return number


def seconds_text(s):
    return f"{s:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000], help="posts per blog (default 1000 10000)")
    parser.add_argument("--runs", type=int, default=3, help="rounds per size (default 3)")
    parser.add_argument("--corpus-tool", default=os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py"),
                        help="the corpus generator (default ../shared/bench/gen_corpus.py beside the repository)")
    parser.add_argument("--work", help="folder for the generated blogs (default: a temporary folder, removed after)")
    parser.add_argument("--floor", default=os.path.join(ROOT, "..", "shared", "bench", "floor.c"),
                        help="the floor's C source (default ../shared/bench/floor.c beside the repository); skipped when missing")
    parser.add_argument("--no-hugo", action="store_true", help="time blog alone")
    parser.add_argument("--rm-now", action="store_true",
                        help="delete the output before each clean build instead of moving it aside until the end")
    args = parser.parse_args()

    if not os.path.exists(args.corpus_tool):
        sys.exit(f"no corpus tool at {args.corpus_tool}: pass --corpus-tool PATH/gen_corpus.py")
    if not os.path.exists("/usr/bin/time"):
        sys.exit("/usr/bin/time is missing: `apt-get install -y time`")
    hugo = None if args.no_hugo else hugo_version()
    sh(["bash", os.path.join(ROOT, "scripts", "install-deps")])
    sh(["swift", "build", "-c", "release", "--product", "blog"], cwd=ROOT, stdout=subprocess.DEVNULL)
    binary = os.path.join(ROOT, ".build", "release", "blog")
    work = args.work or tempfile.mkdtemp(prefix="blog-compare-")
    os.makedirs(work, exist_ok=True)

    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    # With a build cache (cache_dir), a clean build also fills it; --no-cache times a build without it.
    has_cache = "--no-cache" in subprocess.run([binary, "build", "--help"], capture_output=True, text=True).stdout
    print(f"blog {version}" + (f", Hugo {hugo}" if hugo else "") +
          f", {os.cpu_count()} cores, {args.runs} rounds per size, clean and incremental builds alternating\n")
    rows, notes, clean_medians = [], [], {}
    # One trash for the whole run, emptied at its end: deleting the first size's folders would
    # slow the file creation of the next size's first builds (see Trash).
    trash = Trash(work, args.rm_now)
    for size in args.sizes:
        blog = BlogSite(binary, os.path.join(work, f"blog-{size}"), args.corpus_tool, size, trash)
        hugo_site = HugoSite(os.path.join(work, f"hugo-{size}"), args.corpus_tool, size, trash) if hugo else None
        # Warm the file cache once, untimed.
        blog.clean(); blog.build()
        if hugo_site:
            hugo_site.clean(); hugo_site.build()

        floor = Floor(args.floor, work, os.path.join(blog.folder, "content", "posts"), trash) if os.path.exists(args.floor) else None
        results = {kind: [] for kind in (BLOG_CLEAN, BLOG_NO_CACHE, BLOG_TITLE_NO_CACHE, BLOG_TOUCHED, BLOG_TITLE, BLOG_BODY,
                                         BLOG_TEMPLATE, FLOOR, HUGO_CLEAN)}
        stages = {BLOG_CLEAN: [], BLOG_BODY: []}
        files = {}
        try:
            for round_number in range(1, args.runs + 1):
                blog.clean()
                seconds, peak, timing = blog.build()
                results[BLOG_CLEAN].append((seconds, peak))
                stages[BLOG_CLEAN].append(timing)
                files[BLOG_CLEAN] = count_files(blog.output)
                if has_cache:
                    blog.clean()
                    results[BLOG_NO_CACHE].append(blog.build("--no-cache")[:2])
                    files[BLOG_NO_CACHE] = count_files(blog.output)
                    blog.edit_title()
                    results[BLOG_TITLE_NO_CACHE].append(blog.build("--no-cache")[:2])
                    files[BLOG_TITLE_NO_CACHE] = count_files(blog.output)
                    blog.clean()
                    blog.build()  # the cache the incremental builds start from
                blog.touch()
                results[BLOG_TOUCHED].append(blog.build()[:2])
                files[BLOG_TOUCHED] = count_files(blog.output)
                blog.edit_title()
                results[BLOG_TITLE].append(blog.build()[:2])
                files[BLOG_TITLE] = count_files(blog.output)
                paragraph = blog.edit_body()
                seconds, peak, timing = blog.build()
                results[BLOG_BODY].append((seconds, peak))
                stages[BLOG_BODY].append(timing)
                blog.check_page(paragraph)
                files[BLOG_BODY] = count_files(blog.output)
                blog.edit_template(round_number)
                results[BLOG_TEMPLATE].append(blog.build()[:2])
                files[BLOG_TEMPLATE] = count_files(blog.output)
                if floor:
                    seconds, peak, _ = floor.build()
                    results[FLOOR].append((seconds, peak))
                    files[FLOOR] = count_files(floor.output)
                if hugo_site:
                    hugo_site.clean()
                    results[HUGO_CLEAN].append(hugo_site.build()[:2])
                    files[HUGO_CLEAN] = count_files(hugo_site.output)
        finally:
            blog.restore()

        def median(kind):
            return statistics.median(s for s, _ in results[kind])

        for kind, runs in results.items():
            if not runs:
                continue
            name, build = ((f"Hugo {hugo}", "clean") if kind == HUGO_CLEAN else ("floor.c", "2 threads") if kind == FLOOR
                           else ("blog", kind))
            times = [s for s, _ in runs]
            rows.append(f"| {size:,} | {name} | {build} | {seconds_text(statistics.median(times))} | "
                        f"{seconds_text(min(times))} | {seconds_text(max(times))} | "
                        f"{max(p for _, p in runs):,.0f} MiB | {files[kind]:,} |")
        clean = median(BLOG_CLEAN)
        clean_medians[size] = clean
        line = f"{size:,} posts:"
        if hugo_site:
            hugo_peak = max(p for _, p in results[HUGO_CLEAN])
            blog_peak = max(p for _, p in results[BLOG_CLEAN])
            if results[BLOG_NO_CACHE]:
                line += f" Hugo/blog --no-cache {median(HUGO_CLEAN) / median(BLOG_NO_CACHE):.1f}×;"
            line += (f" Hugo/blog {median(HUGO_CLEAN) / clean:.1f}× (clean builds);"
                     f" blog's peak memory {blog_peak / hugo_peak:.0%} of Hugo's;")
            aliases = sum(1 for root, _, names in os.walk(hugo_site.output) for n in names
                          if n == "index.html" and root.endswith(os.sep + "page" + os.sep + "1"))
            line += f" Hugo's files include {aliases} page/1/ redirects blog does not write;"
        if results[FLOOR]:
            line += f" blog clean/floor {clean / median(FLOOR):.2f}×"
            if results[BLOG_NO_CACHE]:
                line += f", --no-cache/floor {median(BLOG_NO_CACHE) / median(FLOOR):.2f}×"
            line += ";"
        line += (f" touched/clean {median(BLOG_TOUCHED) / clean:.0%}, title edit/clean {median(BLOG_TITLE) / clean:.0%},"
                 f" body edit/clean {median(BLOG_BODY) / clean:.0%}, template edit/clean {median(BLOG_TEMPLATE) / clean:.0%}")
        if results[BLOG_TITLE_NO_CACHE]:
            line += f"; title edit --no-cache/clean {median(BLOG_TITLE_NO_CACHE) / clean:.0%}"
        notes.append(line)
        for kind, builds in ((BLOG_CLEAN, "clean builds"), (BLOG_BODY, "body edits")):
            keys = list(dict.fromkeys(k for t in stages[kind] for k in t))
            notes.append(f"{size:,} posts, blog's stages (median of the {builds}): " +
                         ", ".join(f"{k} {statistics.median(t.get(k, 0) for t in stages[kind]):.2f} s" for k in keys))

    trash.empty()
    print("| posts | generator | build | median | fastest | slowest | peak memory | files |")
    print("|---:|---|---|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print()
    for line in notes:
        print(f"- {line}")
    if len(clean_medians) > 1:
        small, large = min(clean_medians), max(clean_medians)
        print(f"- blog, clean: {large:,} posts take {clean_medians[large] / clean_medians[small]:.1f}× "
              f"the time of {small:,}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
