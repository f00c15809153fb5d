#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include "csystem.h"

int blog_exchange_paths(const char *a, const char *b) {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
    (void)a; (void)b;
    errno = ENOSYS;
    return -1;
#endif
}
