#!/usr/bin/env python3
"""The oracle for blog's syntax highlighter: reads a JSON list of {"language": ..., "code": ...} from the file
named by its argument and
writes a JSON list with, for each block, a class family per character of the code (a string as long as the
code, in characters), from Pygments' tokens mapped onto blog's families (see FAMILIES), or null when Pygments
knows no lexer for the language. Used by HighlightOracleTests."""
import json
import multiprocessing
import sys

from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from pygments import token as T

# Pygments' token types, most specific first, and the family letter blog's classes map onto (the test maps
# blog's classes the same way). Families merge what the two highlighters split differently on purpose:
# doc comments and docstrings are comments; attributes and preprocessor lines are "meta";
# operators and punctuation are one family (Pygments itself calls `.` an operator in Python, punctuation in C).
FAMILIES = [
    (T.String.Doc, "c"),
    (T.String.Interpol, "s"),
    (T.String.Escape, "s"),
    (T.String, "s"),
    (T.Comment.Preproc, "a"),
    (T.Comment.PreprocFile, "a"),
    (T.Comment, "c"),
    (T.Number, "m"),
    (T.Keyword.Type, "t"),
    (T.Keyword, "k"),
    (T.Operator.Word, "k"),
    (T.Operator, "o"),
    (T.Punctuation, "o"),
    (T.Name.Builtin.Pseudo, "b"),
    (T.Name.Builtin, "b"),
    (T.Name.Exception, "b"),
    (T.Name.Function, "f"),
    (T.Name.Class, "t"),
    (T.Name.Decorator, "a"),
    (T.Name.Attribute, "n"),
    (T.Name.Tag, "g"),
    (T.Name.Variable, "v"),
    (T.Generic.Inserted, "i"),
    (T.Generic.Deleted, "d"),
    (T.Generic.Heading, "h"),
    (T.Generic.Subheading, "h"),
    (T.Generic.Prompt, "p"),
    (T.Generic.Output, "O"),
]


def family(ttype):
    for parent, letter in FAMILIES:
        if ttype in parent:
            return letter
    return "."


def classes(language, code):
    try:
        lexer = get_lexer_by_name(language, stripnl=False, stripall=False, ensurenl=False)
    except ClassNotFound:
        return None
    out = []
    for ttype, text in lexer.get_tokens(code):
        out.append(family(ttype) * len(text))
    result = "".join(out)
    # Pygments turns \r\n and tabs as given; the lengths agree unless it changed the text.
    return result if len(result) == len(code) else None


def classes_of(block):
    return classes(block["language"], block["code"])


def main(path):
    with open(path, encoding="utf-8") as f:
        blocks = json.load(f)
    # Pygments takes a few microseconds a character: the blocks are shared out among the cores.
    with multiprocessing.Pool() as pool:
        json.dump(pool.map(classes_of, blocks, chunksize=16), sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--show":
        # Exploring: pygments_tokens.py --show LANGUAGE < code prints the tokens.
        lexer = get_lexer_by_name(sys.argv[2])
        for ttype, text in lexer.get_tokens(sys.stdin.read()):
            print(str(ttype), repr(text))
    else:
        main(sys.argv[1])
