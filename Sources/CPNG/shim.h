#ifndef SHOEBOX_CPNG_SHIM_H
#define SHOEBOX_CPNG_SHIM_H
#include <png.h>
#endif
