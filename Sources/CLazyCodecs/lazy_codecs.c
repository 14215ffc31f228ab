// Why loaded on first use: `shoebox-readers` (scan, rebuild, doctor) links Metadata, whose
// readers use libheif, libtiff and LibRaw only for HEIC, TIFF and camera raw files. Linked, the
// three and what they bring (libde265, x265, aom, dav1d, libwebp, Lerc, OpenMP…) were loaded and
// relocated before `main` in every run — libheif alone ~4.5 ms, its plugins initialised by a
// static constructor — 5.5 ms of the ~14 ms start of every scan, most of which meet only JPEGs
// (bench/startup.py; docs/BENCHMARKS.md). dlopen is the loader made for this; the functions keep
// their C types from the libraries' own headers, and a binary that links a library already
// (shoebox-pixels links libheif and libtiff) gets the same copy back from dlopen.
#include "lazy_codecs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

// Debian 12's sonames (libheif1, libtiff6, libraw20); the unversioned name (the -dev package's
// link) as a fallback.
#define SHOEBOX_LAZY_POINTER(ret, name, params, args) static ret(*p_##name) params;
#define SHOEBOX_LAZY_POINTER_VOID(name, params, args) static void(*p_##name) params;
#define SHOEBOX_LAZY_LOOKUP(ret, name, params, args)                                                     \
    if (!(p_##name = (ret(*) params)dlsym(handle, #name))) return "a function is missing: " #name;
#define SHOEBOX_LAZY_LOOKUP_VOID(name, params, args)                                                     \
    if (!(p_##name = (void(*) params)dlsym(handle, #name))) return "a function is missing: " #name;
#define SHOEBOX_LAZY_CALL(ret, name, params, args) ret shoebox_##name params { return p_##name args; }
#define SHOEBOX_LAZY_CALL_VOID(name, params, args) void shoebox_##name params { p_##name args; }

// One library: its pointers, a loader run once, and the calls through the pointers.
#define SHOEBOX_LAZY_LIBRARY(lib, soname, fallback, FUNCTIONS)                                          \
    FUNCTIONS(SHOEBOX_LAZY_POINTER, SHOEBOX_LAZY_POINTER_VOID)                                          \
    static const char *lib##_failure = NULL;                                                            \
    static char lib##_why[512];                                                                         \
    static pthread_once_t lib##_once = PTHREAD_ONCE_INIT;                                               \
    static const char *lib##_lookup(void *handle) {                                                     \
        FUNCTIONS(SHOEBOX_LAZY_LOOKUP, SHOEBOX_LAZY_LOOKUP_VOID)                                        \
        return NULL;                                                                                    \
    }                                                                                                   \
    static void lib##_load(void) {                                                                      \
        void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);                                           \
        if (!handle) handle = dlopen(fallback, RTLD_NOW | RTLD_LOCAL);                                  \
        if (!handle) {                                                                                  \
            const char *why = dlerror(); /* dlerror's text lives only until the next dl call */       \
            snprintf(lib##_why, sizeof lib##_why, "%s", why ? why : soname ": cannot be opened");       \
            lib##_failure = lib##_why;                                                                  \
            return;                                                                                     \
        }                                                                                               \
        lib##_failure = lib##_lookup(handle);                                                           \
    }                                                                                                   \
    int shoebox_##lib##_open(void) {                                                                    \
        pthread_once(&lib##_once, lib##_load);                                                          \
        return lib##_failure == NULL;                                                                   \
    }                                                                                                   \
    const char *shoebox_##lib##_failure(void) { return lib##_failure; }                                 \
    FUNCTIONS(SHOEBOX_LAZY_CALL, SHOEBOX_LAZY_CALL_VOID)

SHOEBOX_LAZY_LIBRARY(heif, "libheif.so.1", "libheif.so", SHOEBOX_HEIF_FUNCTIONS)
SHOEBOX_LAZY_LIBRARY(tiff, "libtiff.so.6", "libtiff.so", SHOEBOX_TIFF_FUNCTIONS)
SHOEBOX_LAZY_LIBRARY(libraw, "libraw_r.so.20", "libraw_r.so", SHOEBOX_LIBRAW_FUNCTIONS)
