#ifndef SHOEBOX_CHeif_SHIM_H
#define SHOEBOX_CHeif_SHIM_H
#include <libheif/heif.h>
#endif
