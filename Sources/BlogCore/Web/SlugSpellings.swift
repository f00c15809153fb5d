// Data only: the spellings ``Slug/latin(_:)`` uses where ICU's `Any-Latin; Latin-ASCII` spells a
// letter otherwise than Unidecode (which Pelican's `slugify` runs) by a rule of spelling, and the
// Hangul jamo that spell a Hangul syllable. The engine is in Slug.swift; bench/slugs.py measures both
// against Pelican itself, script by script.

extension Slug {
    /// Where Unidecode's spelling of a letter (as written, else lower-cased) differs from ICU's by a
    /// rule of spelling. An empty spelling drops the letter, as Unidecode's punctuation-only spellings
    /// are dropped by `slugify`.
    static let unidecodeSpellings: [String: String] = [
        // Cyrillic: digraphs where ICU (ISO 9) has a letter with a mark.
        "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ю": "iu", "я": "ia", "й": "i",
        "ё": "io", "є": "ie", "ѐ": "ie", "ї": "yi", "ђ": "dj", "ѓ": "gj", "ѕ": "dz", "љ": "lj", "њ": "nj",
        "ћ": "tsh", "ќ": "kj", "џ": "dzh",
        // Cyrillic letters of Tatar, Tajik, Bashkir, Chuvash, Udmurt and Moldovan.
        "җ": "zh", "ҷ": "ch", "ҳ": "kh", "ҡ": "k", "ҫ": "s", "ӗ": "ie", "ӝ": "zh", "ӵ": "ch", "ӂ": "zh", "ҥ": "ng",
        "ҝ": "k", "ӈ": "n", "ӄ": "k", "ҭ": "t",
        // Kana: Nihon-shiki, and the long-vowel mark.
        "じ": "zi", "ジ": "zi", "ぢ": "di", "ヂ": "di", "づ": "du", "ヅ": "du", "ふ": "hu", "フ": "hu", "ー": "-",
        // Greek.
        "υ": "u", "ύ": "u", "ϋ": "u", "ΰ": "u", "χ": "kh", "Ξ": "ks",
        // Latin.
        "ŋ": "ng", "ĸ": "k",
        // Hebrew, in the plain Israeli romanization: digraphs for the fricatives, `v` for vav, `k` for
        // qof, alef as `a`; the vowel points as their vowels, sheva, dagesh and the shin/sin dots silent.
        "א": "a", "ו": "v", "כ": "kh", "ך": "kh", "צ": "ts", "ץ": "ts", "ק": "k", "ש": "sh",
        "\u{05B0}": "", "\u{05B1}": "e", "\u{05B2}": "a", "\u{05B3}": "o", "\u{05B4}": "i", "\u{05B5}": "e", "\u{05B6}": "e",
        "\u{05B7}": "a", "\u{05B8}": "a", "\u{05B9}": "o", "\u{05BA}": "o", "\u{05BB}": "u", "\u{05BC}": "", "\u{05BD}": "",
        "\u{05BF}": "", "\u{05C1}": "", "\u{05C2}": "", "\u{05C7}": "o",
        // Yiddish digraphs.
        "װ": "v", "ױ": "oy", "ײ": "ey",
        // Arabic, consonants only: alef, its hamza forms, alef maqsura and ta marbuta are not spelt,
        // ghain is `g`; Persian and Urdu letters in their common spelling.
        "ا": "", "أ": "", "إ": "", "ٱ": "", "ى": "", "ة": "", "غ": "g", "ک": "kh", "ژ": "j", "ٹ": "tt", "ڈ": "dd", "ڑ": "rr",
        "ھ": "h", "ں": "n", "ے": "y", "ۓ": "y", "ۀ": "hy", "ۃ": "", "ە": "ae",
        // Kurdish (Sorani) and Uyghur vowels and consonants.
        "ڕ": "r", "ڵ": "l", "ۆ": "oe", "ێ": "y", "ۇ": "u", "ۈ": "yu", "ې": "",
        // Thai: long vowels written twice, `cch` for cho chan, `ch` for so so, o ang not spelt.
        "จ": "cch", "ซ": "ch", "ฤ": "r", "ฦ": "l", "อ": "", "า": "aa", "ใ": "ai", "ไ": "ai", "ๅ": "ao",
        "\u{0E31}": "a", "\u{0E34}": "i", "\u{0E35}": "ii", "\u{0E36}": "ue", "\u{0E37}": "uue", "\u{0E38}": "u", "\u{0E39}": "uu",
        "\u{0E3A}": "", "\u{0E47}": "", "\u{0E48}": "", "\u{0E49}": "", "\u{0E4A}": "", "\u{0E4B}": "", "\u{0E4C}": "",
        "\u{0E4D}": "m", "\u{0E4E}": "",
        // Devanagari: a consonant without its inherent `a`, retroflexes doubled, long vowels written twice.
        "क": "k", "ख": "kh", "ग": "g", "घ": "gh", "ङ": "ng", "च": "c", "छ": "ch", "ज": "j", "झ": "jh", "ञ": "ny",
        "ट": "tt", "ठ": "tth", "ड": "dd", "ढ": "ddh", "ण": "nn", "त": "t", "थ": "th", "द": "d", "ध": "dh", "न": "n",
        "ऩ": "nnn", "प": "p", "फ": "ph", "ब": "b", "भ": "bh", "म": "m", "य": "y", "र": "r", "ऱ": "rr", "ल": "l",
        "ळ": "l", "ऴ": "lll", "व": "v", "श": "sh", "ष": "ss", "स": "s", "ह": "h",
        "आ": "aa", "ई": "ii", "ऊ": "uu", "ऍ": "en", "ऑ": "on", "ॠ": "rr", "ॡ": "ll", "ॐ": "aum",
        "\u{0901}": "n", "\u{0902}": "n", "\u{093E}": "aa", "\u{0940}": "ii", "\u{0942}": "uu", "\u{0944}": "rr",
        "\u{0945}": "en", "\u{0949}": "on", "\u{094D}": "", "\u{093C}": "", "।": " ", "॥": " ",
    ]

    /// Hangul jamo as Unicode names them (the Standard's Hangul syllable names, chapter 3.12, and
    /// Jamo.txt): a syllable is spelt as its leading consonant, vowel and trailing consonant, which is
    /// how Unidecode spells it (`한` `han`, `국` `gug`, `ㅊ` `c`, `ㄹ` `r` leading and `l` trailing).
    static let hangulLeading = ["g", "gg", "n", "d", "dd", "r", "m", "b", "bb", "s", "ss", "", "j", "jj", "c", "k", "t", "p", "h"]
    static let hangulVowels = [
        "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "weo", "we", "wi", "yu", "eu", "yi", "i",
    ]
    /// Index 0 is no trailing consonant.
    static let hangulTrailing = [
        "", "g", "gg", "gs", "n", "nj", "nh", "d", "l", "lg", "lm", "lb", "ls", "lt", "lp", "lh", "m", "b", "bs", "s", "ss",
        "ng", "j", "c", "k", "t", "p", "h",
    ]
}
