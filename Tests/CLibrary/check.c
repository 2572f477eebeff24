/* libheadroom from C, as a user's program links it: every function of include/headroom.h,
 * its errors, its thread safety. Usage: check SYSFS-FIXTURE-ROOT PROCFS-ROOT REPORT-PATH
 * (the sysfs tree is a writable copy of a board fixture; the check heats it). Exit 0 when
 * every check holds; each failed check is printed. */
#include <headroom.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures = 0;
#define CHECK(condition)                                                                     \
    do {                                                                                     \
        if (!(condition)) {                                                                  \
            fprintf(stderr, "check.c:%d: FAIL %s (last error: %s)\n", __LINE__, #condition, \
                    headroom_last_error());                                                  \
            failures++;                                                                      \
        }                                                                                    \
    } while (0)

static void write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "w");
    if (!file) { perror(path); exit(2); }
    fputs(text, file);
    fclose(file);
}

/* Level changes seen by the callback. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int last_level = -1, changes = 0;

static void on_change(int previous, int level, void *context) {
    (void)previous;
    pthread_mutex_lock(&lock);
    last_level = level;
    changes += *(int *)context;
    pthread_cond_signal(&changed);
    pthread_mutex_unlock(&lock);
}

static void *mark_many(void *name) {
    for (int i = 0; i < 100; i++) {
        if (headroom_begin(name) != HEADROOM_OK || headroom_end(name) != HEADROOM_OK) failures++;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: check SYSFS-ROOT PROCFS-ROOT REPORT\n"); return 2; }
    const char *sysfs = argv[1], *procfs = argv[2], *report = argv[3];

    /* Pricing: a session that fits, a bad one with its field path, a buffer too small. */
    char out[65536];
    const char *session =
        "{\"cameras\": [{\"id\": \"c\", \"format\": {\"width\": 640, \"height\": 480, "
        "\"maxFrameRate\": 30}}], \"outputs\": [{\"kind\": \"preview\"}]}";
    CHECK(headroom_estimate(session, out, sizeof out) == HEADROOM_OK);
    CHECK(strstr(out, "\"hardwareCost\"") != NULL);
    CHECK(strstr(out, "\"fits\" : true") != NULL || strstr(out, "\"fits\":true") != NULL);
    const char *bad =
        "{\"cameras\": [{\"id\": \"c\", \"format\": {\"width\": 640, \"height\": 480, "
        "\"maxFrameRate\": -30}}], \"outputs\": [{\"kind\": \"preview\"}]}";
    CHECK(headroom_estimate(bad, out, sizeof out) == HEADROOM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(headroom_last_error(), "cameras[0].format.maxFrameRate") != NULL);
    char tiny[8];
    CHECK(headroom_estimate(session, tiny, sizeof tiny) == HEADROOM_ERROR_BUFFER_TOO_SMALL);
    CHECK(strstr(headroom_last_error(), "bytes") != NULL && tiny[0] == 0);
    CHECK(headroom_estimate(NULL, out, sizeof out) == HEADROOM_ERROR_INVALID_ARGUMENT);
    CHECK(headroom_estimate("{", out, sizeof out) == HEADROOM_ERROR_INVALID_ARGUMENT);
    /* A profile is a name: a session naming a file gets no word of it (exists or not). */
    const char *probing =
        "{\"profile\": \"/etc/passwd\", \"cameras\": [{\"id\": \"c\", \"format\": "
        "{\"width\": 640, \"height\": 480, \"maxFrameRate\": 30}}], \"outputs\": []}";
    CHECK(headroom_estimate(probing, out, sizeof out) == HEADROOM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(headroom_last_error(), "expected a profile name") != NULL);
    CHECK(strstr(headroom_last_error(), "passwd") == NULL);

    /* Marks into the in-process timeline (not measured: no HEADROOM_TRACE_FD), from four
     * threads at once, then the report. */
    CHECK(headroom_begin("app.init") == HEADROOM_OK);
    pthread_t threads[4];
    const char *names[4] = {"worker.a", "worker.b", "worker.a", "worker.c"};
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, mark_many, (void *)names[i]);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    char reused[32];
    strcpy(reused, "camera.open");
    CHECK(headroom_begin(reused) == HEADROOM_OK);
    strcpy(reused, "camera.opem"); /* the same buffer, another name: must not be confused */
    CHECK(headroom_mark(reused) == HEADROOM_OK);
    strcpy(reused, "camera.open");
    CHECK(headroom_end(reused) == HEADROOM_OK);
    CHECK(headroom_end("app.init") == HEADROOM_OK);
    CHECK(headroom_mark("first_frame") == HEADROOM_OK);
    CHECK(headroom_mark(NULL) == HEADROOM_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(headroom_last_error(), "name") != NULL);
    CHECK(headroom_mark("") == HEADROOM_ERROR_INVALID_ARGUMENT);
    CHECK(headroom_write_report(report) == HEADROOM_OK);
    char inside[4096];
    snprintf(inside, sizeof inside, "%s/inside.json", report); /* under a file: cannot be */
    CHECK(headroom_write_report(inside) == HEADROOM_ERROR_IO);
    CHECK(strstr(headroom_last_error(), "inside.json") != NULL);
    CHECK(headroom_write_report(NULL) == HEADROOM_ERROR_INVALID_ARGUMENT);

    /* Pressure: a fixture board, idle, then heated: the level and the callback follow. */
    CHECK(headroom_observer_open("/nonexistent", NULL) == NULL);
    CHECK(strstr(headroom_last_error(), "sysfs_root") != NULL);
    headroom_observer *observer = headroom_observer_open(sysfs, procfs);
    CHECK(observer != NULL);
    if (observer) {
        CHECK(headroom_pressure_level(observer) == HEADROOM_LEVEL_NOMINAL);
        struct timespec asked, again;
        clock_gettime(CLOCK_MONOTONIC, &asked);
        float now = headroom_thermal_headroom(observer, 0);
        float repeated = headroom_thermal_headroom(observer, 0);
        clock_gettime(CLOCK_MONOTONIC, &again);
        CHECK(!isnan(now) && now > 0 && now < 1);
        /* Asked again within 0.5 s: NaN (checked only when a busy machine kept it within). */
        double apart = (again.tv_sec - asked.tv_sec) + (again.tv_nsec - asked.tv_nsec) / 1e9;
        CHECK(apart >= 0.5 || isnan(repeated));
        CHECK(isnan(headroom_thermal_headroom(observer, 61)));
        int weight = 1;
        CHECK(headroom_on_level_change(observer, on_change, &weight) == HEADROOM_OK);
        char path[4096];
        snprintf(path, sizeof path, "%s/class/thermal/thermal_zone0/temp", sysfs);
        write_file(path, "83000\n");
        snprintf(path, sizeof path, "%s/class/hwmon/hwmon0/temp1_input", sysfs);
        write_file(path, "83000\n");
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 15;
        pthread_mutex_lock(&lock);
        while (changes == 0 &&
               pthread_cond_timedwait(&changed, &lock, &deadline) == 0) {
        }
        int seen = last_level;
        pthread_mutex_unlock(&lock);
        CHECK(seen >= HEADROOM_LEVEL_SERIOUS);
        CHECK(headroom_pressure_level(observer) >= HEADROOM_LEVEL_SERIOUS);
        CHECK(headroom_on_level_change(observer, NULL, NULL) == HEADROOM_OK);
        headroom_observer_close(observer);
    }
    headroom_observer_close(NULL);
    CHECK(headroom_pressure_level(NULL) == HEADROOM_ERROR_INVALID_ARGUMENT);
    CHECK(isnan(headroom_thermal_headroom(NULL, 0)));

    if (failures) { fprintf(stderr, "check.c: %d failure(s)\n", failures); return 1; }
    printf("check.c: every libheadroom check passed\n");
    return 0;
}
