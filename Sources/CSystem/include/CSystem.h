#ifndef SHOEBOX_CSYSTEM_H
#define SHOEBOX_CSYSTEM_H
// POSIX and Linux calls that Swift's Glibc module does not export: fts(3) for walking a tree
// without following links, and syncfs(2), which needs _GNU_SOURCE.
#include <sys/types.h>
#include <sys/stat.h>
#include <fts.h>

/// Flushes the whole file system that holds `fd` (one flush for a batch of written files).
int shoebox_syncfs(int fd);

#endif
