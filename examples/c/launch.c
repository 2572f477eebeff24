/* A camera app's launch, marked with libheadroom: configure (priced with headroom_estimate),
 * open the camera (a Y4M file or pipe stands in for it), the first frame, then the movie
 * output: an H.264 encoder (ffmpeg, primed until it runs) started after the first frame
 * (deferred, as Headroom's seed does) or before it with --no-deferred. Pressure is watched
 * from then on.
 *
 *   cc -o launch examples/c/launch.c $(pkg-config --cflags --libs headroom)
 *   ffmpeg -f lavfi -i testsrc2=size=640x480:rate=30 -frames:v 3 -pix_fmt yuv420p frames.y4m
 *   headroom launch measure --runs 10 -- ./launch frames.y4m
 *   headroom launch measure --runs 10 --label eager -- ./launch --no-deferred frames.y4m
 *   headroom launch compare launch eager
 *
 * Outside `launch measure`, --report PATH writes the in-process timeline as a launch report
 * (`headroom launch import PATH`). */
#include <headroom.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *session_json =
    "{\"profile\": \"generic-x86_64\","
    " \"cameras\": [{\"id\": \"front\", \"format\": {\"width\": 640, \"height\": 480,"
    " \"maxFrameRate\": 30}}],"
    " \"outputs\": [{\"kind\": \"preview\"}, {\"kind\": \"movie\", \"deferredStart\": true}]}";

static void fail(const char *what) {
    fprintf(stderr, "launch: %s: %s\n", what, headroom_last_error());
    exit(1);
}

/* Starts the movie output's encoder, ffmpeg encoding Y4M from a pipe to H.264, and primes it
 * with a black frame: once the pipe has taken a whole frame (far more than a pipe holds), the
 * encoder is running and initialised. */
static FILE *start_encoder(const char *header, size_t frame_bytes, size_t luma_bytes) {
    headroom_begin("output.init");
    FILE *encoder = popen("ffmpeg -hide_banner -loglevel error -f yuv4mpegpipe -i - "
                          "-c:v libx264 -preset ultrafast -f null -", "w");
    if (!encoder) { perror("launch: ffmpeg"); exit(1); }
    char *black = malloc(frame_bytes);
    if (!black) { perror("launch"); exit(1); }
    memset(black, 16, luma_bytes); /* Y = 16, U = V = 128: black */
    memset(black + luma_bytes, 128, frame_bytes - luma_bytes);
    fputs(header, encoder);
    fputs("FRAME\n", encoder);
    fwrite(black, 1, frame_bytes, encoder);
    fflush(encoder);
    free(black);
    headroom_end("output.init");
    return encoder;
}

int main(int argc, char **argv) {
    headroom_begin("app.init");
    int deferred = 1;
    const char *source = NULL, *report = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-deferred") == 0) deferred = 0;
        else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) report = argv[++i];
        else source = argv[i];
    }
    if (!source) {
        fprintf(stderr, "usage: launch [--no-deferred] [--report PATH] FRAMES.y4m\n");
        return 2;
    }
    headroom_end("app.init");

    headroom_begin("session.configure");
    static char estimate[65536];
    if (headroom_estimate(session_json, estimate, sizeof estimate) != HEADROOM_OK)
        fail("estimate");
    if (strstr(estimate, "\"fits\" : false")) {
        fprintf(stderr, "launch: the session does not fit this device\n");
        return 1;
    }
    headroom_end("session.configure");

    headroom_begin("session.start");
    FILE *camera = fopen(source, "rb");
    if (!camera) { perror(source); return 1; }
    char header[256];
    int width = 0, height = 0;
    if (!fgets(header, sizeof header, camera) || strncmp(header, "YUV4MPEG2 ", 10) != 0) {
        fprintf(stderr, "launch: %s: expected a Y4M stream\n", source);
        return 1;
    }
    for (char *field = strtok(strdup(header + 10), " \n"); field; field = strtok(NULL, " \n")) {
        if (field[0] == 'W') width = atoi(field + 1);
        if (field[0] == 'H') height = atoi(field + 1);
    }
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
        fprintf(stderr, "launch: %s: expected W and H in the header\n", source);
        return 1;
    }
    size_t luma_bytes = (size_t)width * height, frame_bytes = luma_bytes * 3 / 2; /* 4:2:0 */
    FILE *encoder = deferred ? NULL : start_encoder(header, frame_bytes, luma_bytes);
    headroom_end("session.start");

    char *frame = malloc(frame_bytes);
    char frame_header[64];
    if (!frame || !fgets(frame_header, sizeof frame_header, camera) ||
        fread(frame, 1, frame_bytes, camera) != frame_bytes) {
        fprintf(stderr, "launch: %s: no whole first frame\n", source);
        return 1;
    }
    headroom_mark("first_frame");

    if (deferred) {
        headroom_begin("deferred.start");
        encoder = start_encoder(header, frame_bytes, luma_bytes);
        headroom_end("deferred.start");
    }
    fputs(frame_header, encoder);
    fwrite(frame, 1, frame_bytes, encoder);

    headroom_begin("pressure.open");
    headroom_observer *observer = headroom_observer_open(NULL, NULL);
    if (!observer) fail("observer");
    headroom_end("pressure.open");
    headroom_mark("ready");

    printf("launch: %dx%d, pressure level %d, headroom %.2f\n", width, height,
           headroom_pressure_level(observer), headroom_thermal_headroom(observer, 0));
    headroom_observer_close(observer);
    pclose(encoder);
    fclose(camera);
    free(frame);
    if (report && headroom_write_report(report) != HEADROOM_OK) fail("report");
    return 0;
}
