/* The floor under a cold scan: the least any program can do per file and still keep what SPEC
 * asks a scan to keep — read and SHA-256 every byte, write the asset's sidecar
 * (`.shoebox/sidecars/<id>.json`, through a temporary name and a rename) and link it into its
 * generated albums — on as many threads as there are cores, and nothing else: no metadata, no
 * index, no JSON encoder, no fsync, no process start-up beyond a C program's.
 *
 *     scan_floor LIST OUTDIR THREADS STAGE
 *
 * LIST is a file of paths relative to the current folder, the library (one a line); OUTDIR a
 * fresh folder on the same file system as the library; STAGE is `hash` (read and hash only),
 * `sidecar` (and write each sidecar), `links` (and two album links per file, as the scan makes
 * for a year and a place: the floor of issue 33's goal) or `full` (the work a scan cannot leave
 * out either, done the cheapest way C allows: each JPEG's EXIF read by libexif and its XMP
 * packet parsed by libxml2's SAX2, the sidecar holding what they say; every batch of 256 made
 * durable as docs/RELIABILITY.md argues — a replay record flushed, the sidecars, one `syncfs`,
 * the rows in one SQLite transaction with `synchronous = FULL`, the record removed and its
 * folder flushed — by one committer while the other threads go on hashing; then the albums'
 * links, named by their place in the album as SPEC asks, which no program can name before the
 * album's last photo is known). Prints the wall seconds and the bytes hashed. bench/scan.py
 * builds and runs it beside `shoebox scan`, so the scan's share of the SHA-256 ceiling can be
 * read against what is possible at all on this file system (on ext4 without a journal, creating
 * a file costs far more CPU than on one with).
 *
 * Written here, not taken from a library: it is a measuring stick of a few system calls.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libexif/exif-data.h>
#include <libxml/parser.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { HASH, SIDECAR, LINKS, FULL };
enum { BATCH = 256 };
static char **paths;
static size_t count;
static atomic_size_t next_index;
static atomic_ullong total_bytes;
static int stage, out_fd, sidecars_fd, year_fd, place_fd;
/* The full stage: what each file's metadata said (its sidecar's text, set once the file is done;
 * workers finish out of order, and the committer waits, asleep, until all of a batch's are set). */
static char **bodies;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_changed = PTHREAD_COND_INITIALIZER;

static void die(const char *what, const char *name) {
    fprintf(stderr, "scan_floor: %s: %s\n", what, name);
    exit(1);
}

/* `head` gets the file's first `head_size` bytes (its headers) when not NULL; returns their length. */
static size_t hash_file(const char *path, unsigned char *buffer, size_t size, char hex[65], unsigned char *head, size_t head_size) {
    size_t kept = 0;
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
        if (head && kept < head_size) {
            size_t take = (size_t)n < head_size - kept ? (size_t)n : head_size - kept;
            memcpy(head + kept, buffer, take);
            kept += take;
        }
        at += n;
    }
    unsigned char digest[32];
    EVP_DigestFinal_ex(ctx, digest, NULL);
    EVP_MD_CTX_free(ctx);
    close(fd);
    atomic_fetch_add(&total_bytes, (unsigned long long)at);
    for (int i = 0; i < 32; i++) sprintf(hex + 2 * i, "%02x", digest[i]);
    return kept;
}

/* A sidecar of the size Shoebox writes (~2 KB of JSON), created under a temporary name and
 * renamed into place, as any crash-safe writer must. */
static void write_sidecar(size_t i, const char *path, const char *hex, const char *described) {
    char body[2048], temporary[64], final[64];
    /* The full stage's `described` already holds the path, the hash and the metadata. */
    int length = described ? snprintf(body, sizeof body, "{\"id\":\"%016zx\",\"asset\":%s}", i, described)
                           : snprintf(body, sizeof body, "{\"id\":\"%016zx\",\"path\":\"%s\",\"sha256\":\"%s\",\"metadata\":{}}", i,
                                      path, hex);
    if (length < 0 || length >= (int)sizeof body) length = (int)sizeof body - 1;
    memset(body + length, ' ', sizeof body - (size_t)length);
    snprintf(temporary, sizeof temporary, ".%016zx.json.tmp", i);
    snprintf(final, sizeof final, "%016zx.json", i);
    int fd = openat(sidecars_fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) die("cannot create sidecar", temporary);
    if (write(fd, body, sizeof body) != (ssize_t)sizeof body) die("cannot write sidecar", temporary);
    close(fd);
    if (renameat(sidecars_fd, temporary, sidecars_fd, final) != 0) die("cannot rename sidecar", final);
}

/* --- The full stage ------------------------------------------------------------------- */
enum { HEAD = 256 << 10 };  /* the headers' bytes kept from the hash's reads: EXIF and XMP lie in them */

static void sax_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int namespaces,
                      const xmlChar **ns, int attributes, int defaulted, const xmlChar **values) {
    (void)name; (void)prefix; (void)uri; (void)namespaces; (void)ns; (void)defaulted; (void)values;
    *(int *)ctx += 1 + attributes;
}

/* The JSON a sidecar holds of a JPEG's headers: size (SOF), EXIF's date, camera, orientation and
 * position as libexif gives them, and the count of XMP elements and attributes libxml2 read. */
static char *describe(const unsigned char *b, size_t n, const char *path, const char *hex) {
    char date[64] = "", make[64] = "", model[64] = "", orientation[32] = "", lat[64] = "", lon[64] = "";
    int width = 0, height = 0, xmp = 0;
    for (size_t at = 2; n >= 4 && b[0] == 0xFF && b[1] == 0xD8 && at + 4 <= n && b[at] == 0xFF;) {
        int marker = b[at + 1];
        size_t length = (size_t)b[at + 2] << 8 | b[at + 3];
        if (marker == 0xDA || length < 2 || at + 2 + length > n) break;
        const unsigned char *p = b + at + 4;
        size_t m = length - 2;
        if (marker == 0xE1 && m > 6 && memcmp(p, "Exif\0\0", 6) == 0) {
            ExifData *exif = exif_data_new_from_data(p, (unsigned)m);
            struct { ExifIfd ifd; ExifTag tag; char *out; size_t size; } wanted[] = {
                {EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, date, sizeof date}, {EXIF_IFD_0, EXIF_TAG_MAKE, make, sizeof make},
                {EXIF_IFD_0, EXIF_TAG_MODEL, model, sizeof model}, {EXIF_IFD_0, EXIF_TAG_ORIENTATION, orientation, sizeof orientation},
                {EXIF_IFD_GPS, (ExifTag)EXIF_TAG_GPS_LATITUDE, lat, sizeof lat}, {EXIF_IFD_GPS, (ExifTag)EXIF_TAG_GPS_LONGITUDE, lon, sizeof lon}};
            for (size_t k = 0; exif && k < sizeof wanted / sizeof *wanted; k++) {
                ExifEntry *e = exif_content_get_entry(exif->ifd[wanted[k].ifd], wanted[k].tag);
                if (e) exif_entry_get_value(e, wanted[k].out, (unsigned)wanted[k].size);
            }
            if (exif) exif_data_unref(exif);
        } else if (marker == 0xE1 && m > 29 && memcmp(p, "http://ns.adobe.com/xap/1.0/", 29) == 0) {
            xmlSAXHandler sax = {0};
            sax.initialized = XML_SAX2_MAGIC;
            sax.startElementNs = sax_start;
            xmlSAXUserParseMemory(&sax, &xmp, (const char *)p + 29, (int)(m - 29));
        } else if ((marker == 0xC0 || marker == 0xC2) && m >= 5) {
            height = p[1] << 8 | p[2];
            width = p[3] << 8 | p[4];
        }
        at += 2 + length;
    }
    char *json = malloc(1024);
    snprintf(json, 1024, "{\"format\":\"jpeg\",\"pixelWidth\":%d,\"pixelHeight\":%d,\"takenAt\":\"%s\",\"make\":\"%s\",\"model\":\"%s\","
             "\"orientation\":\"%s\",\"gps\":[\"%s\",\"%s\"],\"xmpItems\":%d,\"path\":\"%s\",\"sha256\":\"%s\"}",
             width, height, date, make, model, orientation, lat, lon, xmp, path, hex);
    return json;
}

static void flush_folder(int fd, const char *what) {
    if (fsync(fd) != 0) die("cannot flush folder", what);
}

/* Batch after batch, in order, as each one's files are done: the replay record flushed, the
 * sidecars written, one syncfs, the rows in one transaction (synchronous = FULL), the record gone. */
static void commit_batches(sqlite3 *db) {
    sqlite3_stmt *insert;
    if (sqlite3_prepare_v2(db, "INSERT INTO asset (id, path, sha256, metadata) VALUES (?, ?, ?, ?)", -1, &insert, NULL) != SQLITE_OK)
        die("cannot prepare", sqlite3_errmsg(db));
    for (size_t start = 0; start < count; start += BATCH) {
        size_t end = start + BATCH < count ? start + BATCH : count;
        /* One wait, asleep: until every file of THIS batch is described (a worker sets a body, then
         * signals under the lock, so no wake-up is lost between a look and the wait). */
        pthread_mutex_lock(&done_lock);
        for (size_t ready = start; ready < end;) {
            if (__atomic_load_n(&bodies[ready], __ATOMIC_ACQUIRE)) ready++;
            else pthread_cond_wait(&done_changed, &done_lock);
        }
        pthread_mutex_unlock(&done_lock);
        int record = openat(out_fd, "journal.json", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
        char ids[BATCH * 20];
        size_t used = 0;
        for (size_t i = start; i < end; i++) used += (size_t)snprintf(ids + used, sizeof ids - used, "\"%016zx\",", i);
        if (record < 0 || write(record, ids, used) != (ssize_t)used || fdatasync(record) != 0) die("cannot write", "journal.json");
        close(record);
        flush_folder(out_fd, "OUTDIR");
        for (size_t i = start; i < end; i++) write_sidecar(i, NULL, NULL, bodies[i]);
        if (syncfs(sidecars_fd) != 0) die("cannot syncfs", "sidecars");
        flush_folder(sidecars_fd, "sidecars");
        sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
        for (size_t i = start; i < end; i++) {
            char id[20];
            snprintf(id, sizeof id, "%016zx", i);
            sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(insert, 2, paths[i], -1, SQLITE_STATIC);
            sqlite3_bind_text(insert, 3, strstr(bodies[i], "\"sha256\":\"") + 10, 64, SQLITE_STATIC);
            sqlite3_bind_text(insert, 4, bodies[i], -1, SQLITE_STATIC);
            if (sqlite3_step(insert) != SQLITE_DONE) die("cannot insert", sqlite3_errmsg(db));
            sqlite3_reset(insert);
        }
        if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) die("cannot commit", sqlite3_errmsg(db));
        if (unlinkat(out_fd, "journal.json", 0) != 0) die("cannot remove", "journal.json");
        flush_folder(out_fd, "OUTDIR");
    }
    sqlite3_finalize(insert);
}

/* SPEC's album links carry their place in the album (`001 IMG_0412.JPG`, by date), so no link
 * can be named before the album's last photo is known: after the last batch, the year album on
 * one thread and one album per folder (standing for a place) on another, as the scan does. */
static int by_date(const void *a, const void *b) {
    const char *x = strstr(bodies[*(const size_t *)a], "\"takenAt\""), *y = strstr(bodies[*(const size_t *)b], "\"takenAt\"");
    int c = strncmp(x, y, 32);
    return c ? c : strcmp(paths[*(const size_t *)a], paths[*(const size_t *)b]);
}

static size_t *order;

static void *write_year_album(void *unused) {
    (void)unused;
    for (size_t k = 0; k < count; k++) {
        char name[4200], target[4200];
        const char *slash = strrchr(paths[order[k]], '/');
        snprintf(name, sizeof name, "%04zu %s", k + 1, slash ? slash + 1 : paths[order[k]]);
        snprintf(target, sizeof target, "../../../%s", paths[order[k]]);
        if (symlinkat(target, year_fd, name) != 0) die("cannot link", name);
    }
    return NULL;
}

static size_t *rank;  /* a file's place in the date order */

static size_t folder_length(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) : 0;
}

static int by_folder_then_date(const void *a, const void *b) {
    size_t i = *(const size_t *)a, j = *(const size_t *)b, m = folder_length(paths[i]), n = folder_length(paths[j]);
    int c = strncmp(paths[i], paths[j], m < n ? m : n);
    if (c == 0 && m != n) c = m < n ? -1 : 1;
    return c ? c : (rank[i] > rank[j]) - (rank[i] < rank[j]);
}

static void write_place_albums(void) {
    size_t *places = malloc((count ? count : 1) * sizeof *places);
    rank = malloc((count ? count : 1) * sizeof *rank);
    for (size_t k = 0; k < count; k++) { places[k] = order[k]; rank[order[k]] = k; }
    qsort(places, count, sizeof *places, by_folder_then_date);
    int album = -1;
    for (size_t k = 0, position = 0; k < count; k++) {
        const char *path = paths[places[k]];
        size_t length = folder_length(path);
        if (k == 0 || length != folder_length(paths[places[k - 1]]) || strncmp(path, paths[places[k - 1]], length) != 0) {
            char folder[4200];
            snprintf(folder, sizeof folder, "%.*s", (int)length, length ? path : "root");
            for (char *c = folder; *c; c++) if (*c == '/') *c = ' ';
            if (album >= 0) close(album);
            if (mkdirat(place_fd, folder, 0755) != 0) die("cannot make album", folder);
            album = openat(place_fd, folder, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (album < 0) die("cannot open album", folder);
            position = 0;
        }
        char name[4200], target[4200];
        snprintf(name, sizeof name, "%04zu %s", ++position, path + (length ? length + 1 : 0));
        snprintf(target, sizeof target, "../../../%s", path);
        if (symlinkat(target, album, name) != 0) die("cannot link", name);
    }
    if (album >= 0) close(album);
    free(places);
    free(rank);
}

static void write_albums(void) {
    order = malloc((count ? count : 1) * sizeof *order);
    for (size_t k = 0; k < count; k++) order[k] = k;
    qsort(order, count, sizeof *order, by_date);
    pthread_t year;
    pthread_create(&year, NULL, write_year_album, NULL);
    write_place_albums();
    pthread_join(year, NULL);
    free(order);
}

static sqlite3 *open_index(const char *outdir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/index.sqlite", outdir);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) die("cannot open index", path);
    const char *setup = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
                        "CREATE TABLE asset (id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, sha256 TEXT NOT NULL, metadata TEXT NOT NULL);"
                        "CREATE INDEX asset_sha256 ON asset (sha256);";
    if (sqlite3_exec(db, setup, NULL, NULL, NULL) != SQLITE_OK) die("cannot set up index", sqlite3_errmsg(db));
    return db;
}

static void *worker(void *unused) {
    (void)unused;
    size_t size = getenv("FLOOR_BUFFER") ? (size_t)atol(getenv("FLOOR_BUFFER")) : 128 << 10; /* 128 KiB: as fast as any size here */
    unsigned char *buffer = malloc(size), *head = malloc(HEAD);
    for (;;) {
        size_t i = atomic_fetch_add(&next_index, 1);
        if (i >= count) break;
        char hex[65];
        size_t kept = hash_file(paths[i], buffer, size, hex, stage == FULL ? head : NULL, HEAD);
        if (stage == FULL) {
            __atomic_store_n(&bodies[i], describe(head, kept, paths[i], hex), __ATOMIC_RELEASE);
            pthread_mutex_lock(&done_lock);
            pthread_cond_signal(&done_changed);
            pthread_mutex_unlock(&done_lock);
        } else if (stage >= SIDECAR) write_sidecar(i, paths[i], hex, NULL);
        if (stage == LINKS) {
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
    free(head);
    return NULL;
}

static int make_folder(int parent, const char *name) {
    if (mkdirat(parent, name, 0755) != 0) die("cannot make folder (it must not exist)", name);
    int fd = openat(parent, name, O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) die("cannot open folder", name);
    return fd;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: scan_floor LIST OUTDIR THREADS hash|sidecar|links|full\n"); return 2; }
    stage = strcmp(argv[4], "full") == 0 ? FULL : strcmp(argv[4], "links") == 0 ? LINKS : strcmp(argv[4], "sidecar") == 0 ? SIDECAR : HASH;
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
    out_fd = make_folder(AT_FDCWD, argv[2]);
    sidecars_fd = make_folder(out_fd, "sidecars");
    year_fd = make_folder(out_fd, "year");
    place_fd = make_folder(out_fd, "place");
    bodies = calloc(count ? count : 1, sizeof *bodies);
    xmlInitParser();

    int threads = atoi(argv[3]);
    pthread_t ids[64];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sqlite3 *db = stage == FULL ? open_index(argv[2]) : NULL;
    for (int t = 0; t < threads && t < 64; t++) pthread_create(&ids[t], NULL, worker, NULL);
    if (db) commit_batches(db);
    for (int t = 0; t < threads && t < 64; t++) pthread_join(ids[t], NULL);
    if (db) write_albums();
    if (db) sqlite3_close(db);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.6f %llu\n", seconds, (unsigned long long)atomic_load(&total_bytes));
    return 0;
}
