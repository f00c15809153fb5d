extension Languages {
    /// Python 3: f-strings interpolate, `r"…"` is raw, a triple-quoted string starting a line is a
    /// docstring, `@name` a decorator; `def` and `class` name a function and a type.
    static let python = Language(["python", "py", "python3", "py3", "sage", "bazel", "starlark"], rules: CodeRules(
        words: WordTable([
            (.keyword, """
                and as assert async await break class continue def del elif else except finally for from global if
                import in is lambda nonlocal not or pass raise return try while with yield match case
                True False None
                """),
            (.builtin, """
                self cls print len range open int str float bool list dict set tuple type object super isinstance
                issubclass getattr setattr hasattr delattr enumerate zip map filter sorted reversed sum min max abs
                any all iter next repr format input id hash hex oct bin ord chr round divmod pow vars dir globals
                locals callable classmethod staticmethod property bytes bytearray frozenset memoryview slice
                compile eval exec help NotImplemented Ellipsis __import__
                Exception BaseException ValueError TypeError KeyError IndexError AttributeError RuntimeError
                ImportError ModuleNotFoundError OSError IOError FileNotFoundError StopIteration
                NotImplementedError ZeroDivisionError AssertionError KeyboardInterrupt SystemExit NameError
                PermissionError TimeoutError ConnectionError UnicodeDecodeError UnicodeEncodeError
                """),
            (.variable, "__name__ __file__ __doc__ __dict__ __module__ __class__ __slots__ __all__ __path__ __package__"),
        ]),
        declarations: WordTable([(.function, "def"), (.type, "class")]),
        lineComments: ["#"].map { Array($0.utf8) },
        strings: [
            StringRule("\"\"\"", multiline: true), StringRule("'''", multiline: true),
            StringRule("\""), StringRule("'"),
        ],
        stringPrefixes: Array("rRbBuUfF".utf8),
        atAttributes: true,
        docstrings: true,
        operators: Array("+-*/%=<>!&|^~.@:".utf8),
        punctuation: Array("()[]{},;".utf8)
    ))
}
