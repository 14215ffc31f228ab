#ifndef SHOEBOX_CIptcData_SHIM_H
#define SHOEBOX_CIptcData_SHIM_H
#include <libiptcdata/iptc-data.h>
#include <libiptcdata/iptc-dataset.h>
#include <libiptcdata/iptc-tag.h>
#include <libiptcdata/iptc-jpeg.h>
#endif
