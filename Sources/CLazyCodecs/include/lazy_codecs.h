#ifndef SHOEBOX_LAZY_CODECS_H
#define SHOEBOX_LAZY_CODECS_H
// libheif, libtiff and LibRaw for Metadata's header readers, opened with dlopen on first use
// (lazy_codecs.c says why). Each function below is the library's own, named shoebox_<name>:
// call shoebox_<library>_open() first (it loads the library once, thread-safely); the others
// must not be called unless it returned 1.
#include <libheif/heif.h>
#include <libraw/libraw.h>
#include <stdarg.h>
#include <tiffio.h>

// X(return type, name, parameters, arguments): functions that return a value.
// XV(name, parameters, arguments): functions that return nothing.
#define SHOEBOX_HEIF_FUNCTIONS(X, XV)                                                                      \
    X(struct heif_error, heif_init, (struct heif_init_params * p), (p))                                    \
    X(struct heif_context *, heif_context_alloc, (void), ())                                               \
    XV(heif_context_free, (struct heif_context * c), (c))                                                  \
    X(struct heif_error, heif_context_read_from_reader,                                                    \
      (struct heif_context * c, const struct heif_reader *r, void *u, const struct heif_reading_options *o), \
      (c, r, u, o))                                                                                        \
    XV(heif_context_set_maximum_image_size_limit, (struct heif_context * c, int w), (c, w))                \
    X(struct heif_error, heif_context_get_primary_image_handle,                                            \
      (struct heif_context * c, struct heif_image_handle * *h), (c, h))                                    \
    XV(heif_image_handle_release, (const struct heif_image_handle *h), (h))                                \
    X(int, heif_image_handle_get_width, (const struct heif_image_handle *h), (h))                          \
    X(int, heif_image_handle_get_height, (const struct heif_image_handle *h), (h))                         \
    X(int, heif_image_handle_get_number_of_metadata_blocks, (const struct heif_image_handle *h, const char *t), \
      (h, t))                                                                                              \
    X(int, heif_image_handle_get_list_of_metadata_block_IDs,                                               \
      (const struct heif_image_handle *h, const char *t, heif_item_id *ids, int n), (h, t, ids, n))        \
    X(const char *, heif_image_handle_get_metadata_content_type, (const struct heif_image_handle *h, heif_item_id i), \
      (h, i))                                                                                              \
    X(size_t, heif_image_handle_get_metadata_size, (const struct heif_image_handle *h, heif_item_id i), (h, i)) \
    X(struct heif_error, heif_image_handle_get_metadata, (const struct heif_image_handle *h, heif_item_id i, void *o), \
      (h, i, o))

#define SHOEBOX_TIFF_FUNCTIONS(X, XV)                                                                      \
    X(TIFFOpenOptions *, TIFFOpenOptionsAlloc, (void), ())                                                 \
    XV(TIFFOpenOptionsFree, (TIFFOpenOptions * o), (o))                                                    \
    XV(TIFFOpenOptionsSetMaxSingleMemAlloc, (TIFFOpenOptions * o, tmsize_t m), (o, m))                     \
    XV(TIFFOpenOptionsSetErrorHandlerExtR, (TIFFOpenOptions * o, TIFFErrorHandlerExtR h, void *u), (o, h, u)) \
    XV(TIFFOpenOptionsSetWarningHandlerExtR, (TIFFOpenOptions * o, TIFFErrorHandlerExtR h, void *u), (o, h, u)) \
    X(TIFF *, TIFFClientOpenExt,                                                                           \
      (const char *n, const char *m, thandle_t c, TIFFReadWriteProc r, TIFFReadWriteProc w, TIFFSeekProc s, \
       TIFFCloseProc cl, TIFFSizeProc z, TIFFMapFileProc mp, TIFFUnmapFileProc u, TIFFOpenOptions *o),     \
      (n, m, c, r, w, s, cl, z, mp, u, o))                                                                 \
    XV(TIFFClose, (TIFF * t), (t))                                                                         \
    X(int, TIFFVGetField, (TIFF * t, uint32_t tag, va_list a), (t, tag, a))                                \
    X(int, TIFFReadEXIFDirectory, (TIFF * t, toff_t o), (t, o))                                            \
    X(int, TIFFReadGPSDirectory, (TIFF * t, toff_t o), (t, o))                                             \
    X(const TIFFField *, TIFFFieldWithTag, (TIFF * t, uint32_t tag), (t, tag))                             \
    X(int, TIFFFieldSetGetSize, (const TIFFField *f), (f))

#define SHOEBOX_LIBRAW_FUNCTIONS(X, XV)                                                                    \
    X(libraw_data_t *, libraw_init, (unsigned int f), (f))                                                 \
    XV(libraw_close, (libraw_data_t * r), (r))                                                             \
    X(int, libraw_open_file, (libraw_data_t * r, const char *p), (r, p))                                   \
    X(int, libraw_open_buffer, (libraw_data_t * r, void *b, size_t n), (r, b, n))                          \
    X(int, libraw_unpack_thumb, (libraw_data_t * r), (r))                                                  \
    X(const char *, libraw_strerror, (int e), (e))

#define SHOEBOX_LAZY_DECLARE(ret, name, params, args) ret shoebox_##name params;
#define SHOEBOX_LAZY_DECLARE_VOID(name, params, args) void shoebox_##name params;
SHOEBOX_HEIF_FUNCTIONS(SHOEBOX_LAZY_DECLARE, SHOEBOX_LAZY_DECLARE_VOID)
SHOEBOX_TIFF_FUNCTIONS(SHOEBOX_LAZY_DECLARE, SHOEBOX_LAZY_DECLARE_VOID)
SHOEBOX_LIBRAW_FUNCTIONS(SHOEBOX_LAZY_DECLARE, SHOEBOX_LAZY_DECLARE_VOID)

/// 1 once the library and every function above are loaded; 0 when it cannot be (then
/// shoebox_<library>_failure() says why, as dlerror() did).
int shoebox_heif_open(void);
int shoebox_tiff_open(void);
int shoebox_libraw_open(void);
const char *shoebox_heif_failure(void);
const char *shoebox_tiff_failure(void);
const char *shoebox_libraw_failure(void);

#endif
