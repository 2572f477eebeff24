// lm-sensors' libsensors (Debian libsensors-dev), imported as is: the Pressure module owns it.
#include <stdio.h>
#include <sensors/sensors.h>
#include <sensors/error.h>

// Installs libsensors' parse-error callback; a function so Swift does not touch the C global
// directly (callers hold the Pressure module's libsensors lock).
static inline void headroom_sensors_set_parse_error_handler(
    void (*handler)(const char *error, const char *file, int line)) {
    sensors_parse_error_wfn = handler;
}
