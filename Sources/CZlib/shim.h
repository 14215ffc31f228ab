#ifndef SHOEBOX_CZLIB_SHIM_H
#define SHOEBOX_CZLIB_SHIM_H
#include <zlib.h>
#endif
