#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <unistd.h>
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

int blog_sync_filesystem(const char *path) {
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
#if defined(__linux__)
    int result = syncfs(fd);
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
