#define _GNU_SOURCE
#include <unistd.h>
#include <stdio.h>
#include <fcntl.h>
#include "CSystem.h"

int shoebox_syncfs(int fd) { return syncfs(fd); }

int shoebox_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int shoebox_rename_exchange(const char *a, const char *b) {
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}

int shoebox_renameat_noreplace(int fromDir, const char *from, int toDir, const char *to) {
    return renameat2(fromDir, from, toDir, to, RENAME_NOREPLACE);
}
