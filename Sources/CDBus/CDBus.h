// System-library bridge to libdbus-1 (the reference D-Bus implementation). No code lives here: only
// Sources/OSecDBus calls it.
#ifndef OPENSEC_CDBUS_H
#define OPENSEC_CDBUS_H
#include <dbus/dbus.h>
#endif
