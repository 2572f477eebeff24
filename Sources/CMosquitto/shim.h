// Eclipse Mosquitto's client library (Debian's libmosquitto-dev): MQTT 3.1.1 and 5 with a
// network thread of its own, reconnection and a last will.
//
// Loaded with dlopen when the first connection is made, not linked: a process that never
// publishes (`headroom serve` without --mqtt, every other command) maps neither libmosquitto
// nor the OpenSSL it links (1.8 MB resident, docs/benchmarks.md). Only the header is needed
// to build; the package depends on libmosquitto1.
#include <dlfcn.h>
#include <mosquitto.h>
#include <stdbool.h>
#include <stdio.h>

// The functions the MQTT module calls, each as X(field, function).
#define HEADROOM_MOSQUITTO_FUNCTIONS(X)                                                          \
    X(lib_init, mosquitto_lib_init)                                                              \
    X(create, mosquitto_new)                                                                     \
    X(destroy, mosquitto_destroy)                                                                \
    X(int_option, mosquitto_int_option)                                                          \
    X(reconnect_delay_set, mosquitto_reconnect_delay_set)                                        \
    X(will_set, mosquitto_will_set)                                                              \
    X(username_pw_set, mosquitto_username_pw_set)                                                \
    X(tls_set, mosquitto_tls_set)                                                                \
    X(connect_callback_set, mosquitto_connect_callback_set)                                      \
    X(disconnect_callback_set, mosquitto_disconnect_callback_set)                                \
    X(publish_callback_set, mosquitto_publish_callback_set)                                      \
    X(message_callback_set, mosquitto_message_callback_set)                                      \
    X(connack_string, mosquitto_connack_string)                                                  \
    X(strerror, mosquitto_strerror)                                                              \
    X(connect_async, mosquitto_connect_async)                                                    \
    X(loop_start, mosquitto_loop_start)                                                          \
    X(loop_stop, mosquitto_loop_stop)                                                            \
    X(publish, mosquitto_publish)                                                                \
    X(subscribe, mosquitto_subscribe)                                                            \
    X(disconnect, mosquitto_disconnect)

// libmosquitto's functions, as loaded: each field has the type its function has in the header.
struct headroom_mosquitto {
#define HEADROOM_MOSQUITTO_FIELD(field, function) __typeof__(function) *_Nonnull field;
    HEADROOM_MOSQUITTO_FUNCTIONS(HEADROOM_MOSQUITTO_FIELD)
#undef HEADROOM_MOSQUITTO_FIELD
};

// Opens libmosquitto.so.1 and fills `functions`; false with why in `error` (`size` bytes) when
// the library or one of its functions is missing. Called once per process.
static inline bool headroom_mosquitto_load(struct headroom_mosquitto *_Nonnull functions,
                                           char *_Nonnull error, size_t size) {
    void *library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(error, size, "%s (Debian's libmosquitto1)", dlerror());
        return false;
    }
#define HEADROOM_MOSQUITTO_SYMBOL(field, function)                                               \
    functions->field = (__typeof__(function) *)dlsym(library, #function);                       \
    if (functions->field == NULL) {                                                              \
        snprintf(error, size, "libmosquitto.so.1 has no %s", #function);                         \
        return false;                                                                            \
    }
    HEADROOM_MOSQUITTO_FUNCTIONS(HEADROOM_MOSQUITTO_SYMBOL)
#undef HEADROOM_MOSQUITTO_SYMBOL
    return true;
}
