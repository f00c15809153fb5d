import BlogCore
import Foundation

/// What ``TemplateRenderer`` writes into: a ``RenderBuffer``, a ``MarkedBuffer`` (a page of a build with the
/// incremental layer: the bytes and where the post bodies went), or a `String` where the text is wanted as one (a
/// page whose markers ``BodyMarks`` fills: made from bytes, the `String` was checked as UTF-8 again).
protocol RenderOutput {
    /// Empty.
    init()
    /// `text` appended.
    mutating func write(_ text: String)
    /// Another output's text appended (a piece of an indented partial's).
    mutating func write(_ other: Self)
    /// UTF-8 appended (a text rendered once, ``RenderedOnce``).
    mutating func write(utf8: UnsafeBufferPointer<UInt8>)
    /// The text let go.
    mutating func clear()
    var isEmpty: Bool { get }
    /// Whether the text ends with a line feed that is a `Character` of its own (not the end of CR LF).
    var endsWithLineFeed: Bool { get }
    /// The memory let go, where the output holds it itself; the output must not be used after.
    func free()
    /// A post's body printed (`{{html}}` escaped by `escaper`, `{{{html}}}` not): its marker, which ``BodyMarks``
    /// replaces, in every output but ``MarkedBuffer``, which writes the body itself.
    mutating func write(body: BodyMarker, escaped: Bool, escaper: ScopeEscaper)
}

extension RenderOutput {
    /// The marker, as any value prints (``BodyMarker/renderText``, which tells ``BodyMarks`` that a text holds one).
    mutating func write(body: BodyMarker, escaped: Bool, escaper: ScopeEscaper) {
        let marker = body.renderText
        write(escaped ? escaper.escape(marker) : marker)
    }
}

/// An output a render starts at a size: the bytes of a page.
protocol SizedRenderOutput: RenderOutput {
    /// Empty, with room for `capacity` bytes.
    init(capacity: Int)
    /// The bytes written.
    var count: Int { get }
}

/// `write(_:)` is the stream's (`TextOutputStream`): an append.
extension String: RenderOutput {
    mutating func clear() {
        self = ""
    }

    var endsWithLineFeed: Bool { last == "\n" }

    mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
        append(String(decoding: utf8, as: UTF8.self))
    }

    func free() {}
}

/// The bytes a render of ``TemplateRenderer`` writes: UTF-8 appended in place into memory of its own (malloc),
/// which a page hands to the writer as its `Data` without a copy (``data()``). Appending a `String` to a `String`
/// checked both strings' forms and capacity at every tag (about 350 instructions each); here it is a capacity
/// test and a copy of the bytes.
///
/// Owned by one render: made by ``TemplateLibrary``, which either hands the memory on (``data()``, ``string()``)
/// or frees it (``free()``), once. ``Sitemap`` writes its bytes into one too.
struct RenderBuffer: SizedRenderOutput {
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    /// Empty, with room for a few bytes.
    init() {
        self.init(capacity: 0)
    }

    /// Empty, with room for `capacity` bytes.
    init(capacity: Int) {
        self.capacity = max(capacity, 256)
        base = Self.allocate(self.capacity)
    }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("out of memory for a page of \(capacity) bytes") }
        return memory.assumingMemoryBound(to: UInt8.self)
    }

    /// `bytes` appended.
    @inline(__always)
    mutating func write(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// `text`'s UTF-8 appended.
    @inline(__always)
    mutating func write(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ write(utf8: $0) }) == nil {
            var text = text
            text.withUTF8 { write(utf8: $0) }
        }
    }

    /// Another buffer's bytes appended (a piece of an indented partial's).
    mutating func write(_ other: RenderBuffer) {
        write(utf8: UnsafeBufferPointer(start: other.base, count: other.count))
    }

    var isEmpty: Bool { count == 0 }

    /// The bytes let go, the memory kept.
    mutating func clear() {
        count = 0
    }

    /// Room for `extra` more bytes, so that writing as many grows the memory at most once (here).
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    /// Room for at least `needed` bytes: twice the capacity, or more.
    private mutating func grow(to needed: Int) {
        capacity = max(needed, capacity * 2)
        guard let memory = realloc(base, capacity) else { fatalError("out of memory for a page of \(capacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Whether the bytes end with a line feed that is a `Character` of its own (not the end of CR LF): what
    /// swift-mustache's `text.last == "\n"` asks of the text rendered so far.
    var endsWithLineFeed: Bool {
        count > 0 && base[count - 1] == UInt8(ascii: "\n") && !(count > 1 && base[count - 2] == UInt8(ascii: "\r"))
    }

    /// The bytes written so far.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes as `Data` that owns the memory (freed with it). The buffer must not be used after.
    func data() -> Data {
        Data(bytesNoCopy: base, count: count, deallocator: .free)
    }

    /// The bytes in an array of their size; the memory is freed. The buffer must not be used after.
    func array() -> [UInt8] {
        defer { Foundation.free(base) }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The memory freed, the bytes not used. The buffer must not be used after.
    func free() {
        Foundation.free(base)
    }
}

/// A page's bytes as ``RenderBuffer`` writes them, with each post body written in place rather than its marker, and
/// where each went (``BodyHole``, offsets into the bytes): a build with the incremental layer renders its pages
/// into this, so that it pays for the holes only, not for a text of markers filled in afterwards.
struct MarkedBuffer: SizedRenderOutput {
    private(set) var buffer: RenderBuffer
    private(set) var holes: [BodyHole] = []

    init() {
        buffer = RenderBuffer()
    }

    init(capacity: Int) {
        buffer = RenderBuffer(capacity: capacity)
    }

    @inline(__always)
    mutating func write(_ text: String) {
        buffer.write(text)
    }

    mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
        buffer.write(utf8: utf8)
    }

    /// Another buffer's bytes and holes appended (a piece of an indented partial's).
    mutating func write(_ other: MarkedBuffer) {
        let shift = buffer.count
        for var hole in other.holes {
            hole.offset += shift
            holes.append(hole)
        }
        buffer.write(other.buffer)
    }

    /// The body in the form the marker would have been filled with: as it is where the marker is printed as it is
    /// (`{{{html}}}`, or an escaper that leaves `&` alone), escaped where the marker's `&` is `&amp;`. Any other
    /// escaping of the marker is printed as it is, as ``BodyMarks/fill(_:)`` leaves a marker it does not know.
    mutating func write(body: BodyMarker, escaped: Bool, escaper: ScopeEscaper) {
        let form: BodyForm
        if !escaped {
            form = .html
        } else {
            let marker = body.marker, shown = escaper.escape(marker)
            if shown == marker {
                form = .html
            } else if shown == PlaceholderMarks.build.mark("&amp;", body.post) {
                form = .escaped
            } else {
                // Not a marker BodyMarks fills: printed as it is, and BodyMarks hears of it.
                return buffer.write(escaper.escape(body.renderText))
            }
        }
        let start = buffer.count
        buffer.write(form == .html ? body.html : form.apply(body.html))
        holes.append(BodyHole(post: body.post, offset: start, length: buffer.count - start, form: form))
    }

    mutating func clear() {
        buffer.clear()
        holes.removeAll(keepingCapacity: true)
    }

    var isEmpty: Bool { buffer.isEmpty }
    var endsWithLineFeed: Bool { buffer.endsWithLineFeed }
    var count: Int { buffer.count }

    func free() {
        buffer.free()
    }
}
