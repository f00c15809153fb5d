/// Character references (`&amp;`, `&#58;`, `&colon;`) decoded as a browser decodes them in an
/// attribute value, so that what a check reads is what the browser will see.
///
/// The named references are HTML 4's (every Latin-1 letter and sign, Greek, the typographic ones),
/// HTML 5's names for ASCII characters (`&colon;`, `&Tab;`, `&NewLine;`, `&lpar;`: the ones a
/// URL can be spelt with) and the legacy names browsers read without `;` (`&amp`, `&copy`). A name
/// outside the table stays as written: code that writes a decoded value again escapes its `&`,
/// so the browser then reads the same text as the check did.
package enum HTMLEntities {
    /// `value`, an attribute's value as written, with its character references decoded (HTML's
    /// rules for attribute values: a legacy name without `;` followed by `=` or a letter or digit
    /// stays as written; a numeric reference needs no `;`; `&#0;`, a surrogate and a code past
    /// U+10FFFF are U+FFFD; `&#128;`…`&#159;` are windows-1252's characters).
    package static func decodeAttribute(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "&")) else { return value }
        let scalars = Array(value.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "&", let (decoded, length) = reference(in: scalars, at: index + 1) {
                out.append(contentsOf: decoded)
                index += 1 + length
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return String(out)
    }

    /// The reference right after an `&` at `start`, and how many scalars it spans; nil when there is none.
    private static func reference(in scalars: [Unicode.Scalar], at start: Int) -> ([Unicode.Scalar], Int)? {
        guard start < scalars.count else { return nil }
        if scalars[start] == "#" { return numeric(in: scalars, at: start) }
        // The longest name in the table that the text starts with.
        var end = start
        while end < scalars.count, end - start < longestName, scalars[end].isASCIIAlphanumeric { end += 1 }
        var length = end - start
        while length > 0 {
            let name = String(String.UnicodeScalarView(scalars[start..<start + length]))
            let after = start + length
            let semicolon = after < scalars.count && scalars[after] == ";"
            if let entry = table[name], semicolon || entry.legacy {
                if semicolon { return (entry.scalars, length + 1) }
                // A legacy name without `;` before `=` or a letter or digit stays as written.
                if after < scalars.count, scalars[after] == "=" || scalars[after].isASCIIAlphanumeric { return nil }
                return (entry.scalars, length)
            }
            length -= 1
        }
        return nil
    }

    /// `#` then decimal digits or `x` and hexadecimal digits, with an optional `;`.
    private static func numeric(in scalars: [Unicode.Scalar], at start: Int) -> ([Unicode.Scalar], Int)? {
        var index = start + 1
        var radix: UInt32 = 10
        if index < scalars.count, scalars[index] == "x" || scalars[index] == "X" { radix = 16; index += 1 }
        let digitsStart = index
        var code: UInt32 = 0
        while index < scalars.count, let digit = scalars[index].digitValue(radix: radix) {
            code = min(code &* radix &+ digit, 0x110000)  // stays past U+10FFFF once there
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < scalars.count, scalars[index] == ";" { index += 1 }
        return ([character(for: code)], index - start)
    }

    /// The character a numeric reference to `code` stands for.
    private static func character(for code: UInt32) -> Unicode.Scalar {
        if (0x80...0x9F).contains(code), let replaced = windows1252[code] { return replaced }
        if code == 0 { return "\u{FFFD}" }
        return Unicode.Scalar(code) ?? "\u{FFFD}"  // nil: a surrogate or past U+10FFFF
    }

    /// What browsers read `&#128;`…`&#159;` as: windows-1252's characters at those bytes.
    private static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{0192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}",
        0x87: "\u{2021}", 0x88: "\u{02C6}", 0x89: "\u{2030}", 0x8A: "\u{0160}", 0x8B: "\u{2039}", 0x8C: "\u{0152}",
        0x8E: "\u{017D}", 0x91: "\u{2018}", 0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}",
        0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{02DC}", 0x99: "\u{2122}", 0x9A: "\u{0161}", 0x9B: "\u{203A}",
        0x9C: "\u{0153}", 0x9E: "\u{017E}", 0x9F: "\u{0178}",
    ]

    /// A named reference: its characters, and whether browsers also read it without `;`.
    private struct Entry {
        var scalars: [Unicode.Scalar]
        var legacy: Bool
    }

    /// The table, read once from ``names``.
    private static let table: [String: Entry] = {
        var table: [String: Entry] = [:]
        for item in names.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = item.split(separator: "=")
            let legacy = parts[0].hasSuffix("*")
            let name = legacy ? String(parts[0].dropLast()) : String(parts[0])
            let scalars = parts[1].split(separator: "+").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            table[name] = Entry(scalars: scalars, legacy: legacy)
        }
        return table
    }()

    /// The length of the longest name.
    private static let longestName = table.keys.map(\.unicodeScalars.count).max() ?? 0

    /// `name=code` (codes in hexadecimal, `+` between two), `*` after a legacy name. Checked
    /// against Python's `html.entities.html5` by `SecuritySanitizeTests`.
    private static let names = """
        Aacute*=C1 aacute*=E1 Acirc*=C2 acirc*=E2 acute*=B4 AElig*=C6 aelig*=E6 Agrave*=C0 agrave*=E0 alefsym=2135
        Alpha=391 alpha=3B1 AMP*=26 amp*=26 and=2227 ang=2220 apos=27 Aring*=C5 aring*=E5 ast=2A asymp=2248
        Atilde*=C3 atilde*=E3 Auml*=C4 auml*=E4 bdquo=201E Beta=392 beta=3B2 brvbar*=A6 bsol=5C bull=2022 cap=2229
        Ccedil*=C7 ccedil*=E7 cedil*=B8 cent*=A2 Chi=3A7 chi=3C7 circ=2C6 clubs=2663 colon=3A comma=2C commat=40
        cong=2245 COPY*=A9 copy*=A9 crarr=21B5 cup=222A curren*=A4 Dagger=2021 dagger=2020 dArr=21D3 darr=2193
        deg*=B0 Delta=394 delta=3B4 DiacriticalGrave=60 diams=2666 divide*=F7 dollar=24 Eacute*=C9 eacute*=E9
        Ecirc*=CA ecirc*=EA Egrave*=C8 egrave*=E8 empty=2205 emsp=2003 ensp=2002 Epsilon=395 epsilon=3B5 equals=3D
        equiv=2261 Eta=397 eta=3B7 ETH*=D0 eth*=F0 Euml*=CB euml*=EB euro=20AC excl=21 exist=2203 fjlig=66+6A
        fnof=192 forall=2200 frac12*=BD frac14*=BC frac34*=BE frasl=2044 Gamma=393 gamma=3B3 ge=2265 grave=60 GT*=3E
        gt*=3E hArr=21D4 harr=2194 Hat=5E hearts=2665 hellip=2026 Iacute*=CD iacute*=ED Icirc*=CE icirc*=EE iexcl*=A1
        Igrave*=CC igrave*=EC image=2111 infin=221E int=222B Iota=399 iota=3B9 iquest*=BF isin=2208 Iuml*=CF iuml*=EF
        Kappa=39A kappa=3BA Lambda=39B lambda=3BB lang=27E8 laquo*=AB lArr=21D0 larr=2190 lbrace=7B lbrack=5B
        lceil=2308 lcub=7B ldquo=201C le=2264 lfloor=230A lowast=2217 lowbar=5F loz=25CA lpar=28 lrm=200E lsaquo=2039
        lsqb=5B lsquo=2018 LT*=3C lt*=3C macr*=AF mdash=2014 micro*=B5 midast=2A middot*=B7 minus=2212 Mu=39C mu=3BC
        nabla=2207 nbsp*=A0 ndash=2013 ne=2260 NewLine=A ni=220B not*=AC notin=2209 nsub=2284 Ntilde*=D1 ntilde*=F1
        Nu=39D nu=3BD num=23 Oacute*=D3 oacute*=F3 Ocirc*=D4 ocirc*=F4 OElig=152 oelig=153 Ograve*=D2 ograve*=F2
        oline=203E Omega=3A9 omega=3C9 Omicron=39F omicron=3BF oplus=2295 or=2228 ordf*=AA ordm*=BA Oslash*=D8
        oslash*=F8 Otilde*=D5 otilde*=F5 otimes=2297 Ouml*=D6 ouml*=F6 para*=B6 part=2202 percnt=25 period=2E
        permil=2030 perp=22A5 Phi=3A6 phi=3C6 Pi=3A0 pi=3C0 piv=3D6 plus=2B plusmn*=B1 pound*=A3 Prime=2033
        prime=2032 prod=220F prop=221D Psi=3A8 psi=3C8 quest=3F QUOT*=22 quot*=22 radic=221A rang=27E9 raquo*=BB
        rArr=21D2 rarr=2192 rbrace=7D rbrack=5D rceil=2309 rcub=7D rdquo=201D real=211C REG*=AE reg*=AE rfloor=230B
        Rho=3A1 rho=3C1 rlm=200F rpar=29 rsaquo=203A rsqb=5D rsquo=2019 sbquo=201A Scaron=160 scaron=161 sdot=22C5
        sect*=A7 semi=3B shy*=AD Sigma=3A3 sigma=3C3 sigmaf=3C2 sim=223C sol=2F spades=2660 sub=2282 sube=2286
        sum=2211 sup=2283 sup1*=B9 sup2*=B2 sup3*=B3 supe=2287 szlig*=DF Tab=9 Tau=3A4 tau=3C4 there4=2234 Theta=398
        theta=3B8 thetasym=3D1 thinsp=2009 THORN*=DE thorn*=FE tilde=2DC times*=D7 trade=2122 Uacute*=DA uacute*=FA
        uArr=21D1 uarr=2191 Ucirc*=DB ucirc*=FB Ugrave*=D9 ugrave*=F9 uml*=A8 UnderBar=5F upsih=3D2 Upsilon=3A5
        upsilon=3C5 Uuml*=DC uuml*=FC verbar=7C vert=7C VerticalLine=7C weierp=2118 Xi=39E xi=3BE Yacute*=DD
        yacute*=FD yen*=A5 Yuml=178 yuml*=FF Zeta=396 zeta=3B6 zwj=200D zwnj=200C
        """
}

private extension Unicode.Scalar {
    var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }

    /// The value of this digit in `radix` (10 or 16), or nil.
    func digitValue(radix: UInt32) -> UInt32? {
        switch self {
        case "0"..."9": return value - 0x30
        case "a"..."f" where radix == 16: return value - 0x61 + 10
        case "A"..."F" where radix == 16: return value - 0x41 + 10
        default: return nil
        }
    }
}
