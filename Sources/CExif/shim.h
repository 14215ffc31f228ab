#ifndef SHOEBOX_CExif_SHIM_H
#define SHOEBOX_CExif_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-tag.h>
#endif
