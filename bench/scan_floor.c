/* The floor under a cold scan: the least any program can do per file and still keep what SPEC
 * asks a scan to keep — read and SHA-256 every byte, write the asset's sidecar
 * (`.shoebox/sidecars/<id>.json`, through a temporary name and a rename) and link it into its
 * generated albums — on as many threads as there are cores, and nothing else: no metadata, no
 * index, no JSON encoder, no fsync, no process start-up beyond a C program's.
 *
 *     scan_floor LIST OUTDIR THREADS STAGE
 *
 * LIST is a file of paths relative to the current folder, the library (one a line); OUTDIR a fresh folder on the same file system as the
 * library; STAGE is `hash` (read and hash only), `sidecar` (and write each sidecar) or `links`
 * (and two album links per file, as the scan makes for a year and a place). Prints the wall
 * seconds and the bytes hashed. bench/scan.py builds and runs it beside `shoebox scan`, so the
 * scan's share of the SHA-256 ceiling can be read against what is possible at all on this file
 * system (on ext4 without a journal, creating a file costs far more CPU than on one with).
 *
 * Written here, not taken from a library: it is a measuring stick of a few system calls.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { HASH, SIDECAR, LINKS };
static char **paths;
static size_t count;
static atomic_size_t next_index;
static atomic_ullong total_bytes;
static int stage, sidecars_fd, year_fd, place_fd;

static void die(const char *what, const char *name) {
    fprintf(stderr, "scan_floor: %s: %s\n", what, name);
    exit(1);
}

static void hash_file(const char *path, unsigned char *buffer, size_t size, char hex[65]) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) die("cannot open", path);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    off_t at = 0;
    for (;;) {
        ssize_t n = pread(fd, buffer, size, at);
        if (n < 0) die("cannot read", path);
        if (n == 0) break;
        EVP_DigestUpdate(ctx, buffer, (size_t)n);
        at += n;
    }
    unsigned char digest[32];
    EVP_DigestFinal_ex(ctx, digest, NULL);
    EVP_MD_CTX_free(ctx);
    close(fd);
    atomic_fetch_add(&total_bytes, (unsigned long long)at);
    for (int i = 0; i < 32; i++) sprintf(hex + 2 * i, "%02x", digest[i]);
}

/* A sidecar of the size Shoebox writes (~2 KB of JSON), created under a temporary name and
 * renamed into place, as any crash-safe writer must. */
static void write_sidecar(size_t i, const char *path, const char *hex) {
    char body[2048], temporary[64], final[64];
    int length = snprintf(body, sizeof body, "{\"id\":\"%016zx\",\"path\":\"%s\",\"sha256\":\"%s\"}", i, path, hex);
    memset(body + length, ' ', sizeof body - (size_t)length);
    snprintf(temporary, sizeof temporary, ".%016zx.json.tmp", i);
    snprintf(final, sizeof final, "%016zx.json", i);
    int fd = openat(sidecars_fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) die("cannot create sidecar", temporary);
    if (write(fd, body, sizeof body) != (ssize_t)sizeof body) die("cannot write sidecar", temporary);
    close(fd);
    if (renameat(sidecars_fd, temporary, sidecars_fd, final) != 0) die("cannot rename sidecar", final);
}

static void *worker(void *unused) {
    (void)unused;
    size_t size = getenv("FLOOR_BUFFER") ? (size_t)atol(getenv("FLOOR_BUFFER")) : 128 << 10; /* 128 KiB: as fast as any size here */
    unsigned char *buffer = malloc(size);
    for (;;) {
        size_t i = atomic_fetch_add(&next_index, 1);
        if (i >= count) break;
        char hex[65];
        hash_file(paths[i], buffer, size, hex);
        if (stage >= SIDECAR) write_sidecar(i, paths[i], hex);
        if (stage >= LINKS) {
            // Relative, as the scan's links are (`../../../2024/2024-05 Lisbon/IMG_0412.JPG`):
            // LIST's paths are relative to the library, the links two folders below `Albums/`.
            char name[64], target[4200];
            snprintf(name, sizeof name, "%06zx.jpg", i);
            snprintf(target, sizeof target, "../../../%s", paths[i]);
            if (symlinkat(target, year_fd, name) != 0 || symlinkat(target, place_fd, name) != 0)
                die("cannot link", paths[i]);
        }
    }
    free(buffer);
    return NULL;
}

static int make_folder(int parent, const char *name) {
    if (mkdirat(parent, name, 0755) != 0) die("cannot make folder (it must not exist)", name);
    int fd = openat(parent, name, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) die("cannot open folder", name);
    return fd;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: scan_floor LIST OUTDIR THREADS hash|sidecar|links\n"); return 2; }
    stage = strcmp(argv[4], "links") == 0 ? LINKS : strcmp(argv[4], "sidecar") == 0 ? SIDECAR : HASH;
    FILE *list = fopen(argv[1], "r");
    if (!list) die("cannot read list", argv[1]);
    size_t capacity = 1024;
    paths = malloc(capacity * sizeof *paths);
    char line[4096];
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = 0;
        if (count == capacity) paths = realloc(paths, (capacity *= 2) * sizeof *paths);
        paths[count++] = strdup(line);
    }
    fclose(list);
    int out = make_folder(AT_FDCWD, argv[2]);
    sidecars_fd = make_folder(out, "sidecars");
    year_fd = make_folder(out, "year");
    place_fd = make_folder(out, "place");

    int threads = atoi(argv[3]);
    pthread_t ids[64];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int t = 0; t < threads && t < 64; t++) pthread_create(&ids[t], NULL, worker, NULL);
    for (int t = 0; t < threads && t < 64; t++) pthread_join(ids[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.6f %llu\n", seconds, (unsigned long long)atomic_load(&total_bytes));
    return 0;
}
