#include "dbus_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// The layouts libdbus's headers give these structures on LP64 platforms (x86_64, aarch64); the library writes into
// storage the caller allocates, so a different size would corrupt memory.
#if defined(__LP64__)
_Static_assert(sizeof(DBusError) == 32, "DBusError must match libdbus's layout");
_Static_assert(offsetof(DBusError, padding1) == 24, "DBusError must match libdbus's layout");
_Static_assert(sizeof(DBusMessageIter) == 72, "DBusMessageIter must match libdbus's layout");
#endif

// Every libdbus function OSecDBus uses (without the `dbus_` prefix).
#define OSEC_DBUS_FUNCTIONS(X)                                                                                         \
    X(bus_add_match)                                                                                                   \
    X(bus_get_private)                                                                                                 \
    X(bus_get_unique_name)                                                                                             \
    X(bus_get_unix_user)                                                                                               \
    X(bus_register)                                                                                                    \
    X(bus_release_name)                                                                                                \
    X(bus_request_name)                                                                                                \
    X(connection_close)                                                                                                \
    X(connection_flush)                                                                                                \
    X(connection_get_is_connected)                                                                                     \
    X(connection_open_private)                                                                                         \
    X(connection_pop_message)                                                                                          \
    X(connection_read_write)                                                                                           \
    X(connection_send)                                                                                                 \
    X(connection_set_exit_on_disconnect)                                                                               \
    X(connection_unref)                                                                                                \
    X(error_free)                                                                                                      \
    X(error_init)                                                                                                      \
    X(error_is_set)                                                                                                    \
    X(free)                                                                                                            \
    X(message_get_interface)                                                                                           \
    X(message_get_member)                                                                                              \
    X(message_get_no_reply)                                                                                            \
    X(message_get_path)                                                                                                \
    X(message_get_reply_serial)                                                                                        \
    X(message_get_sender)                                                                                              \
    X(message_get_signature)                                                                                           \
    X(message_get_type)                                                                                                \
    X(message_iter_abandon_container)                                                                                  \
    X(message_iter_append_basic)                                                                                       \
    X(message_iter_append_fixed_array)                                                                                 \
    X(message_iter_close_container)                                                                                    \
    X(message_iter_get_arg_type)                                                                                       \
    X(message_iter_get_basic)                                                                                          \
    X(message_iter_get_fixed_array)                                                                                    \
    X(message_iter_get_signature)                                                                                      \
    X(message_iter_init)                                                                                               \
    X(message_iter_init_append)                                                                                        \
    X(message_iter_next)                                                                                               \
    X(message_iter_open_container)                                                                                     \
    X(message_iter_recurse)                                                                                            \
    X(message_new_error)                                                                                               \
    X(message_new_method_call)                                                                                         \
    X(message_new_method_return)                                                                                       \
    X(message_new_signal)                                                                                              \
    X(message_set_destination)                                                                                         \
    X(message_unref)                                                                                                   \
    X(signature_validate_single)                                                                                       \
    X(validate_path)

// Each forwarder has the signature of the libdbus function it forwards to.
#define OSEC_DBUS_FIELD(name) __typeof__(&osec_dbus_##name) name;
static struct {
    OSEC_DBUS_FUNCTIONS(OSEC_DBUS_FIELD)
} dbus;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    // libdbus-1.so.3 has been the library's soname since D-Bus 1.0.
    void *handle = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof(load_error), "cannot load libdbus-1.so.3 (the D-Bus library): %s",
                 reason ? reason : "not found");
        return;
    }
    const char *missing = NULL;
#define OSEC_DBUS_RESOLVE(name)                                                                                        \
    dbus.name = (__typeof__(&osec_dbus_##name))dlsym(handle, "dbus_" #name);                                           \
    if (dbus.name == NULL && missing == NULL) {                                                                        \
        missing = "dbus_" #name;                                                                                       \
    }
    OSEC_DBUS_FUNCTIONS(OSEC_DBUS_RESOLVE)
#undef OSEC_DBUS_RESOLVE
    if (missing != NULL) {
        snprintf(load_error, sizeof(load_error), "libdbus-1.so.3 lacks %s (libdbus too old)", missing);
        dlclose(handle);
        return;
    }
    loaded = 1;  // the handle stays open for the life of the process
}

int osec_dbus_load(const char **error) {
    pthread_once(&load_once, load);
    if (!loaded) {
        if (error != NULL) {
            *error = load_error;
        }
        return -1;
    }
    return 0;
}

// MARK: Usable without a connection (they load the library themselves)

void osec_dbus_error_init(DBusError *error) {
    if (osec_dbus_load(NULL) == 0) {
        dbus.error_init(error);
    } else {
        memset(error, 0, sizeof(*error));  // what dbus_error_init leaves: no name, no message
    }
}
void osec_dbus_error_free(DBusError *error) {
    if (osec_dbus_load(NULL) == 0) {
        dbus.error_free(error);
    }
}
dbus_bool_t osec_dbus_error_is_set(const DBusError *error) {
    return osec_dbus_load(NULL) == 0 ? dbus.error_is_set(error) : 0;
}
dbus_bool_t osec_dbus_signature_validate_single(const char *signature, DBusError *error) {
    return osec_dbus_load(NULL) == 0 ? dbus.signature_validate_single(signature, error) : 0;
}
dbus_bool_t osec_dbus_validate_path(const char *path, DBusError *error) {
    return osec_dbus_load(NULL) == 0 ? dbus.validate_path(path, error) : 0;
}

// MARK: Reached only through a connection (osec_dbus_load succeeded before it was opened)

void osec_dbus_bus_add_match(DBusConnection *connection, const char *rule, DBusError *error) {
    dbus.bus_add_match(connection, rule, error);
}
DBusConnection *osec_dbus_bus_get_private(DBusBusType type, DBusError *error) {
    return dbus.bus_get_private(type, error);
}
const char *osec_dbus_bus_get_unique_name(DBusConnection *connection) { return dbus.bus_get_unique_name(connection); }
unsigned long osec_dbus_bus_get_unix_user(DBusConnection *connection, const char *name, DBusError *error) {
    return dbus.bus_get_unix_user(connection, name, error);
}
dbus_bool_t osec_dbus_bus_register(DBusConnection *connection, DBusError *error) {
    return dbus.bus_register(connection, error);
}
int osec_dbus_bus_release_name(DBusConnection *connection, const char *name, DBusError *error) {
    return dbus.bus_release_name(connection, name, error);
}
int osec_dbus_bus_request_name(DBusConnection *connection, const char *name, unsigned int flags, DBusError *error) {
    return dbus.bus_request_name(connection, name, flags, error);
}
void osec_dbus_connection_close(DBusConnection *connection) { dbus.connection_close(connection); }
void osec_dbus_connection_flush(DBusConnection *connection) { dbus.connection_flush(connection); }
dbus_bool_t osec_dbus_connection_get_is_connected(DBusConnection *connection) {
    return dbus.connection_get_is_connected(connection);
}
DBusConnection *osec_dbus_connection_open_private(const char *address, DBusError *error) {
    return dbus.connection_open_private(address, error);
}
DBusMessage *osec_dbus_connection_pop_message(DBusConnection *connection) {
    return dbus.connection_pop_message(connection);
}
dbus_bool_t osec_dbus_connection_read_write(DBusConnection *connection, int timeout_milliseconds) {
    return dbus.connection_read_write(connection, timeout_milliseconds);
}
dbus_bool_t osec_dbus_connection_send(DBusConnection *connection, DBusMessage *message, dbus_uint32_t *client_serial) {
    return dbus.connection_send(connection, message, client_serial);
}
void osec_dbus_connection_set_exit_on_disconnect(DBusConnection *connection, dbus_bool_t exit_on_disconnect) {
    dbus.connection_set_exit_on_disconnect(connection, exit_on_disconnect);
}
void osec_dbus_connection_unref(DBusConnection *connection) { dbus.connection_unref(connection); }
void osec_dbus_free(void *memory) { dbus.free(memory); }
const char *osec_dbus_message_get_interface(DBusMessage *message) { return dbus.message_get_interface(message); }
const char *osec_dbus_message_get_member(DBusMessage *message) { return dbus.message_get_member(message); }
dbus_bool_t osec_dbus_message_get_no_reply(DBusMessage *message) { return dbus.message_get_no_reply(message); }
const char *osec_dbus_message_get_path(DBusMessage *message) { return dbus.message_get_path(message); }
dbus_uint32_t osec_dbus_message_get_reply_serial(DBusMessage *message) {
    return dbus.message_get_reply_serial(message);
}
DBusMessage *osec_dbus_message_new_method_call(const char *destination, const char *path, const char *iface,
                                             const char *method) {
    return dbus.message_new_method_call(destination, path, iface, method);
}
const char *osec_dbus_message_get_sender(DBusMessage *message) { return dbus.message_get_sender(message); }
const char *osec_dbus_message_get_signature(DBusMessage *message) { return dbus.message_get_signature(message); }
int osec_dbus_message_get_type(DBusMessage *message) { return dbus.message_get_type(message); }
void osec_dbus_message_iter_abandon_container(DBusMessageIter *iter, DBusMessageIter *sub) {
    dbus.message_iter_abandon_container(iter, sub);
}
dbus_bool_t osec_dbus_message_iter_append_basic(DBusMessageIter *iter, int type, const void *value) {
    return dbus.message_iter_append_basic(iter, type, value);
}
dbus_bool_t osec_dbus_message_iter_append_fixed_array(DBusMessageIter *iter, int element_type, const void *value,
                                                      int n_elements) {
    return dbus.message_iter_append_fixed_array(iter, element_type, value, n_elements);
}
dbus_bool_t osec_dbus_message_iter_close_container(DBusMessageIter *iter, DBusMessageIter *sub) {
    return dbus.message_iter_close_container(iter, sub);
}
int osec_dbus_message_iter_get_arg_type(DBusMessageIter *iter) { return dbus.message_iter_get_arg_type(iter); }
void osec_dbus_message_iter_get_basic(DBusMessageIter *iter, void *value) { dbus.message_iter_get_basic(iter, value); }
void osec_dbus_message_iter_get_fixed_array(DBusMessageIter *iter, void *value, int *n_elements) {
    dbus.message_iter_get_fixed_array(iter, value, n_elements);
}
char *osec_dbus_message_iter_get_signature(DBusMessageIter *iter) { return dbus.message_iter_get_signature(iter); }
dbus_bool_t osec_dbus_message_iter_init(DBusMessage *message, DBusMessageIter *iter) {
    return dbus.message_iter_init(message, iter);
}
void osec_dbus_message_iter_init_append(DBusMessage *message, DBusMessageIter *iter) {
    dbus.message_iter_init_append(message, iter);
}
dbus_bool_t osec_dbus_message_iter_next(DBusMessageIter *iter) { return dbus.message_iter_next(iter); }
dbus_bool_t osec_dbus_message_iter_open_container(DBusMessageIter *iter, int type, const char *contained_signature,
                                                  DBusMessageIter *sub) {
    return dbus.message_iter_open_container(iter, type, contained_signature, sub);
}
void osec_dbus_message_iter_recurse(DBusMessageIter *iter, DBusMessageIter *sub) {
    dbus.message_iter_recurse(iter, sub);
}
DBusMessage *osec_dbus_message_new_error(DBusMessage *reply_to, const char *error_name, const char *error_message) {
    return dbus.message_new_error(reply_to, error_name, error_message);
}
DBusMessage *osec_dbus_message_new_method_return(DBusMessage *method_call) {
    return dbus.message_new_method_return(method_call);
}
DBusMessage *osec_dbus_message_new_signal(const char *path, const char *iface, const char *name) {
    return dbus.message_new_signal(path, iface, name);
}
dbus_bool_t osec_dbus_message_set_destination(DBusMessage *message, const char *destination) {
    return dbus.message_set_destination(message, destination);
}
void osec_dbus_message_unref(DBusMessage *message) { dbus.message_unref(message); }
