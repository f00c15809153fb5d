#include <stdlib.h>
#include <string.h>
#include "csystem.h"

/// Copies `text[from, end)` to `to` sixteen bytes a move (up to fifteen bytes past the run's end written, which the
/// caller has room for): in one test and a move a run of up to sixteen bytes when `count` has sixteen bytes past `end`,
/// else the moves while `count` has them and the last bytes one at a time.
static inline void blog_escape_copy(unsigned char *to, const unsigned char *text, long from, long end, long count) {
    long at = from;
    if (end + 16 <= count) {
        do {
            __builtin_memcpy(to, text + at, 16);
            to += 16;
            at += 16;
        } while (at < end);
        return;
    }
    while (at < end && at + 16 <= count) {
        __builtin_memcpy(to, text + at, 16);
        to += 16;
        at += 16;
    }
    while (at < end) *to++ = text[at++];
}

/// `buffer` with room for at least `needed` bytes.
static inline unsigned char *blog_escape_room(unsigned char *buffer, long *capacity, long needed) {
    if (needed <= *capacity) return buffer;
    long larger = *capacity * 2 > needed ? *capacity * 2 : needed;
    unsigned char *grown = realloc(buffer, (size_t)larger);
    if (!grown) abort();
    *capacity = larger;
    return grown;
}

/// ``blog_escape_write`` for constant rules: inlined into each of its calls there, so that each rule set's loop has its
/// tests folded away (called with the rules as values, it tested them at every byte and block).
__attribute__((always_inline)) static inline long blog_escape_write_rules(const unsigned char *text, long count, const unsigned long long *entities,
                                           int apostrophe, int xml, int whole, unsigned char **escaped) {
    *escaped = 0;
    long index = 0;
    unsigned long long found = 0;
    while (index < count) {
        found = blog_escape_bytes(text + index, count - index, apostrophe, xml);
        if (found) break;
        index += 64;
    }
    if (index >= count) return count;
    long first = index + __builtin_ctzll(found);
    // Most texts grow by less than half of what follows their first flagged byte; more room when not. The room a block
    // needs (below) counts five more bytes for each of its sixty-four, so that a short text has it from the start.
    long capacity = count + (count - first) / 2 + 5 * 64 + 32;
    unsigned char *out = malloc((size_t)capacity);
    if (!out) abort();
    memcpy(out, text, (size_t)first);
    long written = first, from = first;
    int changed = 0;
    for (;;) {
        long end = index + 64 < count ? index + 64 : count;
        if (found) {
            // The run up to the block's end, an entity (six bytes for one at most) for each of its bytes, and the stores'
            // overshoot.
            out = blog_escape_room(out, &capacity, written + (end - from) + 5 * 64 + 32);
            do {
                long at = index + __builtin_ctzll(found);
                found &= found - 1;
                unsigned char byte = text[at];
                unsigned long long word = entities[byte];
                if (word) {
                    if (whole && ((at > 0 && text[at - 1] >= 0x80) || (at + 1 < count && text[at + 1] >= 0x80))) {
                        free(out);
                        return -1;
                    }
                    blog_escape_copy(out + written, text, from, at, count);
                    written += at - from;
                    // All of the entity in one store (its length in the top byte, written over after).
                    __builtin_memcpy(out + written, &word, 8);
                    written += (long)(word >> 56);
                    from = at + 1;
                    changed = 1;
                } else if (xml && byte < 0x20) {
                    // A control character XML forbids (tab, line feed and return are never flagged): left out.
                    blog_escape_copy(out + written, text, from, at, count);
                    written += at - from;
                    from = at + 1;
                    changed = 1;
                } else if (xml && byte == 0xEF && at + 2 < count && text[at + 1] == 0xBF && (text[at + 2] == 0xBE || text[at + 2] == 0xBF)) {
                    // U+FFFE and U+FFFF left out: their second and third bytes are never flagged.
                    blog_escape_copy(out + written, text, from, at, count);
                    written += at - from;
                    from = at + 3;
                    changed = 1;
                }
                // Any other flagged byte (0xEF starting another character) is kept: copied with the next run.
            } while (found);
        }
        index = end > from ? end : from;
        if (index >= count) break;
        found = blog_escape_bytes(text + index, count - index, apostrophe, xml);
    }
    if (!changed) {
        free(out);
        return count;
    }
    if (from < count) {
        out = blog_escape_room(out, &capacity, written + (count - from) + 32);
        blog_escape_copy(out + written, text, from, count, count);
        written += count - from;
    }
    *escaped = out;
    return written;
}

long blog_escape_write(const unsigned char *text, long count, const unsigned long long *entities,
                       int apostrophe, int xml, int whole, unsigned char **escaped) {
    // The rule sets of `Escaping`'s escapers: xml, html, template and liquid; any other one in a loop that tests them.
    if (xml && !apostrophe && !whole) return blog_escape_write_rules(text, count, entities, 0, 1, 0, escaped);
    if (!xml && !apostrophe && !whole) return blog_escape_write_rules(text, count, entities, 0, 0, 0, escaped);
    if (!xml && apostrophe && whole) return blog_escape_write_rules(text, count, entities, 1, 0, 1, escaped);
    if (!xml && apostrophe && !whole) return blog_escape_write_rules(text, count, entities, 1, 0, 0, escaped);
    return blog_escape_write_rules(text, count, entities, apostrophe != 0, xml != 0, whole != 0, escaped);
}

void blog_escape_free(unsigned char *escaped) {
    free(escaped);
}
