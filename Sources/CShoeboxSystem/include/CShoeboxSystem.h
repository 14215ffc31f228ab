#ifndef SHOEBOX_CSYSTEM_H
#define SHOEBOX_CSYSTEM_H
// POSIX and Linux calls that Swift's Glibc module does not export: fts(3) for walking a tree
// without following links, syncfs(2), which needs _GNU_SOURCE, and getrandom(2).
#include <sys/types.h>
#include <sys/stat.h>
#include <fts.h>

/// Flushes the whole file system that holds `fd` (one flush for a batch of written files).
int shoebox_syncfs(int fd);

/// getrandom(2): fills `buffer` with `count` random bytes from the kernel; the count written, or -1.
long shoebox_getrandom(void *buffer, unsigned long count);

/// renameat2 RENAME_NOREPLACE relative to open folders: fails with EEXIST instead of replacing
/// `to` (a trash move, a restore or an album link renamed in place never overwrites a file).
int shoebox_renameat_noreplace(int fromDir, const char *from, int toDir, const char *to);

/// Swaps two names atomically (renameat2 RENAME_EXCHANGE), relative to open folders: an album
/// folder is replaced by its rebuilt twin in one step, so a file manager never sees half an album.
int shoebox_renameat_exchange(int dirA, const char *a, int dirB, const char *b);

/// openat(2) of `path` below the folder `dirfd`, never through a symbolic link at any component
/// and never outside that folder (openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS; on kernels
/// without it, one component at a time with O_NOFOLLOW). A link fails with ELOOP, a way out
/// (`..`, an absolute path) with EXDEV. O_NOFOLLOW and O_CLOEXEC are always added.
int shoebox_open_beneath(int dirfd, const char *path, int flags, unsigned mode);

/// lstat(2) of `path` below the folder `dirfd`, reached as `shoebox_open_beneath` reaches it
/// (an O_PATH descriptor): a link at the last component is described, not followed; a link at a
/// folder on the way fails with ELOOP.
int shoebox_lstat_beneath(int dirfd, const char *path, struct stat *st);

/// Lowers the calling thread (not the process) to background priority: the SCHED_IDLE policy
/// (and `nice` 10) for the CPU and the idle I/O class (ioprio_set IOPRIO_CLASS_IDLE), so analysis
/// never delays indexing or the user's programs. Returns 0, or -1 when any could not be set (errno).
int shoebox_background_thread(void);

/// Puts every thread of the process that runs under SCHED_IDLE back to the normal policy, `nice`
/// 0 and the best-effort I/O class — a stopping `watch`'s analysis threads (and the pools they
/// started), which a busy machine would otherwise leave waiting seconds for a core even to exit.
/// Allowed to root or with CAP_SYS_NICE (or a raised RLIMIT_NICE); elsewhere nothing changes.
/// Returns how many threads were raised, or -1 when one could not be (errno).
int shoebox_foreground_idle_threads(void);

/// The calling thread's scheduling policy (SCHED_*), nice value and I/O priority class
/// (IOPRIO_CLASS_*: 3 idle): how a test sees what `shoebox_background_thread` set. 0, or -1.
int shoebox_thread_priority(int *policy, int *nice_value, int *io_class);

#endif
