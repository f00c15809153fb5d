"""Compares the post bodies blog wrote with the ones Pelican makes of the same files.

Usage: pelican_compare.py [--smarty] [--emphasis] CONTENT_FOLDER SOURCE=PAGE...
  SOURCE: a markdown file under CONTENT_FOLDER; PAGE: the page blog wrote for it.
  --smarty: Pelican's MARKDOWN setting also enables markdown.extensions.smarty.
  --emphasis: <em> and <strong> are compared too, where they open and close in the text.

Pelican reads each file with its own MarkdownReader and default settings (Python-Markdown with
codehilite, extra and meta). Both bodies are reduced to their structure and text: the block
elements in order, each with its text (white space collapsed, entities read). Attributes,
heading ids and CodeHilite's <div>/<span> wrappers are left out; quotes, dashes and ellipses
are compared as written. Prints one JSON object per body that differs and exits 1 if any does.
"""
import html.parser
import json
import os
import re
import sys


BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "pre",
          "blockquote", "table", "tr", "th", "td", "hr"}
# Inline elements compared where they open and close (--emphasis).
INLINE = set()


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
        elif tag in INLINE:
            self.text += "<%s>" % tag

    def handle_endtag(self, tag):
        if tag in BLOCKS:
            self.flush()
            self.items.append("</%s>" % tag)
        elif tag in INLINE:
            self.text += "</%s>" % tag

    def handle_data(self, data):
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


def compare(pairs, generator, read):
    """Compares each `SOURCE=PAGE` of `pairs`: `read(SOURCE)` (the generator's HTML) with the body of
    blog's PAGE; prints the ones that differ and exits 1 if any does."""
    differences = 0
    for pair in pairs:
        source, page = pair.split("=", 1)
        theirs, ours = structure(read(source)), structure(blog_body(page))
        if theirs != ours:
            differences += 1
            print(json.dumps({"source": source, generator: theirs, "blog": ours}, ensure_ascii=False))
    sys.exit(1 if differences else 0)


def main():
    # Here, so that jekyll_compare.py can use the functions above without Pelican.
    from pelican.readers import Readers
    from pelican.settings import DEFAULT_CONFIG
    arguments = sys.argv[1:]
    smarty = "--smarty" in arguments
    if "--emphasis" in arguments:
        INLINE.update({"em", "strong"})
    arguments = [argument for argument in arguments if argument not in ("--smarty", "--emphasis")]
    content = arguments[0]
    settings = dict(DEFAULT_CONFIG)
    settings["PATH"] = content
    if smarty:
        markdown = dict(settings["MARKDOWN"])
        markdown["extension_configs"] = dict(markdown["extension_configs"], **{"markdown.extensions.smarty": {}})
        settings["MARKDOWN"] = markdown
    readers = Readers(settings)
    # `_content`: the body as the reader made it; `content` would resolve `{filename}` links, which
    # needs the whole site's context (link targets are not compared: attributes are left out).
    compare(arguments[1:], "pelican", lambda source: readers.read_file(base_path=content, path=source)._content)


if __name__ == "__main__":
    main()
