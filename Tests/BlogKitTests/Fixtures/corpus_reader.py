#!/usr/bin/env python3
"""An independent reader of post headers, for the corpora end-to-end test.

Reads every *.md / *.markdown file under a content folder with Python's own parsers (yaml for
`---` headers, tomllib for `+++` headers, a few lines for Pelican `Key: value` headers) and prints,
as JSON, what each file's header says: kind (post or page), title, date (to the minute, in the
site's time zone), tags, categories, and whether it is a draft. It shares no code with blog's
Swift reader: the test compares the two.

Usage: corpus_reader.py CONTENT_DIR TIME_ZONE
"""
import datetime
import json
import os
import re
import sys
import tomllib
import zoneinfo

import yaml


def split_header(text):
    """(format, header text, body) of a post; format is yaml, toml or pelican."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n")
    stripped = text.lstrip("\n")
    for fence, fmt in (("---", "yaml"), ("+++", "toml")):
        if stripped.startswith(fence + "\n"):
            rest = stripped[len(fence) + 1:]
            match = re.search(r"^" + re.escape(fence) + r"[ \t]*$", rest, re.M)
            if match is None and fence == "---":
                match = re.search(r"^\.\.\.[ \t]*$", rest, re.M)
            return fmt, rest[:match.start()], rest[match.end():]
    lines = text.split("\n")
    header = []
    for line in lines:
        if not line.strip():
            break
        header.append(line)
    return "pelican", "\n".join(header), "\n".join(lines[len(header):])


def pelican_fields(header):
    fields = {}
    for line in header.split("\n"):
        key, _, value = line.partition(":")
        fields[key.strip().lower()] = value.strip()
    return fields


# Date shapes seen in the corpora and the issue, tried in order.
DATE_FORMATS = [
    "%Y-%m-%d %H:%M:%S %z", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d",
    "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M",
    "%Y/%m/%d %H:%M", "%Y/%m/%d", "%d/%m/%Y", "%d %B %Y", "%B %d, %Y",
]


def parse_date_text(text, zone, jekyll=False):
    text = text.strip().strip('"').strip()
    text = re.sub(r"Z$", "+0000", text)
    # Jekyll once wrote "2023-01-29 18:30:22 2023 -0800": the year again before the offset. Ruby's
    # Date._parse, which Jekyll reads dates with, takes a zone only right after the time, so a post of
    # Jekyll's (in _posts, or named by date) has the site's time there; blog keeps the offset of others.
    text = re.sub(r"^(\d{4})(-\d+-\d+ [\d:]+) \1 ([+-]\d{4})$", r"\1\2" if jekyll else r"\1\2 \3", text)
    # "2016-1-05", "T8:09:26": pad one-digit fields so strptime's patterns hold.
    text = re.sub(r"(?<=[-/ T])(\d)(?=[-/:])", r"0\1", text)
    for fmt in DATE_FORMATS:
        try:
            value = datetime.datetime.strptime(text, fmt)
        except ValueError:
            continue
        return as_site_time(value, zone)
    raise ValueError("unreadable date %r" % text)


def as_site_time(value, zone):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=zone)
    elif isinstance(value, datetime.date):
        value = datetime.datetime(value.year, value.month, value.day, tzinfo=zone)
    return value.astimezone(zone)


def minute(value):
    """ISO 8601 to the minute with the offset: 2016-11-25T10:20+01:00."""
    offset = value.strftime("%z")
    return value.strftime("%Y-%m-%dT%H:%M") + (offset[:3] + ":" + offset[3:] if offset else "")


def names(value, separators=(";", ",")):
    """Tag names from a list, or from text split on `;` when it has one, else `,`."""
    if value is None:
        return []
    if isinstance(value, list):
        items = []
        for item in value:
            if item is None:
                continue
            item = str(item)
            # A TOML/YAML list holding one comma-separated string: split it.
            if len(value) == 1 and "," in item:
                items += item.split(",")
            else:
                items.append(item)
    else:
        text = str(value)
        separator = next((s for s in separators if s in text), None)
        items = text.split(separator) if separator else [text]
    out = []
    for item in items:
        item = item.strip()
        if item and item not in out:
            out.append(item)
    return out


FILE_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})-")


def read(path, relative, zone):
    with open(path, encoding="utf-8") as f:
        fmt, header, _ = split_header(f.read())
    if fmt == "yaml":
        fields = {str(k).lower(): v for k, v in (yaml.safe_load(header) or {}).items()}
    elif fmt == "toml":
        fields = {k.lower(): v for k, v in tomllib.loads(header).items()}
    else:
        fields = pelican_fields(header)
    name = os.path.basename(relative)
    stem = os.path.splitext(name)[0]
    is_page = stem == "_index" or (fmt == "pelican" and relative.split("/")[0] == "pages")

    date = fields.get("date")
    if date is None:
        match = FILE_DATE.match(stem)
        if match:
            date = datetime.date(*map(int, match.groups()))
    if date is None:
        shown = None
    elif isinstance(date, (datetime.date, datetime.datetime)):
        shown = minute(as_site_time(date, zone))
    else:
        jekyll = fmt == "yaml" and (bool({"_posts", "_drafts"} & set(relative.split("/")[:-1])) or FILE_DATE.match(stem) is not None)
        shown = minute(parse_date_text(str(date), zone, jekyll))

    if "categories" in fields:
        categories = names(fields["categories"], separators=(" ",)) if isinstance(fields["categories"], str) \
            else names(fields["categories"])
    elif fields.get("category"):
        categories = [str(fields["category"]).strip()]
    elif fmt == "pelican" and "/" in relative:
        categories = [relative.split("/")[-2]]
    else:
        categories = []

    draft = fields.get("draft") in (True, "true") or fields.get("published") is False \
        or str(fields.get("status", "")).lower() == "draft"
    return {
        "source": relative,
        "kind": "page" if is_page else "post",
        "title": str(fields.get("title", "")).strip(),
        "date": None if is_page else shown,
        "tags": names(fields.get("tags")),
        "categories": categories,
        "draft": bool(draft),
    }


def main():
    root, zone = sys.argv[1], zoneinfo.ZoneInfo(sys.argv[2])
    out = []
    for folder, subfolders, files in os.walk(root, followlinks=True):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or not name.lower().endswith((".md", ".markdown")):
                continue
            path = os.path.join(folder, name)
            out.append(read(path, os.path.relpath(path, root).replace(os.sep, "/"), zone))
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
