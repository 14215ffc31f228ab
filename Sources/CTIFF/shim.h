#ifndef SHOEBOX_CTIFF_SHIM_H
#define SHOEBOX_CTIFF_SHIM_H
#include <tiffio.h>
#endif
