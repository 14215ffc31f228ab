#ifndef SHOEBOX_CInotifyTools_SHIM_H
#define SHOEBOX_CInotifyTools_SHIM_H
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>

/// The name of an event's file (a flexible array member Swift cannot reach); "" when the event is about the watched folder itself.
static inline const char *shoebox_inotify_event_name(const struct inotify_event *event) {
    return event->len > 0 ? event->name : "";
}
#endif
