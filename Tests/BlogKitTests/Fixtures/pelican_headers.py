#!/usr/bin/env python3
"""Reads every markdown file under CONTENT_DIR with Pelican's own MarkdownReader (Python-Markdown
with its meta extension, as `pelican` reads posts) and prints, as JSON, what each header says:
title, slug, lang, date (to the minute, as written: Pelican reads it in the site's TIMEZONE),
tags, and the body's HTML. For PelicanTranslationsEndToEndTests.

Usage: pelican_headers.py CONTENT_DIR
Exit status 3 when Pelican or Markdown is missing (`pip install pelican markdown`).
"""
import copy
import json
import os
import sys

try:
    from pelican.readers import MarkdownReader
    from pelican.settings import DEFAULT_CONFIG
except ImportError as error:
    print(f"needs Pelican and Markdown: pip install pelican markdown ({error})", file=sys.stderr)
    sys.exit(3)


def main():
    root = sys.argv[1]
    reader = MarkdownReader(copy.deepcopy(DEFAULT_CONFIG))
    entries = []
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            path = os.path.join(folder, name)
            body, meta = reader.read(path)
            date = meta.get("date")
            entries.append({
                "source": os.path.relpath(path, root),
                "title": str(meta.get("title", "")),
                "slug": meta.get("slug"),
                "lang": meta.get("lang"),
                "date": date.strftime("%Y-%m-%dT%H:%M") if date else None,
                "tags": [tag.name for tag in meta.get("tags", [])],
                "body": body,
            })
    json.dump(entries, sys.stdout, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
