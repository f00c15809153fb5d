extension Languages {
    /// The C keywords C++ and Objective-C share.
    private static let cKeywords = """
        auto break case const continue default do else enum extern for goto if inline register restrict return
        sizeof static struct switch typedef union volatile while _Alignas _Alignof _Atomic _Bool _Complex
        _Generic _Noreturn _Static_assert _Thread_local true false NULL
        """
    /// C's type names.
    private static let cTypes = """
        char double float int long short signed unsigned void bool size_t ssize_t ptrdiff_t int8_t int16_t
        int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t wchar_t FILE
        """

    /// The rules every C-family language starts from: comments, strings, characters, numbers,
    /// preprocessor lines.
    private static func cRules(keywords: String, types: String) -> CodeRules {
        CodeRules(
            words: WordTable([(.keyword, keywords), (.type, types)]),
            declarations: WordTable([(.type, "struct union enum class namespace")]),
            lineComments: ["//"].map { Array($0.utf8) },
            blockComment: (Array("/*".utf8), Array("*/".utf8)),
            strings: [StringRule("\""), StringRule("'")],
            preprocessor: true,
            declarationsBeforeParentheses: true,
            operators: Array("+-*/%=<>!&|^~?.:".utf8),
            punctuation: Array("()[]{},;".utf8)
        )
    }

    /// C.
    static let c = Language(["c", "h"], rules: cRules(keywords: cKeywords, types: cTypes))

    /// C++: C's words and C++'s, raw strings `R"(…)"` not included.
    static let cpp = Language(["cpp", "c++", "cxx", "cc", "hpp", "hxx", "h++"], rules: {
        var rules = cRules(keywords: cKeywords + """
             alignas alignof and and_eq asm bitand bitor catch class compl concept consteval constexpr constinit
             const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export friend mutable
             namespace new noexcept not not_eq nullptr operator or or_eq private protected public
             reinterpret_cast requires static_assert static_cast template this thread_local throw try typeid
             typename using virtual xor xor_eq override final
            """, types: cTypes + " char8_t char16_t char32_t")
        rules.stringPrefixes = Array("uULR8".utf8)
        return rules
    }())

    /// Objective-C: C with `@` keywords (`@interface`, `@"strings"`) and its types.
    static let objectiveC = Language(["objc", "objectivec", "objective-c", "obj-c", "objc++", "objective-c++"], rules: {
        var rules = cRules(keywords: cKeywords + """
             @interface @implementation @end @protocol @property @synthesize @dynamic @class @selector @encode
             @try @catch @finally @throw @autoreleasepool @synchronized @optional @required @private @public
             @protected @import self super nil Nil YES NO in out inout bycopy byref oneway nonatomic atomic strong
             weak copy assign retain readonly readwrite nullable nonnull __block __weak __strong
            """, types: cTypes + " id instancetype BOOL SEL IMP Class NSInteger NSUInteger CGFloat")
        rules.identifierExtras = [UInt8(ascii: "@")]
        rules.strings = [StringRule("@\"", "\""), StringRule("\""), StringRule("'")]
        rules.atAttributes = false
        return rules
    }())
}
