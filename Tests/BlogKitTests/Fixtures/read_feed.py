"""Reads a feed with feedparser, a real feed reader's parser, and prints what it saw as JSON.

Usage: python3 read_feed.py FEED_FILE
Exit status 3 when feedparser is not installed (the Swift tests then skip).
"""
import calendar
import json
import sys

try:
    import feedparser
except ImportError:
    sys.exit(3)


def epoch(parsed):
    """A time.struct_time in UTC (as feedparser gives) as seconds since 1970, or None."""
    return calendar.timegm(parsed) if parsed else None


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    # What the feed says, not feedparser's repairs: no resolving of relative links, no sanitizing.
    d = feedparser.parse(data, resolve_relative_uris=False, sanitize_html=False)
    feed = d.feed
    print(json.dumps({
        "bozo": bool(d.bozo),
        "bozo_exception": str(d.get("bozo_exception", "")),
        "version": d.version,
        "feed": {
            "title": feed.get("title"),
            "link": feed.get("link"),
            "links": [{"rel": l.get("rel"), "type": l.get("type"), "href": l.get("href")}
                      for l in feed.get("links", [])],
            "updated": epoch(feed.get("updated_parsed")),
            "language": feed.get("language"),
        },
        "entries": [{
            "title": e.get("title"),
            "link": e.get("link"),
            "id": e.get("id"),
            "published": epoch(e.get("published_parsed")),
            "updated": epoch(e.get("updated_parsed")),
            "author": e.get("author"),
            "tags": [t.get("term") for t in e.get("tags", [])],
            "summary": e.get("summary"),
            "content": [c.get("value") for c in e.get("content", [])],
        } for e in d.entries],
    }, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
