"""Compares the post bodies blog wrote with the ones Jekyll (kramdown) wrote for the same files.

Usage: jekyll_compare.py [--generator NAME] [--emphasis] THEIRS=OURS...
  THEIRS: the page Jekyll wrote, whose layout is the post's content alone; OURS: the page blog wrote.
  --generator NAME: another generator wrote THEIRS the same way (hugo), named so in the report.
  --emphasis: <em> and <strong> are compared too, where they open and close in the text.

Both bodies are reduced to their structure and text as pelican_compare.py does. Prints one JSON
object per body that differs and exits 1 if any does.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pelican_compare import INLINE, compare  # noqa: E402

if __name__ == "__main__":
    arguments = sys.argv[1:]
    generator = "jekyll"
    if arguments[:1] == ["--generator"]:
        generator, arguments = arguments[1], arguments[2:]
    if arguments[:1] == ["--emphasis"]:
        INLINE.update({"em", "strong"})
        arguments = arguments[1:]
    compare(arguments, generator, lambda page: open(page, encoding="utf-8").read())
