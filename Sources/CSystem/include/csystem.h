#ifndef BLOG_CSYSTEM_H
#define BLOG_CSYSTEM_H

#include <stddef.h>

/// Atomically exchanges two paths (Linux renameat2 with RENAME_EXCHANGE, macOS renamex_np with RENAME_SWAP).
/// Returns 0 on success; -1 with errno set otherwise (ENOSYS/EINVAL where unsupported).
int blog_exchange_paths(const char *a, const char *b);

/// Whether the folder `path` (not followed when it is a symbolic link) is the root of a mount: on
/// another device than its parent, or (Linux, statx) a bind mount of the same file system. Such a
/// folder can't be renamed. Returns 1 or 0; -1 with errno set when either can't be looked up.
int blog_is_mount_point(const char *path);

/// Writes every change of the file system that holds `path` to disk (Linux syncfs; macOS sync and
/// F_FULLFSYNC; sync elsewhere).
/// One call makes a whole freshly written folder durable, where an fsync per file would commit
/// the journal once per file. Returns 0 on success; -1 with errno set otherwise.
int blog_sync_filesystem(const char *path);

/// Removes `path` and everything under it, not following symbolic links (nftw, children first).
/// Returns 0 on success (also when parts were already gone); -1 with errno set otherwise.
int blog_remove_tree(const char *path);

/// 1 once blog's own `cmark_manage_extensions_special_characters` (see csystem.c) has dropped a
/// removal of cmark-gfm's special characters: parsers may then run at once. 0 before, or when the
/// library does not call it (parsing must then stay serial).
int blog_cmark_removals_dropped(void);

/// What blocks.c's removals of special characters call in the static release binary instead of
/// cmark-gfm's own (scripts/build-static redirects them): drops them, as above. Not for Swift.
void blog_cmark_keep_special_character(unsigned char c, int emphasis);

/// Whether `needle` (`needle_length` bytes, at least one) occurs in `haystack`: a short needle sixteen
/// places at a time by its first and last bytes where SSE2 is, else glibc's memmem (which Swift's Glibc
/// module does not show). Returns 1 or 0.
int blog_contains_bytes(const void *haystack, long haystack_length, const void *needle, long needle_length);

/// Makes every allocation of 256 KiB or more a mapping of its own, given back when freed (glibc's
/// M_MMAP_THRESHOLD; nothing elsewhere). glibc's own threshold rises to the largest block freed so far:
/// once a build's sitemap buffer (17 MB at 50,000 posts) was freed, later large blocks stayed in the heap
/// and its holes in the resident memory. Every build calls it (again, in `blog serve`): glibc takes its
/// lock for it, so threads may be running.
void blog_fix_large_allocations(void);

/// Returns the memory the allocator keeps after frees to the system (glibc's malloc_trim); nothing elsewhere.
void blog_give_back_memory(void);

/// The three functions of a cmark-gfm allocator (`cmark_mem`) that take memory from the calling
/// thread's arena, for the parses and renders between `blog_arena_enter` and `blog_arena_leave`:
/// a bump allocation each (the last block is grown or given back in place), the whole arena
/// emptied at once by the outermost leave. They abort when memory runs out, as cmark's own do.
/// Memory from them must not be used after that leave, nor on another thread.
void *blog_arena_calloc(size_t count, size_t size);
void *blog_arena_realloc(void *pointer, size_t size);
void blog_arena_free(void *pointer);

/// Starts (or nests in) the calling thread's arena scope.
void blog_arena_enter(void);

/// Ends the scope begun by the matching `blog_arena_enter`; the outermost one empties the arena,
/// keeping one chunk of at most 1 MiB for the thread's next scope.
void blog_arena_leave(void);

/// Whether the calling thread is inside an arena scope: 1 or 0.
int blog_arena_active(void);

/// Sixty-four bytes of HTML as the readers of a body's words (BlogCore's `BodyText`) see them: one bit
/// per byte, byte 0 lowest, in each mask.
typedef struct {
    /// ASCII letters and digits (``blog_search_bytes``), or ASCII white space: space, tab, line feed,
    /// vertical tab, form feed, return (``blog_count_bytes``).
    unsigned long long words;
    /// `<` and `>`: where tags start and end.
    unsigned long long opens, closes;
    /// Where a reader stops to look closer: the bytes beyond ASCII, and `&` (``blog_search_bytes``).
    unsigned long long stops;
} blog_text_bytes;

#if defined(__SSE2__)
#include <emmintrin.h>

/// The bytes of `vector` in [low, high] (ASCII bounds), as 0xFF: one addition and one signed comparison.
static inline __m128i blog_bytes_within(__m128i vector, unsigned char low, unsigned char high) {
    __m128i shifted = _mm_add_epi8(vector, _mm_set1_epi8((char)(0x80 - low)));
    return _mm_cmplt_epi8(shifted, _mm_set1_epi8((char)(0x80 + high - low + 1)));
}
#endif

/// ``blog_search_bytes`` a byte at a time: where SSE2 is not, and for the tests, which compare the two.
static inline blog_text_bytes blog_search_bytes_bytewise(const unsigned char *text, unsigned char *lowered) {
    blog_text_bytes found = {0, 0, 0, 0};
    for (int index = 0; index < 64; index++) {
        unsigned char byte = text[index], folded = byte | 0x20;
        int alphabetic = folded >= 'a' && folded <= 'z';
        unsigned long long bit = 1ULL << index;
        lowered[index] = alphabetic ? folded : byte;
        if (alphabetic || (byte >= '0' && byte <= '9')) found.words |= bit;
        if (byte == '<') found.opens |= bit;
        if (byte == '>') found.closes |= bit;
        if (byte == '&' || byte >= 0x80) found.stops |= bit;
    }
    return found;
}

/// The sixty-four bytes at `text` as the search words read them (``blog_text_bytes``, `words` its letters
/// and digits), and the same bytes with ASCII letters lower-cased stored at `lowered` (sixty-four bytes).
/// SSE2 where it is (sixteen bytes in about twenty instructions), else a byte at a time.
static inline blog_text_bytes blog_search_bytes(const unsigned char *text, unsigned char *lowered) {
#if defined(__SSE2__)
    blog_text_bytes found = {0, 0, 0, 0};
    for (int part = 0; part < 4; part++) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(text + 16 * part));
        __m128i alphabetic = blog_bytes_within(_mm_or_si128(bytes, _mm_set1_epi8(0x20)), 'a', 'z');
        __m128i letters = _mm_or_si128(alphabetic, blog_bytes_within(bytes, '0', '9'));
        _mm_storeu_si128((__m128i *)(lowered + 16 * part), _mm_or_si128(bytes, _mm_and_si128(alphabetic, _mm_set1_epi8(0x20))));
        int shift = 16 * part;
        found.words |= (unsigned long long)(unsigned)_mm_movemask_epi8(letters) << shift;
        found.opens |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('<'))) << shift;
        found.closes |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('>'))) << shift;
        found.stops |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_or_si128(bytes, _mm_cmpeq_epi8(bytes, _mm_set1_epi8('&')))) << shift;
    }
    return found;
#else
    return blog_search_bytes_bytewise(text, lowered);
#endif
}

/// ``blog_count_bytes`` a byte at a time: where SSE2 is not, and for the tests, which compare the two.
static inline blog_text_bytes blog_count_bytes_bytewise(const unsigned char *text) {
    blog_text_bytes found = {0, 0, 0, 0};
    for (int index = 0; index < 64; index++) {
        unsigned char byte = text[index];
        unsigned long long bit = 1ULL << index;
        if (byte == ' ' || (byte >= 0x09 && byte <= 0x0D)) found.words |= bit;
        if (byte == '<') found.opens |= bit;
        if (byte == '>') found.closes |= bit;
        if (byte >= 0x80) found.stops |= bit;
    }
    return found;
}

/// The sixty-four bytes at `text` as the word count reads them (``blog_text_bytes``, `words` its white
/// space, `stops` the bytes beyond ASCII). SSE2 where it is, else a byte at a time.
static inline blog_text_bytes blog_count_bytes(const unsigned char *text) {
#if defined(__SSE2__)
    blog_text_bytes found = {0, 0, 0, 0};
    for (int part = 0; part < 4; part++) {
        __m128i bytes = _mm_loadu_si128((const __m128i *)(text + 16 * part));
        __m128i spaces = _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(' ')), blog_bytes_within(bytes, 0x09, 0x0D));
        int shift = 16 * part;
        found.words |= (unsigned long long)(unsigned)_mm_movemask_epi8(spaces) << shift;
        found.opens |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('<'))) << shift;
        found.closes |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('>'))) << shift;
        found.stops |= (unsigned long long)(unsigned)_mm_movemask_epi8(bytes) << shift;
    }
    return found;
#else
    return blog_count_bytes_bytewise(text);
#endif
}

/// ``blog_emphasis_bytes`` a byte at a time: where SSE2 is not, and for the tests, which compare the two.
/// `text` holds at least sixty-five bytes.
static inline unsigned long long blog_emphasis_bytes_bytewise(const unsigned char *text, int underscores) {
    unsigned long long found = 0;
    for (int index = 0; index < 64; index++) {
        unsigned char byte = text[index];
        int ht = byte == 'h' && text[index + 1] == 't';
        if (byte == '\\' || byte == '`' || byte == '<' || byte == ']' || byte == '*' || (underscores && byte == '_') || ht) {
            found |= 1ULL << index;
        }
    }
    return found;
}

/// Where a byte of the sixty-four at `text` starts something the emphasis pass (BlogMarkdown's
/// `EmphasisRuns`) looks at: a backslash, a backtick, `<`, `]`, `*`, `_` when `underscores`, and an `h`
/// before a `t` (the pass asks for the rest of `http` there: one more load and compare a sixteen bytes,
/// where the whole of `http` took three, and ~3,200 `ht`s not of `http` in the 4.2 MB of the
/// benchmark's lines with an asterisk stop it in vain); one bit per byte, byte 0 lowest. The pass read
/// these with a memchr per kind and a memmem for `http` each time it moved on (issue 32). `count` is how
/// many bytes there are from `text`: with fewer than sixty-five (`ht` reads one past the sixty-fourth),
/// a copy padded with zeros, which match nothing, is read. SSE2 where it is, else a byte at a time.
static inline unsigned long long blog_emphasis_bytes(const unsigned char *text, long count, int underscores) {
    unsigned char padded[80];
    if (count < 65) {
        __builtin_memset(padded, 0, sizeof padded);
        if (count > 0) __builtin_memcpy(padded, text, (size_t)count);
        text = padded;
    }
#if defined(__SSE2__)
    unsigned long long found = 0;
    for (int part = 0; part < 4; part++) {
        const unsigned char *at = text + 16 * part;
        __m128i bytes = _mm_loadu_si128((const __m128i *)at);
        __m128i marks = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('`'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('<')), _mm_cmpeq_epi8(bytes, _mm_set1_epi8(']'))));
        marks = _mm_or_si128(marks, _mm_cmpeq_epi8(bytes, _mm_set1_epi8('*')));
        if (underscores) marks = _mm_or_si128(marks, _mm_cmpeq_epi8(bytes, _mm_set1_epi8('_')));
        __m128i ht = _mm_and_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('h')),
                                   _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(at + 1)), _mm_set1_epi8('t')));
        found |= (unsigned long long)(unsigned)_mm_movemask_epi8(_mm_or_si128(marks, ht)) << (16 * part);
    }
    return found;
#else
    return blog_emphasis_bytes_bytewise(text, underscores);
#endif
}

/// ``blog_escape_bytes`` a byte at a time: where SSE2 is not, and for the tests, which compare the two.
static inline unsigned long long blog_escape_bytes_bytewise(const unsigned char *text, long count, int apostrophe, int xml) {
    unsigned long long found = 0;
    for (int index = 0; index < 64 && index < count; index++) {
        unsigned char byte = text[index];
        int control = byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r';
        if (byte == '&' || byte == '<' || byte == '>' || byte == '"' || (apostrophe && byte == '\'') || (xml && (control || byte == 0xEF))) {
            found |= 1ULL << index;
        }
    }
    return found;
}

#if defined(__SSE2__)
/// ``blog_escape_bytes`` of the sixteen bytes at `at`: one bit a byte. Two bytes in one comparison where they differ in
/// one bit: `b | 4` is 0x26 for `"` (0x22) and `&` (0x26) only, 0x0D for tab (0x09) and return (0x0D) only; `b | 2` is
/// 0x3E for `<` (0x3C) and `>` (0x3E) only.
static inline unsigned blog_escape_bytes16(const unsigned char *at, int apostrophe, int xml) {
    __m128i bytes = _mm_loadu_si128((const __m128i *)at);
    __m128i four = _mm_or_si128(bytes, _mm_set1_epi8(4));
    __m128i marks = _mm_or_si128(_mm_cmpeq_epi8(four, _mm_set1_epi8(0x26)),
                                 _mm_cmpeq_epi8(_mm_or_si128(bytes, _mm_set1_epi8(2)), _mm_set1_epi8(0x3E)));
    if (apostrophe) marks = _mm_or_si128(marks, _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\'')));
    if (xml) {
        __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x1F)), bytes);
        __m128i kept = _mm_or_si128(_mm_cmpeq_epi8(four, _mm_set1_epi8(0x0D)), _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\n')));
        marks = _mm_or_si128(marks, _mm_or_si128(_mm_andnot_si128(kept, control), _mm_cmpeq_epi8(bytes, _mm_set1_epi8((char)0xEF))));
    }
    return (unsigned)_mm_movemask_epi8(marks);
}
#endif

/// Where the first sixty-four bytes at `text` (fewer when `count` is less) hold a byte that an escaper (BlogCore's
/// `Escaping`) does not copy as it is: `&`, `<`, `>`, `"`, `'` when `apostrophe`, and when `xml` the control
/// characters but tab, line feed and return, and 0xEF (which may start U+FFFE or U+FFFF); one bit per byte, byte 0
/// lowest, none past `count`. A last part of fewer than sixteen bytes is read with the sixteen bytes before the text's end,
/// or (a text shorter than sixteen bytes) from a copy padded with spaces.
/// SSE2 where it is (sixteen bytes in about fifteen instructions; a whole block in four parts without a loop), else a
/// byte at a time.
static inline unsigned long long blog_escape_bytes(const unsigned char *text, long count, int apostrophe, int xml) {
#if defined(__SSE2__)
    if (count >= 64) {
        return (unsigned long long)blog_escape_bytes16(text, apostrophe, xml)
            | (unsigned long long)blog_escape_bytes16(text + 16, apostrophe, xml) << 16
            | (unsigned long long)blog_escape_bytes16(text + 32, apostrophe, xml) << 32
            | (unsigned long long)blog_escape_bytes16(text + 48, apostrophe, xml) << 48;
    }
    unsigned long long found = 0;
    long start = 0;
    for (; start + 16 <= count; start += 16) {
        found |= (unsigned long long)blog_escape_bytes16(text + start, apostrophe, xml) << start;
    }
    long rest = count - start;
    if (rest <= 0) return found;
    if (count >= 16) {
        // The last sixteen bytes of the text, read over the part before (already read): their last `rest` bits.
        return found | (unsigned long long)(blog_escape_bytes16(text + count - 16, apostrophe, xml) >> (16 - rest)) << start;
    }
    // A text of fewer than sixteen bytes, in a copy padded with spaces: its first and last eight (or four) bytes in two
    // moves each, which overlap when it is shorter than sixteen (eight); a byte at a time only below four.
    unsigned char padded[16];
    __builtin_memset(padded, ' ', sizeof padded);
    if (count >= 8) {
        __builtin_memcpy(padded, text, 8);
        __builtin_memcpy(padded + count - 8, text + count - 8, 8);
    } else if (count >= 4) {
        __builtin_memcpy(padded, text, 4);
        __builtin_memcpy(padded + count - 4, text + count - 4, 4);
    } else {
        for (long index = 0; index < count; index++) padded[index] = text[index];
    }
    return blog_escape_bytes16(padded, apostrophe, xml);
#else
    return blog_escape_bytes_bytewise(text, count, apostrophe, xml);
#endif
}

/// `text` (`count` bytes) escaped as BlogCore's `Escaping` escapes it, in one pass (escape.c): the bytes
/// ``blog_escape_bytes`` flags replaced by their entry of `entities` (an entity's bytes, little-endian, its length
/// in the top byte; 0 for none), or when `xml` left out (a control character, U+FFFE, U+FFFF), or kept; the runs
/// between them copied sixteen bytes a move, into memory made once and grown rarely. Returns the escaped length with
/// `*escaped` the bytes (free them with ``blog_escape_free``); `count` with `*escaped` null when no byte changed;
/// -1 when `whole` and a byte to replace touches a byte above ASCII (the caller escapes by whole characters).
long blog_escape_write(const unsigned char *text, long count, const unsigned long long *entities,
                       int apostrophe, int xml, int whole, unsigned char **escaped);

/// Frees what ``blog_escape_write`` wrote.
void blog_escape_free(unsigned char *escaped);

#endif
