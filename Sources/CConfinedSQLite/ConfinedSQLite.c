// See CConfinedSQLite.h. Written here because no library does this: SQLite's unix VFS has no
// "open relative to a folder descriptor" mode, and writing a whole VFS would copy its locking.
#define _GNU_SOURCE
#include "CConfinedSQLite.h"
#include <CShoeboxSystem.h>
#include <sqlite3.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct root {
    char *prefix;      // the root followed by "/"
    size_t length;
    int fd;            // the root folder, O_PATH
    int count;
};

static pthread_mutex_t roots_lock = PTHREAD_MUTEX_INITIALIZER;
static struct root *roots;
static int root_count;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_error;

static int (*real_open)(const char *, int, int);
static int (*real_unlink)(const char *);
static int (*real_stat)(const char *, struct stat *);
static int (*real_lstat)(const char *, struct stat *);
static int (*real_access)(const char *, int);
static ssize_t (*real_readlink)(const char *, char *, size_t);

/// A duplicate of the descriptor of the registered root that `path` is below, and the part of
/// `path` after it; -1 when `path` is below none.
static int root_for(const char *path, const char **relative) {
    int fd = -1;
    pthread_mutex_lock(&roots_lock);
    for (int i = 0; i < root_count; i++) {
        if (strncmp(path, roots[i].prefix, roots[i].length) == 0 && path[roots[i].length] != 0) {
            fd = fcntl(roots[i].fd, F_DUPFD_CLOEXEC, 0);
            *relative = path + roots[i].length;
            break;
        }
    }
    pthread_mutex_unlock(&roots_lock);
    return fd;
}

/// The folder holding `relative` below `root`, opened without links; its last component in `leaf`.
static int parent_of(int root, const char *relative, const char **leaf) {
    const char *slash = strrchr(relative, '/');
    if (!slash) {
        *leaf = relative;
        return fcntl(root, F_DUPFD_CLOEXEC, 0);
    }
    *leaf = slash + 1;
    size_t n = (size_t)(slash - relative);
    char *folder = malloc(n + 1);
    if (!folder) { errno = ENOMEM; return -1; }
    memcpy(folder, relative, n);
    folder[n] = 0;
    int fd = shoebox_open_beneath(root, folder, O_RDONLY | O_DIRECTORY, 0);
    free(folder);
    return fd;
}

static int confined_open(const char *path, int flags, int mode) {
    const char *relative;
    int root = root_for(path, &relative);
    if (root < 0) return real_open(path, flags, mode);
    int fd = shoebox_open_beneath(root, relative, flags, (unsigned)mode);
    int saved = errno;
    close(root);
    errno = saved;
    return fd;
}

/// Runs `body` on the folder holding `path` and its last component, when `path` is confined.
#define CONFINED_AT(path, fallback, body) do {                                  \
        const char *relative, *leaf;                                            \
        int root = root_for(path, &relative);                                   \
        if (root < 0) return fallback;                                          \
        int dir = parent_of(root, relative, &leaf);                             \
        int saved = errno;                                                      \
        close(root);                                                            \
        if (dir < 0) { errno = saved; return -1; }                              \
        int result = (body);                                                    \
        saved = errno;                                                          \
        close(dir);                                                             \
        errno = saved;                                                          \
        return result;                                                          \
    } while (0)

static int confined_unlink(const char *path) {
    CONFINED_AT(path, real_unlink(path), unlinkat(dir, leaf, 0));
}

// stat: a link at the last component is not followed either (Shoebox's own files are never links).
static int confined_stat(const char *path, struct stat *st) {
    CONFINED_AT(path, real_stat(path, st), fstatat(dir, leaf, st, AT_SYMLINK_NOFOLLOW));
}

static int confined_lstat(const char *path, struct stat *st) {
    CONFINED_AT(path, real_lstat(path, st), fstatat(dir, leaf, st, AT_SYMLINK_NOFOLLOW));
}

static int confined_access(const char *path, int mode) {
    CONFINED_AT(path, real_access(path, mode), faccessat(dir, leaf, mode, AT_SYMLINK_NOFOLLOW));
}

// SQLite resolves links in a database's path (xFullPathname): below a library it is refused one.
static ssize_t confined_readlink(const char *path, char *buffer, size_t size) {
    const char *relative;
    int root = root_for(path, &relative);
    if (root < 0) return real_readlink(path, buffer, size);
    close(root);
    errno = ELOOP;
    return -1;
}

static int replace(sqlite3_vfs *vfs, const char *name, void *ours, void **real) {
    *real = (void *)vfs->xGetSystemCall(vfs, name);
    if (!*real) return -1;
    return vfs->xSetSystemCall(vfs, name, (sqlite3_syscall_ptr)ours) == SQLITE_OK ? 0 : -1;
}

static void install(void) {
    sqlite3_vfs *vfs = sqlite3_vfs_find("unix");
    if (!vfs || vfs->iVersion < 3 || !vfs->xSetSystemCall) { install_error = ENOSYS; return; }
    if (replace(vfs, "open", (void *)confined_open, (void **)&real_open) ||
        replace(vfs, "unlink", (void *)confined_unlink, (void **)&real_unlink) ||
        replace(vfs, "stat", (void *)confined_stat, (void **)&real_stat) ||
        replace(vfs, "lstat", (void *)confined_lstat, (void **)&real_lstat) ||
        replace(vfs, "access", (void *)confined_access, (void **)&real_access) ||
        replace(vfs, "readlink", (void *)confined_readlink, (void **)&real_readlink)) {
        install_error = ENOSYS;
    }
}

int shoebox_sqlite_confine(const char *root) {
    pthread_once(&install_once, install);
    if (install_error) { errno = install_error; return -1; }
    size_t length = strlen(root);
    pthread_mutex_lock(&roots_lock);
    for (int i = 0; i < root_count; i++) {
        if (roots[i].length == length + 1 && strncmp(roots[i].prefix, root, length) == 0) {
            roots[i].count++;
            pthread_mutex_unlock(&roots_lock);
            return 0;
        }
    }
    int fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    struct root *grown = fd >= 0 ? realloc(roots, sizeof *roots * (size_t)(root_count + 1)) : NULL;
    char *prefix = grown ? malloc(length + 2) : NULL;
    if (!prefix) {
        int saved = fd < 0 ? errno : ENOMEM;
        if (grown) roots = grown;
        if (fd >= 0) close(fd);
        pthread_mutex_unlock(&roots_lock);
        errno = saved;
        return -1;
    }
    roots = grown;
    memcpy(prefix, root, length);
    prefix[length] = '/';
    prefix[length + 1] = 0;
    roots[root_count++] = (struct root){ prefix, length + 1, fd, 1 };
    pthread_mutex_unlock(&roots_lock);
    return 0;
}

void shoebox_sqlite_unconfine(const char *root) {
    size_t length = strlen(root);
    pthread_mutex_lock(&roots_lock);
    for (int i = 0; i < root_count; i++) {
        if (roots[i].length == length + 1 && strncmp(roots[i].prefix, root, length) == 0) {
            if (--roots[i].count == 0) {
                close(roots[i].fd);
                free(roots[i].prefix);
                roots[i] = roots[--root_count];
            }
            break;
        }
    }
    pthread_mutex_unlock(&roots_lock);
}
