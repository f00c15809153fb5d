#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "csystem.h"

int blog_exchange_paths(const char *a, const char *b) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#elif defined(__APPLE__) && defined(RENAME_SWAP)
    return renamex_np(a, b, RENAME_SWAP);
#else
    (void)a; (void)b;
    errno = ENOSYS;
    return -1;
#endif
}

int blog_is_mount_point(const char *path) {
    struct stat own, parent;
    char above[4096];
    if (snprintf(above, sizeof above, "%s/..", path) >= (int)sizeof above) { errno = ENAMETOOLONG; return -1; }
    if (lstat(path, &own) != 0 || stat(above, &parent) != 0) return -1;
    if (own.st_dev != parent.st_dev || own.st_ino == parent.st_ino) return 1;
#if defined(__linux__) && defined(STATX_ATTR_MOUNT_ROOT)
    /* A bind mount of a folder of the same file system has its parent's device. */
    struct statx status;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_TYPE, &status) == 0
        && (status.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)) {
        return (status.stx_attributes & STATX_ATTR_MOUNT_ROOT) ? 1 : 0;
    }
#endif
    return 0;
}

int blog_sync_filesystem(const char *path) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
#if defined(__linux__)
    int result = syncfs(fd);
#elif defined(__APPLE__)
    /* sync() starts the writes; F_FULLFSYNC waits for them and flushes the drive's own cache (fsync where the
     * file system does not take it). Tested only by the macOS CI job. */
    sync();
    int result = fcntl(fd, F_FULLFSYNC);
    if (result != 0) result = fsync(fd);
#else
    sync();
    int result = 0;
#endif
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

static int remove_entry(const char *path, const struct stat *status, int type, struct FTW *walk) {
    (void)status; (void)type; (void)walk;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

int blog_remove_tree(const char *path) {
    return nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
}

/* cmark-gfm keeps the inline parser's table of special characters in a global array. Each
 * cmark_parser_finish adds its extensions' characters to it before parsing inlines and removes
 * them after (through this exported function), so two parsers at once remove each other's
 * characters. Every parser of blog attaches the same extensions, so the characters may as well
 * stay: this definition, in the executable, takes the library's place (the library calls it
 * through its PLT), passes additions on to the library's own and drops removals. Additions then
 * only ever write the values already there. blog_cmark_removals_dropped says whether this
 * definition is the one in use; until it is, GFM.parse keeps parsing serial.
 * Why it exists: it is what lets posts be parsed on all cores at once. Without it every parse
 * must hold GFM.parseLock around cmark_parser_feed and cmark_parser_finish, which are most of
 * the markdown stage (659M of 1,059M instructions on the 1,000-post benchmark blog), so that
 * stage would run on one core. It costs one call per parse. */
static atomic_int removals_dropped;

#if !defined(__APPLE__)
/* Not on macOS: there the library calls its own definition (two-level namespace), and the release build
 * links libcmark-gfm.a as it is, whose definition this one would clash with; parsing stays serial. */
static void (*real_manage_special_characters)(void *, int);
static pthread_once_t real_manage_once = PTHREAD_ONCE_INIT;

static void find_real_manage(void) {
    real_manage_special_characters = (void (*)(void *, int))dlsym(RTLD_NEXT, "cmark_manage_extensions_special_characters");
}

void cmark_manage_extensions_special_characters(void *parser, int add) {
    if (!add) {
        atomic_store(&removals_dropped, 1);
        return;
    }
    pthread_once(&real_manage_once, find_real_manage);
    if (real_manage_special_characters) real_manage_special_characters(parser, add);
}
#endif

/* The static release binary (scripts/build-static) links libcmark-gfm.a, where cmark_parser_finish has
 * cmark_manage_extensions_special_characters inlined: there is no call to take over. scripts/build-static
 * renames the library's own definition (so that it does not clash with the one above) and points the
 * inlined removals, blocks.c's calls of cmark_inlines_remove_special_character, at this function, which
 * drops them as the definition above does. The shared-library build never calls it. */
void blog_cmark_keep_special_character(unsigned char c, int emphasis) {
    (void)c; (void)emphasis;
    atomic_store(&removals_dropped, 1);
}

int blog_cmark_removals_dropped(void) {
    return atomic_load(&removals_dropped);
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

int blog_contains_bytes(const void *haystack, long haystack_length, const void *needle, long needle_length) {
    if (haystack_length < 0 || needle_length <= 0 || haystack_length < needle_length) return 0;
    const unsigned char *text = haystack, *pattern = needle;
    size_t count = (size_t)haystack_length, length = (size_t)needle_length, start = 0;
    if (length == 1) return memchr(text, pattern[0], count) != NULL;
#if defined(__SSE2__)
    /* A short needle (`<img`), sixteen places at a time: where both its first byte and its last byte (as
     * far on) are, compared whole only there (about 0.7 instructions a byte). memmem moves by less than
     * the needle's length a step, a few instructions each: for a needle of four bytes, 1.5 a byte; for
     * a long one it goes further a step than sixteen places, and is kept. */
    if (length <= 8) {
        const __m128i first = _mm_set1_epi8((char)pattern[0]), last = _mm_set1_epi8((char)pattern[length - 1]);
        for (; start + length - 1 + 16 <= count; start += 16) {
            __m128i firsts = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(text + start)), first);
            __m128i lasts = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(text + start + length - 1)), last);
            unsigned places = (unsigned)_mm_movemask_epi8(_mm_and_si128(firsts, lasts));
            while (places != 0) {
                size_t at = start + (size_t)__builtin_ctz(places);
                if (memcmp(text + at + 1, pattern + 1, length - 2) == 0) return 1;
                places &= places - 1;
            }
        }
    }
#endif
    /* The last places (fewer than sixteen), or all of them. */
    return start + length <= count && memmem(text + start, count - start, pattern, length) != NULL;
}

#ifdef __GLIBC__
#include <malloc.h>
#endif

void blog_fix_large_allocations(void) {
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

void blog_give_back_memory(void) {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}
