/* A per-thread arena for cmark-gfm's allocations (see csystem.h). A post's parse, its passes and its
 * render make some 500 small allocations and free them all again at the end; through malloc that was
 * 265M of the 1,000-post benchmark blog's 2,886M instructions (calloc, realloc, free and cmark_node_free's
 * walk through them). Here an allocation is a bump of the top chunk's used count, a free is nothing
 * (or gives the last block back), and the outermost blog_arena_leave empties everything at once. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "csystem.h"

/* A chunk: this header, then `capacity` bytes. Blocks are 16-byte aligned (as malloc's), each after a
 * 16-byte header that holds its size rounded up to 16. */
typedef struct arena_chunk {
    struct arena_chunk *previous;
    size_t capacity;
    size_t used;
    size_t unused;
} arena_chunk;

enum { block_header = 16 };
/* The first chunk of a scope, the largest chunk a scope grows by doubling, and the most kept between scopes. */
static const size_t first_capacity = 64 * 1024;
static const size_t largest_growth = 4 * 1024 * 1024;
static const size_t kept_capacity = 1024 * 1024;

static __thread arena_chunk *arena_top;
static __thread int arena_depth;
/* The capacity of the next scope's first chunk: what the last scope used, up to kept_capacity. */
static __thread size_t arena_next_capacity;

/* The chunks of a thread that ends are freed: the key's value is its top chunk. */
static pthread_key_t arena_key;
static pthread_once_t arena_key_once = PTHREAD_ONCE_INIT;

static void free_chunks(arena_chunk *chunk) {
    while (chunk) {
        arena_chunk *previous = chunk->previous;
        free(chunk);
        chunk = previous;
    }
}

static void thread_ended(void *top) { free_chunks((arena_chunk *)top); }

static void make_key(void) { pthread_key_create(&arena_key, thread_ended); }

static void set_top(arena_chunk *top) {
    arena_top = top;
    pthread_once(&arena_key_once, make_key);
    pthread_setspecific(arena_key, top);
}

static void out_of_memory(void) {
    fprintf(stderr, "[blog] out of memory in the markdown arena, aborting\n");
    abort();
}

static size_t rounded(size_t size) {
    if (size > SIZE_MAX / 2) out_of_memory();
    return (size + 15) & ~(size_t)15;
}

static char *data_of(arena_chunk *chunk) { return (char *)(chunk + 1); }

/* A new top chunk with room for `need` bytes. Kept out of line (about one call in two thousand): inlined,
 * its calls made every allocation save and restore six registers, 38 instructions where 15 do (issue 32). */
__attribute__((noinline, cold)) static arena_chunk *grow(size_t need) {
    size_t capacity = arena_top ? arena_top->capacity * 2 : (arena_next_capacity ? arena_next_capacity : first_capacity);
    if (capacity > largest_growth) capacity = largest_growth;
    if (capacity < need) capacity = need;
    arena_chunk *chunk = malloc(sizeof(arena_chunk) + capacity);
    if (!chunk) out_of_memory();
    chunk->previous = arena_top;
    chunk->capacity = capacity;
    chunk->used = 0;
    set_top(chunk);
    return chunk;
}

static void *allocate(size_t size) {
    size_t need = rounded(size) + block_header;
    arena_chunk *top = arena_top;
    if (!top || top->capacity - top->used < need) top = grow(need);
    char *block = data_of(top) + top->used;
    *(size_t *)block = need - block_header;
    top->used += need;
    return block + block_header;
}

/* The size of the block at `pointer`, and whether it is the last of the top chunk. */
static size_t block_size(void *pointer) { return *(size_t *)((char *)pointer - block_header); }

static int is_last(void *pointer, size_t size) {
    arena_chunk *top = arena_top;
    return top && (char *)pointer > data_of(top) && (char *)pointer + size == data_of(top) + top->used;
}

void *blog_arena_calloc(size_t count, size_t size) {
    if (size && count > SIZE_MAX / size) out_of_memory();
    void *pointer = allocate(count * size);
    memset(pointer, 0, block_size(pointer));
    return pointer;
}

void *blog_arena_realloc(void *pointer, size_t size) {
    if (!pointer) return allocate(size);
    size_t old = block_size(pointer), wanted = rounded(size);
    if (wanted <= old) return pointer;
    if (is_last(pointer, old) && arena_top->capacity - arena_top->used >= wanted - old) {
        arena_top->used += wanted - old;
        *(size_t *)((char *)pointer - block_header) = wanted;
        return pointer;
    }
    void *moved = allocate(size);
    memcpy(moved, pointer, old);
    return moved;
}

void blog_arena_free(void *pointer) {
    if (!pointer) return;
    size_t size = block_size(pointer);
    if (is_last(pointer, size)) arena_top->used -= size + block_header;
}

void blog_arena_enter(void) { arena_depth += 1; }

void blog_arena_leave(void) {
    if (--arena_depth > 0) return;
    arena_chunk *top = arena_top;
    if (!top) return;
    if (!top->previous && top->capacity <= kept_capacity) {
        top->used = 0;
        return;
    }
    size_t total = 0;
    for (arena_chunk *chunk = top; chunk; chunk = chunk->previous) total += chunk->capacity;
    free_chunks(top);
    set_top(NULL);
    arena_next_capacity = total < kept_capacity ? total : kept_capacity;
}

int blog_arena_active(void) { return arena_depth > 0; }
