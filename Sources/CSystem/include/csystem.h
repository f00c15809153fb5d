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

#endif
