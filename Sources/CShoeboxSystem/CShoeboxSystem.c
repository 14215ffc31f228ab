#define _GNU_SOURCE
#include <unistd.h>
#include <stdio.h>
#include <fcntl.h>
#include <sys/random.h>
#include "CShoeboxSystem.h"

int shoebox_syncfs(int fd) { return syncfs(fd); }

long shoebox_getrandom(void *buffer, unsigned long count) { return getrandom(buffer, count, 0); }

int shoebox_renameat_exchange(int dirA, const char *a, int dirB, const char *b) {
    return renameat2(dirA, a, dirB, b, RENAME_EXCHANGE);
}

int shoebox_renameat_noreplace(int fromDir, const char *from, int toDir, const char *to) {
    return renameat2(fromDir, from, toDir, to, RENAME_NOREPLACE);
}

// ---- Confined opens: never through a symbolic link, never outside the starting folder ----
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

// Walks `path` one component at a time from `dirfd`, each intermediate folder opened with
// O_NOFOLLOW | O_DIRECTORY: the fallback where the kernel has no openat2 (before Linux 5.6).
static int open_by_components(int dirfd, const char *path, int flags, unsigned mode) {
    char *copy = strdup(path);
    if (copy == NULL) { errno = ENOMEM; return -1; }
    int fd = dirfd;
    char *save = NULL;
    char *component = strtok_r(copy, "/", &save);
    int result = -1;
    while (component != NULL) {
        char *next = strtok_r(NULL, "/", &save);
        if (strcmp(component, "..") == 0) { errno = EXDEV; break; }
        if (next == NULL) {
            result = openat(fd, component, flags | O_NOFOLLOW | O_CLOEXEC, mode);
            break;
        }
        int child = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (child < 0) break;
        if (fd != dirfd) close(fd);
        fd = child;
        component = next;
    }
    int saved = errno;
    if (fd != dirfd) close(fd);
    free(copy);
    errno = saved;
    return result;
}

int shoebox_open_beneath(int dirfd, const char *path, int flags, unsigned mode) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC);
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    if (fd >= 0 || errno != ENOSYS) return (int)fd;
    return open_by_components(dirfd, path, flags, mode);
}

int shoebox_lstat_beneath(int dirfd, const char *path, struct stat *st) {
    int fd = shoebox_open_beneath(dirfd, path, O_PATH, 0);
    if (fd < 0) return -1;
    int result = fstat(fd, st);
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}

#include <sys/resource.h>
#include <sched.h>

int shoebox_background_thread(void) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    int failed = setpriority(PRIO_PROCESS, (id_t)tid, 10);
    /* SCHED_IDLE: runs only when a core has nothing else to run. `nice` 10 alone still takes
       about a tenth of a core from the indexer beside it (CFS weights 110 against 1024), and
       with two workers on two cores that slowed a watcher's bulk drop measurably (docs/BENCHMARKS.md). */
    struct sched_param none = {0};
    if (sched_setscheduler(0, SCHED_IDLE, &none) != 0) failed = -1;
    /* ioprio_set(IOPRIO_WHO_PROCESS, tid, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)): glibc has no wrapper. */
    if (syscall(SYS_ioprio_set, 1, tid, 3 << 13) != 0) failed = -1;
    return failed ? -1 : 0;
}

#include <dirent.h>

int shoebox_foreground_idle_threads(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int raised = 0, failed = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        pid_t tid = (pid_t)atoi(entry->d_name);
        if (tid <= 0 || sched_getscheduler(tid) != SCHED_IDLE) continue;
        struct sched_param none = {0};
        if (sched_setscheduler(tid, SCHED_OTHER, &none) != 0) { failed = 1; continue; }
        setpriority(PRIO_PROCESS, (id_t)tid, 0);
        syscall(SYS_ioprio_set, 1, tid, (2 << 13) | 4);  /* IOPRIO_CLASS_BE, level 4: the default */
        raised++;
    }
    closedir(tasks);
    return failed ? -1 : raised;
}

int shoebox_thread_priority(int *policy, int *nice_value, int *io_class) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    *policy = sched_getscheduler(0);
    errno = 0;
    *nice_value = getpriority(PRIO_PROCESS, (id_t)tid);
    long io = syscall(SYS_ioprio_get, 1, tid);
    *io_class = io < 0 ? -1 : (int)(io >> 13);
    return (*policy < 0 || io < 0) ? -1 : 0;
}
