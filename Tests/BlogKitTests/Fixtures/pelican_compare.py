"""Compares the post bodies blog wrote with the ones Pelican makes of the same files.

Usage: pelican_compare.py CONTENT_FOLDER SOURCE=PAGE...
  SOURCE: a markdown file under CONTENT_FOLDER; PAGE: the page blog wrote for it.

Pelican reads each file with its own MarkdownReader and default settings (Python-Markdown with
codehilite, extra and meta). Both bodies are reduced to their structure and text: the block
elements in order, each with its text (white space collapsed). Attributes, heading ids,
CodeHilite's <div>/<span> wrappers and smart punctuation (blog's, which Pelican's defaults
lack) are left out. Prints one JSON object per body that differs and exits 1 if any does.
"""
import html.parser
import json
import os
import re
import sys

from pelican.readers import Readers
from pelican.settings import DEFAULT_CONFIG

BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "pre",
          "blockquote", "table", "tr", "th", "td", "hr"}
SMART = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "---", "\u2013": "--",
         "\u2026": "..."}


class Structure(html.parser.HTMLParser):
    """The block elements of an HTML fragment, each as `<tag>` then its own text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items = []
        self.text = ""

    def flush(self):
        text = re.sub(r"\s+", " ", self.text).strip()
        if text:
            self.items.append(text)
        self.text = ""

    def handle_starttag(self, tag, attrs):
        if tag in BLOCKS:
            self.flush()
            self.items.append("<%s>" % tag)
        elif tag in ("img", "br"):
            self.text += " <%s> " % tag

    def handle_endtag(self, tag):
        if tag in BLOCKS:
            self.flush()
            self.items.append("</%s>" % tag)

    def handle_data(self, data):
        for smart, plain in SMART.items():
            data = data.replace(smart, plain)
        self.text += data


def structure(fragment):
    parser = Structure()
    parser.feed(fragment)
    parser.close()
    parser.flush()
    return parser.items


def blog_body(page):
    text = open(page, encoding="utf-8").read()
    start = text.index('<div class="post-body">') + len('<div class="post-body">')
    end = text.index("</div>\n</article>", start)
    return text[start:end]


def main():
    content = sys.argv[1]
    settings = dict(DEFAULT_CONFIG)
    settings["PATH"] = content
    readers = Readers(settings)
    differences = 0
    for pair in sys.argv[2:]:
        source, page = pair.split("=", 1)
        theirs = readers.read_file(base_path=content, path=source).content
        ours = blog_body(page)
        if structure(theirs) != structure(ours):
            differences += 1
            print(json.dumps({"source": source, "pelican": structure(theirs), "blog": structure(ours)}, ensure_ascii=False))
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
