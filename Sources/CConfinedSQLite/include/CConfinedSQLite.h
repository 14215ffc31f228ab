#ifndef SHOEBOX_CCONFINEDSQLITE_H
#define SHOEBOX_CCONFINEDSQLITE_H
// SQLite opens its files by path (the index, its -wal and -shm, a folder to flush). These calls
// make the paths below a library's folder resolve from that folder's descriptor without
// following a symbolic link at any component, as every other file operation of Shoebox does:
// a `.shoebox` swapped for a link while a connection opens makes the open fail, never reach
// the folder the link points to. Paths outside every registered library are opened as usual.
//
// It replaces system calls of SQLite's "unix" VFS (sqlite3_vfs.xSetSystemCall, the interface
// SQLite provides for exactly this), once per process, before the first registration returns.

/// Confines SQLite's file calls on paths that start with `root` + "/" (`root` an absolute path
/// without links, e.g. realpath(3) of the library folder). Registrations are counted: each one
/// is undone by one `shoebox_sqlite_unconfine`. Returns 0, or -1 with errno set.
int shoebox_sqlite_confine(const char *root);

/// Undoes one `shoebox_sqlite_confine(root)`.
void shoebox_sqlite_unconfine(const char *root);

#endif
