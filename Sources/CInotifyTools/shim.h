#ifndef SHOEBOX_CInotifyTools_SHIM_H
#define SHOEBOX_CInotifyTools_SHIM_H
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
#endif
