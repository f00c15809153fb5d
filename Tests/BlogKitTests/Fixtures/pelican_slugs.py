"""Builds a content folder with Pelican itself and prints the pages it wrote for posts, tags and
categories, as JSON: {"posts": [paths], "tags": {path: [post paths]}, "categories": {...}}.

Usage: pelican_slugs.py CONTENT_FOLDER OUTPUT_FOLDER

Pelican runs with its default settings (URLs, slugs: SLUGIFY_SOURCE title, Unidecode,
SLUG_REGEX_SUBSTITUTIONS), its default theme, no feeds and time zone UTC. A post page is a top
level `.html` file other than Pelican's own lists; a tag's or category's page lists the post
pages it links to.
"""
import contextlib
import html.parser
import json
import logging
import os
import sys

from pelican import Pelican
from pelican.settings import read_settings


class Links(html.parser.HTMLParser):
    """The paths every `<a href>` of a page links to, without the leading `/`."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.paths = set()

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href") if tag == "a" else None
        if href:
            self.paths.add(href.lstrip("/"))


def listed(path, posts):
    """The post pages (of `posts`) that the page at `path` links to."""
    parser = Links()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    return sorted(parser.paths & set(posts))


def main():
    content, output = sys.argv[1], sys.argv[2]
    logging.disable(logging.WARNING)
    settings = read_settings(override={
        "PATH": content, "OUTPUT_PATH": output, "TIMEZONE": "UTC", "SITEURL": "",
        "FEED_ALL_ATOM": None, "CATEGORY_FEED_ATOM": None, "TRANSLATION_FEED_ATOM": None,
        "AUTHOR_FEED_ATOM": None, "AUTHOR_FEED_RSS": None, "CACHE_CONTENT": False,
    })
    with contextlib.redirect_stdout(sys.stderr):  # its summary line
        Pelican(settings).run()
    lists = {"index.html", "archives.html", "tags.html", "categories.html", "authors.html"}
    result = {"posts": sorted(n for n in os.listdir(output) if n.endswith(".html") and n not in lists)}
    for folder, key in (("tag", "tags"), ("category", "categories")):
        where = os.path.join(output, folder)
        names = sorted(os.listdir(where)) if os.path.isdir(where) else []
        result[key] = {folder + "/" + n: listed(os.path.join(where, n), result["posts"]) for n in names if n.endswith(".html")}
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
