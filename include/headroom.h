/*
 * libheadroom: Headroom for C and C++ programs.
 *
 *   cc app.c $(pkg-config --cflags --libs headroom)
 *
 * Launch marks: headroom_begin/end/mark write into HEADROOM_TRACE_FD when the program runs
 * under `headroom launch measure -- ./app` (nothing to configure), and into an in-process
 * timeline otherwise, which headroom_write_report() saves as a Headroom launch report.
 * Pressure: an observer of the host's thermal and power state with Android's headroom
 * semantics. Pricing: a capture session's hardware cost before it is committed.
 *
 * Every function is thread-safe. Functions returning int return HEADROOM_OK (0) or a negative
 * HEADROOM_ERROR_*; the calling thread's latest error message is headroom_last_error().
 * No function keeps a pointer it was given after it returns (callbacks' contexts excepted).
 */
#ifndef HEADROOM_H
#define HEADROOM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define HEADROOM_OK 0
/* An argument is NULL, out of range or not valid; the message names the field. */
#define HEADROOM_ERROR_INVALID_ARGUMENT (-1)
/* A file or the trace descriptor could not be written. */
#define HEADROOM_ERROR_IO (-2)
/* The output buffer is too small; the message says how many bytes are needed. */
#define HEADROOM_ERROR_BUFFER_TOO_SMALL (-3)
/* Not available on this host. */
#define HEADROOM_ERROR_UNAVAILABLE (-4)

/* The message of the calling thread's latest failed call ("" if none); never NULL, valid
 * until that thread's next failed call. */
const char *headroom_last_error(void);

/* ---- Launch marks ---------------------------------------------------------------------
 * Names: "app.init", "session.configure", "session.start", "output.init", "first_frame"
 * and "deferred.start" are Headroom's own phases; "ready" ends a measured launch; any other
 * name is the program's own phase. A mark into the in-process timeline allocates nothing
 * and takes no lock once its name has been seen (pass the same string each time, a literal
 * is best); the timeline keeps the first 1024 events. */

/* A phase called name begins now. */
int headroom_begin(const char *name);
/* The phase called name begun last ends now. */
int headroom_end(const char *name);
/* An instant called name happens now. */
int headroom_mark(const char *name);
/* Writes the in-process timeline as a Headroom JSON launch report to path (atomically);
 * `headroom launch import path` adds it to a launch history. */
int headroom_write_report(const char *path);

/* ---- Pressure ------------------------------------------------------------------------ */

/* Pressure levels, as `headroom status` names them. */
#define HEADROOM_LEVEL_NOMINAL 0
#define HEADROOM_LEVEL_FAIR 1
#define HEADROOM_LEVEL_SERIOUS 2
#define HEADROOM_LEVEL_CRITICAL 3
#define HEADROOM_LEVEL_SHUTDOWN 4

typedef struct headroom_observer headroom_observer;

/* Called on the observer's sampling thread at every change of level; must return quickly and
 * must not close the observer. */
typedef void (*headroom_level_callback)(int previous, int level, void *context);

/* Opens an observer of the host's pressure (thermal zones, hwmon through libsensors, CPU
 * throttling, PSI, board signals), sampling on a thread of its own. sysfs_root and
 * procfs_root: NULL for /sys and /proc, or fixture trees. It has its first reading when this
 * returns. NULL on failure (see headroom_last_error). */
headroom_observer *headroom_observer_open(const char *sysfs_root, const char *procfs_root);

/* Stops and frees the observer; no callback runs after this returns. NULL is ignored. */
void headroom_observer_close(headroom_observer *observer);

/* The latest level, HEADROOM_LEVEL_NOMINAL to HEADROOM_LEVEL_SHUTDOWN, or a negative status. */
int headroom_pressure_level(headroom_observer *observer);

/* Thermal headroom forecast_seconds (0-60) ahead, as Android's
 * PowerManager.getThermalHeadroom: 1.0 at the serious threshold, lower is cooler. NaN when
 * unknown (no live temperature sensor, too short a history to forecast), for a horizon
 * outside 0-60 s, or when asked again within 0.5 s of the last answer. */
float headroom_thermal_headroom(headroom_observer *observer, int forecast_seconds);

/* Sets the level-change callback (NULL removes it). */
int headroom_on_level_change(headroom_observer *observer, headroom_level_callback callback,
                             void *context);

/* ---- Pricing ------------------------------------------------------------------------- */

/* Prices a capture session (the JSON schema of `headroom estimate FILE`) and writes the
 * estimate, as `headroom estimate --json` prints it, NUL-terminated into out. A bad session
 * is HEADROOM_ERROR_INVALID_ARGUMENT with the field path in the message
 * ("cameras[0].format.maxFrameRate: expected ..."). The session's "profile" is a name,
 * built-in or calibrated, never a path: no file a session names is read. */
int headroom_estimate(const char *session_json, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif /* HEADROOM_H */
