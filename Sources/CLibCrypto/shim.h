#ifndef SHOEBOX_CLIBCRYPTO_SHIM_H
#define SHOEBOX_CLIBCRYPTO_SHIM_H
// OpenSSL's EVP digests only: SHA-256 of files, album links, tracker photos and web assets.
#include <openssl/evp.h>
#endif
