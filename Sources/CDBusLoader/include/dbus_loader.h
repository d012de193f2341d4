// libdbus-1, the reference D-Bus library, loaded on first use (dlopen of libdbus-1.so.3) instead of at start-up.
//
// Why this target exists: libdbus-1.so.3 brings six more shared libraries with it (libsystemd, libgcrypt, libcap,
// liblzma, libzstd, liblz4, libgpg-error); mapping and relocating them cost every `security` process about 1 ms,
// yet only `security secret-service` talks D-Bus. OSecDBus calls these `osec_dbus_…` functions, which forward to
// libdbus's. `osec_dbus_load` must succeed before a connection is opened; every function that takes a connection or
// a message can only be reached after it. The functions that need neither (the DBusError ones, the validators) load
// the library themselves and answer "invalid" when it cannot be loaded.
//
// The declarations are libdbus's own (its public, ABI-stable API since D-Bus 1.0); they are repeated here because
// the library's headers live in directories only pkg-config knows, and pkg-config would also link the library.
// dbus_loader.c checks the two public structure layouts against the sizes of the LP64 ABI.
#ifndef OPENSEC_DBUS_LOADER_H
#define OPENSEC_DBUS_LOADER_H

#include <stddef.h>

typedef unsigned int dbus_uint32_t;
typedef dbus_uint32_t dbus_bool_t;

/// A connection (opaque; libdbus's `DBusConnection`).
typedef struct DBusConnection DBusConnection;
/// A message (opaque; libdbus's `DBusMessage`).
typedef struct DBusMessage DBusMessage;

/// libdbus's `DBusError`: `name` and `message` are public, the rest is the library's.
typedef struct DBusError {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1;
    unsigned int dummy2 : 1;
    unsigned int dummy3 : 1;
    unsigned int dummy4 : 1;
    unsigned int dummy5 : 1;
    void *padding1;
} DBusError;

/// libdbus's `DBusMessageIter`: storage for the library's iterator state (no public fields).
typedef struct DBusMessageIter {
    void *dummy1;
    void *dummy2;
    dbus_uint32_t dummy3;
    int dummy4;
    int dummy5;
    int dummy6;
    int dummy7;
    int dummy8;
    int dummy9;
    int dummy10;
    int dummy11;
    int pad1;
    void *pad2;
    void *pad3;
} DBusMessageIter;

/// libdbus's `DBusBusType`.
typedef enum { DBUS_BUS_SESSION, DBUS_BUS_SYSTEM, DBUS_BUS_STARTER } DBusBusType;

/// Loads libdbus once (thread-safe). 0 when it is loaded with every function below; otherwise -1, with `*error`
/// (when not NULL) pointing to a static message naming the library and the reason.
int osec_dbus_load(const char **error);

void osec_dbus_bus_add_match(DBusConnection *connection, const char *rule, DBusError *error);
DBusConnection *osec_dbus_bus_get_private(DBusBusType type, DBusError *error);
const char *osec_dbus_bus_get_unique_name(DBusConnection *connection);
unsigned long osec_dbus_bus_get_unix_user(DBusConnection *connection, const char *name, DBusError *error);
dbus_bool_t osec_dbus_bus_register(DBusConnection *connection, DBusError *error);
int osec_dbus_bus_release_name(DBusConnection *connection, const char *name, DBusError *error);
int osec_dbus_bus_request_name(DBusConnection *connection, const char *name, unsigned int flags, DBusError *error);
void osec_dbus_connection_close(DBusConnection *connection);
void osec_dbus_connection_flush(DBusConnection *connection);
dbus_bool_t osec_dbus_connection_get_is_connected(DBusConnection *connection);
DBusConnection *osec_dbus_connection_open_private(const char *address, DBusError *error);
DBusMessage *osec_dbus_connection_pop_message(DBusConnection *connection);
dbus_bool_t osec_dbus_connection_read_write(DBusConnection *connection, int timeout_milliseconds);
dbus_bool_t osec_dbus_connection_send(DBusConnection *connection, DBusMessage *message, dbus_uint32_t *client_serial);
void osec_dbus_connection_set_exit_on_disconnect(DBusConnection *connection, dbus_bool_t exit_on_disconnect);
void osec_dbus_connection_unref(DBusConnection *connection);
void osec_dbus_error_free(DBusError *error);
void osec_dbus_error_init(DBusError *error);
dbus_bool_t osec_dbus_error_is_set(const DBusError *error);
void osec_dbus_free(void *memory);
const char *osec_dbus_message_get_interface(DBusMessage *message);
const char *osec_dbus_message_get_member(DBusMessage *message);
dbus_bool_t osec_dbus_message_get_no_reply(DBusMessage *message);
const char *osec_dbus_message_get_path(DBusMessage *message);
dbus_uint32_t osec_dbus_message_get_reply_serial(DBusMessage *message);
const char *osec_dbus_message_get_sender(DBusMessage *message);
const char *osec_dbus_message_get_signature(DBusMessage *message);
int osec_dbus_message_get_type(DBusMessage *message);
void osec_dbus_message_iter_abandon_container(DBusMessageIter *iter, DBusMessageIter *sub);
dbus_bool_t osec_dbus_message_iter_append_basic(DBusMessageIter *iter, int type, const void *value);
dbus_bool_t osec_dbus_message_iter_append_fixed_array(DBusMessageIter *iter, int element_type, const void *value,
                                                      int n_elements);
dbus_bool_t osec_dbus_message_iter_close_container(DBusMessageIter *iter, DBusMessageIter *sub);
int osec_dbus_message_iter_get_arg_type(DBusMessageIter *iter);
void osec_dbus_message_iter_get_basic(DBusMessageIter *iter, void *value);
void osec_dbus_message_iter_get_fixed_array(DBusMessageIter *iter, void *value, int *n_elements);
char *osec_dbus_message_iter_get_signature(DBusMessageIter *iter);
dbus_bool_t osec_dbus_message_iter_init(DBusMessage *message, DBusMessageIter *iter);
void osec_dbus_message_iter_init_append(DBusMessage *message, DBusMessageIter *iter);
dbus_bool_t osec_dbus_message_iter_next(DBusMessageIter *iter);
dbus_bool_t osec_dbus_message_iter_open_container(DBusMessageIter *iter, int type, const char *contained_signature,
                                                  DBusMessageIter *sub);
void osec_dbus_message_iter_recurse(DBusMessageIter *iter, DBusMessageIter *sub);
DBusMessage *osec_dbus_message_new_error(DBusMessage *reply_to, const char *error_name, const char *error_message);
DBusMessage *osec_dbus_message_new_method_call(const char *destination, const char *path, const char *iface,
                                             const char *method);
DBusMessage *osec_dbus_message_new_method_return(DBusMessage *method_call);
DBusMessage *osec_dbus_message_new_signal(const char *path, const char *iface, const char *name);
dbus_bool_t osec_dbus_message_set_destination(DBusMessage *message, const char *destination);
void osec_dbus_message_unref(DBusMessage *message);
dbus_bool_t osec_dbus_signature_validate_single(const char *signature, DBusError *error);
dbus_bool_t osec_dbus_validate_path(const char *path, DBusError *error);

#endif
