/*
 * The `headroom` tracer: any GStreamer program's launch, timed by `headroom launch measure`
 * with no code change.
 *
 *   GST_TRACERS=headroom headroom launch measure -- gst-launch-1.0 ...
 *
 * Under `measure`, HEADROOM_TRACE_FD names a pipe and HEADROOM_TRACE_ID its identity
 * (docs/launch.md). The tracer writes trace-event lines into it:
 *
 *   - every state change of the pipeline and of each element, as a complete phase ("X")
 *     named PATH:FROM-TO ("pipeline0:ready-paused", "decodebin0/avidemux0:null-ready"); the
 *     pipeline's asynchronous change to PAUSED lasts until it has prerolled (ASYNC_DONE);
 *   - the first buffer reaching each sink, as the instant "first_frame" with the sink named
 *     in args;
 *   - "ready" once a pipeline is PLAYING and a buffer has reached a sink.
 *
 * Without the variables, or when the descriptor is not the pipe they name, the tracer hooks
 * nothing. It never blocks the pipeline: it writes through a descriptor of its own opened
 * O_NONBLOCK on the same pipe (the program's descriptor keeps its flags), one write per line
 * (under PIPE_BUF, so lines never mix), SIGPIPE held back; a full pipe drops the line (counted),
 * a gone reader ends the tracing. The buffer path reads two pointers and a flag, and takes a
 * lock only on a sink's first buffer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gst/gst.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

GST_DEBUG_CATEGORY_STATIC(headroom_tracer_debug);
#define GST_CAT_DEFAULT headroom_tracer_debug

/* A line is at most this long: under PIPE_BUF (one write is atomic) and under the 4 KiB
 * `measure` reads. */
#define LINE_LIMIT 1024
/* Element paths are cut to this many bytes. */
#define PATH_LIMIT 256
/* Sinks whose first buffer is reported; beyond, the tracer stops looking. */
#define SINK_LIMIT 64
/* State changes nested on one thread (a bin's change holds its children's). */
#define DEPTH_LIMIT 32

#define HEADROOM_TYPE_TRACER (headroom_tracer_get_type())
G_DECLARE_FINAL_TYPE(HeadroomTracer, headroom_tracer, HEADROOM, TRACER, GstTracer)

struct _HeadroomTracer {
  GstTracer parent;
  /* Our own non-blocking descriptor on the trace pipe; -1 when not tracing. */
  int descriptor;
  /* Lines dropped because the pipe was full. */
  gint dropped;
  /* Set once the reader is gone: nothing more is written. */
  gint closed;
  /* Sinks that have had their first buffer (written under `lock`, read without). */
  gpointer sinks[SINK_LIMIT];
  gint sink_count;
  GMutex lock;
  /* Whether a buffer has reached a sink, whether a pipeline plays, whether "ready" was said. */
  gint buffer_reached_sink;
  gint playing;
  gint ready_said;
  /* The start of the top-level pipeline's READY->PAUSED while it prerolls (0: none). */
  GstElement *prerolling;
  gint64 preroll_start_us;
};

G_DEFINE_TYPE(HeadroomTracer, headroom_tracer, GST_TYPE_TRACER)

/* The start times of this thread's state changes in progress, innermost last. */
static __thread gint64 change_starts[DEPTH_LIMIT];
static __thread int change_depth;

static gint64 monotonic_us(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (gint64)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

/* One write of `line` with SIGPIPE blocked on this thread and a SIGPIPE it raised taken back:
 * a gone reader is an error, never the end of the program. */
static void write_line(HeadroomTracer *self, const char *line, size_t length) {
  if (self->descriptor < 0 || g_atomic_int_get(&self->closed))
    return;
  sigset_t block, previous, pending;
  sigemptyset(&block);
  sigaddset(&block, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &block, &previous);
  sigpending(&pending);
  int was_pending = sigismember(&pending, SIGPIPE) == 1;
  for (;;) {
    ssize_t written = write(self->descriptor, line, length);
    if (written == (ssize_t)length)
      break;
    int code = written < 0 ? errno : EIO;
    if (code == EINTR)
      continue;
    if (code == EAGAIN) {
      if (g_atomic_int_add(&self->dropped, 1) == 0)
        GST_WARNING_OBJECT(self, "the trace pipe is full: dropping lines (and counting them)");
    } else {
      if (code == EPIPE && !was_pending) {
        struct timespec none = {0, 0};
        sigtimedwait(&block, NULL, &none);
      }
      g_atomic_int_set(&self->closed, 1);
      GST_INFO_OBJECT(self, "the trace pipe closed (%s): tracing ends", g_strerror(code));
    }
    break;
  }
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
}

/* Appends `text` JSON-escaped (control characters, which names never have, become '?'). */
static void append_escaped(GString *line, const char *text) {
  for (const char *c = text; *c; c++) {
    if (*c == '"' || *c == '\\') {
      g_string_append_c(line, '\\');
      g_string_append_c(line, *c);
    } else if ((unsigned char)*c < 0x20 || *c == 0x7f) {
      g_string_append_c(line, '?');
    } else {
      g_string_append_c(line, *c);
    }
  }
}

/* Writes {"ph":PH,"name":NAME,"ts":TS[,"dur":DUR][,"tid":TID][,"args":{"sink":SINK}]}. */
static void emit(HeadroomTracer *self, char ph, const char *name, gint64 ts, gint64 dur,
                 const char *sink) {
  GString *text = g_string_sized_new(LINE_LIMIT);
  g_string_append_printf(text, "{\"ph\":\"%c\",\"name\":\"", ph);
  append_escaped(text, name);
  g_string_append_printf(text, "\",\"ts\":%" G_GINT64_FORMAT, ts);
  if (ph == 'X')
    g_string_append_printf(text, ",\"dur\":%" G_GINT64_FORMAT, dur);
  g_string_append_printf(text, ",\"tid\":%ld", (long)syscall(SYS_gettid));
  if (sink != NULL) {
    g_string_append(text, ",\"args\":{\"sink\":\"");
    append_escaped(text, sink);
    g_string_append(text, "\"}");
  }
  g_string_append(text, "}\n");
  if (text->len <= LINE_LIMIT)
    write_line(self, text->str, text->len);
  else
    g_atomic_int_add(&self->dropped, 1);
  g_string_free(text, TRUE);
}

/* The element's path below its top-level bin: "decodebin0/avidemux0", or the top-level
 * element's own name ("pipeline0"). */
static void element_path(GstElement *element, char *path, size_t size) {
  const char *names[16];
  int count = 0;
  GstObject *object = GST_OBJECT(element);
  /* Names and parents are read without the object lock, as GStreamer's own tracers do: an
   * element's name is set before it is added to its bin and stays while it is there. */
  for (; object != NULL && count < 16; object = GST_OBJECT_PARENT(object)) {
    if (GST_OBJECT_PARENT(object) == NULL && count > 0)
      break; /* the top-level pipeline is left out of its elements' paths */
    names[count++] = GST_OBJECT_NAME(object) ? GST_OBJECT_NAME(object) : "?";
  }
  size_t used = 0;
  path[0] = '\0';
  for (int index = count - 1; index >= 0 && used + 1 < size; index--) {
    int wrote = snprintf(path + used, size - used, "%s%s", names[index], index ? "/" : "");
    if (wrote < 0)
      break;
    used += (size_t)wrote;
  }
}

static const char *state_name(GstState state) {
  switch (state) {
  case GST_STATE_VOID_PENDING: return "void";
  case GST_STATE_NULL: return "null";
  case GST_STATE_READY: return "ready";
  case GST_STATE_PAUSED: return "paused";
  case GST_STATE_PLAYING: return "playing";
  }
  return "unknown";
}

static void emit_change(HeadroomTracer *self, GstElement *element, GstStateChange transition,
                        gint64 start, gint64 end) {
  char path[PATH_LIMIT], name[PATH_LIMIT + 32];
  element_path(element, path, sizeof path);
  snprintf(name, sizeof name, "%s:%s-%s", path,
           state_name(GST_STATE_TRANSITION_CURRENT(transition)),
           state_name(GST_STATE_TRANSITION_NEXT(transition)));
  emit(self, 'X', name, start, end - start, NULL);
}

static gboolean is_top_level_pipeline(GstElement *element) {
  return GST_OBJECT_PARENT(element) == NULL && GST_IS_PIPELINE(element);
}

/* "ready" once both have happened: a pipeline plays and a buffer has reached a sink. */
static void maybe_ready(HeadroomTracer *self) {
  if (g_atomic_int_get(&self->playing) && g_atomic_int_get(&self->buffer_reached_sink) &&
      g_atomic_int_compare_and_exchange(&self->ready_said, 0, 1))
    emit(self, 'i', "ready", monotonic_us(), 0, NULL);
}

static void on_change_pre(GObject *tracer, GstClockTime ts, GstElement *element,
                          GstStateChange transition) {
  (void)tracer, (void)ts, (void)element, (void)transition;
  if (change_depth < DEPTH_LIMIT)
    change_starts[change_depth] = monotonic_us();
  change_depth++;
}

static void on_change_post(GObject *tracer, GstClockTime ts, GstElement *element,
                           GstStateChange transition, GstStateChangeReturn result) {
  HeadroomTracer *self = HEADROOM_TRACER(tracer);
  (void)ts;
  if (change_depth == 0)
    return; /* the tracer started within this change */
  change_depth--;
  if (change_depth >= DEPTH_LIMIT)
    return;
  gint64 start = change_starts[change_depth];
  if (result == GST_STATE_CHANGE_ASYNC && transition == GST_STATE_CHANGE_READY_TO_PAUSED &&
      is_top_level_pipeline(element)) {
    /* Ends when the pipeline has prerolled (its ASYNC_DONE). */
    g_mutex_lock(&self->lock);
    self->prerolling = element;
    self->preroll_start_us = start;
    g_mutex_unlock(&self->lock);
    return;
  }
  emit_change(self, element, transition, start, monotonic_us());
  if (transition == GST_STATE_CHANGE_PAUSED_TO_PLAYING && result != GST_STATE_CHANGE_FAILURE &&
      is_top_level_pipeline(element)) {
    g_atomic_int_set(&self->playing, 1);
    maybe_ready(self);
  }
}

static void on_post_message(GObject *tracer, GstClockTime ts, GstElement *element,
                            GstMessage *message) {
  HeadroomTracer *self = HEADROOM_TRACER(tracer);
  (void)ts;
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ASYNC_DONE || element != self->prerolling)
    return;
  g_mutex_lock(&self->lock);
  gboolean mine = element == self->prerolling;
  gint64 start = self->preroll_start_us;
  self->prerolling = NULL;
  g_mutex_unlock(&self->lock);
  if (mine)
    emit_change(self, element, GST_STATE_CHANGE_READY_TO_PAUSED, start, monotonic_us());
}

/* The peer of `pad` when it belongs to a sink that has not had a buffer yet, else NULL. */
static GstElement *new_sink(HeadroomTracer *self, GstPad *pad) {
  if (g_atomic_int_get(&self->sink_count) >= SINK_LIMIT)
    return NULL;
  /* The push holds the stream lock: the peer stays linked while it lasts. */
  GstPad *peer = GST_PAD_PEER(pad);
  if (peer == NULL)
    return NULL;
  GstObject *parent = GST_OBJECT_PARENT(peer);
  if (parent == NULL || !GST_IS_ELEMENT(parent) ||
      !GST_OBJECT_FLAG_IS_SET(parent, GST_ELEMENT_FLAG_SINK))
    return NULL;
  gint count = g_atomic_int_get(&self->sink_count);
  for (gint index = 0; index < count; index++)
    if (g_atomic_pointer_get(&self->sinks[index]) == parent)
      return NULL;
  GstElement *sink = NULL;
  g_mutex_lock(&self->lock);
  count = self->sink_count;
  gboolean seen = FALSE;
  for (gint index = 0; index < count; index++)
    seen = seen || self->sinks[index] == parent;
  if (!seen && count < SINK_LIMIT) {
    g_atomic_pointer_set(&self->sinks[count], parent);
    g_atomic_int_set(&self->sink_count, count + 1);
    sink = GST_ELEMENT(parent);
  }
  g_mutex_unlock(&self->lock);
  return sink;
}

static void on_buffer(HeadroomTracer *self, GstPad *pad) {
  GstElement *sink = new_sink(self, pad);
  if (sink == NULL)
    return;
  char path[PATH_LIMIT];
  element_path(sink, path, sizeof path);
  emit(self, 'i', "first_frame", monotonic_us(), 0, path);
  g_atomic_int_set(&self->buffer_reached_sink, 1);
  maybe_ready(self);
}

static void on_push(GObject *tracer, GstClockTime ts, GstPad *pad, GstBuffer *buffer) {
  (void)ts, (void)buffer;
  on_buffer(HEADROOM_TRACER(tracer), pad);
}

static void on_push_list(GObject *tracer, GstClockTime ts, GstPad *pad, GstBufferList *list) {
  (void)ts, (void)list;
  on_buffer(HEADROOM_TRACER(tracer), pad);
}

/* Our own descriptor on the trace pipe `measure` gave, non-blocking, or -1 when the program
 * is not measured. */
static int open_trace_pipe(void) {
  const char *number_text = g_getenv("HEADROOM_TRACE_FD");
  const char *identity = g_getenv("HEADROOM_TRACE_ID");
  if (number_text == NULL || identity == NULL)
    return -1;
  char *end = NULL;
  errno = 0;
  long number = strtol(number_text, &end, 10);
  unsigned long long device = 0, inode = 0;
  char extra;
  if (errno != 0 || end == number_text || *end != '\0' || number < 0 || number > 1 << 20 ||
      sscanf(identity, "%llu:%llu%c", &device, &inode, &extra) != 2)
    return -1;
  /* A descriptor of our own (a new open file description of the pipe), so O_NONBLOCK is
   * ours alone: the program's descriptor keeps its flags. */
  char proc_path[64];
  snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%ld", number);
  int descriptor = open(proc_path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0)
    return -1;
  struct stat status;
  if (fstat(descriptor, &status) != 0 || !S_ISFIFO(status.st_mode) ||
      (unsigned long long)status.st_dev != device || (unsigned long long)status.st_ino != inode) {
    close(descriptor);
    return -1; /* not the pipe `measure` gave: the program reused the number */
  }
  return descriptor;
}

static void headroom_tracer_finalize(GObject *object) {
  HeadroomTracer *self = HEADROOM_TRACER(object);
  gint dropped = g_atomic_int_get(&self->dropped);
  if (dropped > 0)
    GST_WARNING_OBJECT(self, "%d trace line(s) dropped: the trace pipe was full", dropped);
  if (self->descriptor >= 0)
    close(self->descriptor);
  g_mutex_clear(&self->lock);
  G_OBJECT_CLASS(headroom_tracer_parent_class)->finalize(object);
}

static void headroom_tracer_class_init(HeadroomTracerClass *klass) {
  G_OBJECT_CLASS(klass)->finalize = headroom_tracer_finalize;
}

static void headroom_tracer_init(HeadroomTracer *self) {
  g_mutex_init(&self->lock);
  self->descriptor = open_trace_pipe();
  if (self->descriptor < 0) {
    GST_DEBUG_OBJECT(self, "not under `headroom launch measure`: no hooks");
    return;
  }
  GstTracer *tracer = GST_TRACER(self);
  gst_tracing_register_hook(tracer, "element-change-state-pre", G_CALLBACK(on_change_pre));
  gst_tracing_register_hook(tracer, "element-change-state-post", G_CALLBACK(on_change_post));
  gst_tracing_register_hook(tracer, "element-post-message-pre", G_CALLBACK(on_post_message));
  gst_tracing_register_hook(tracer, "pad-push-pre", G_CALLBACK(on_push));
  gst_tracing_register_hook(tracer, "pad-push-list-pre", G_CALLBACK(on_push_list));
}

static gboolean plugin_init(GstPlugin *plugin) {
  GST_DEBUG_CATEGORY_INIT(headroom_tracer_debug, "headroomtracer", 0, "headroom tracer");
  return gst_tracer_register(plugin, "headroom", HEADROOM_TYPE_TRACER);
}

#ifndef VERSION
#define VERSION "0.0.0"
#endif
#define PACKAGE "headroom"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, headroomtracer,
                  "Writes a pipeline's launch (state changes, first buffer at each sink, ready) "
                  "into HEADROOM_TRACE_FD for `headroom launch measure`",
                  plugin_init, VERSION, "Proprietary", "headroom", "https://github.com/headroom")
