#ifndef SHOEBOX_CLibRaw_SHIM_H
#define SHOEBOX_CLibRaw_SHIM_H
#include <libraw/libraw.h>
#endif
