#ifndef SHOEBOX_CDe265_SHIM_H
#define SHOEBOX_CDe265_SHIM_H
#include <libde265/de265.h>
#endif
