// A thin C interface over Debian's OpenCV 4.6: the HOG people detector (Dalal–Triggs,
// OpenCV's default SVM, no model file to download; libopencv-objdetect-dev) and an SSD person
// detector network (libopencv-dnn-dev). The C++ stays in HOGPeopleDetector.cpp and
// PersonNetwork.cpp; Swift sees only these declarations.
#ifndef HEADROOM_COPENCV_H
#define HEADROOM_COPENCV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A person found: a box in the given image's pixels (top-left origin) and the SVM's weight
/// (its distance from the decision boundary; higher is surer).
typedef struct headroom_hog_box {
    int32_t x;
    int32_t y;
    int32_t width;
    int32_t height;
    double weight;
} headroom_hog_box;

/// An OpenCV HOG descriptor set up with the default people detector (64×128 windows).
typedef struct headroom_hog headroom_hog;

/// A new detector; NULL when OpenCV could not set it up.
headroom_hog *headroom_hog_create(void);

/// Frees a detector from headroom_hog_create (NULL is ignored).
void headroom_hog_destroy(headroom_hog *hog);

/// Finds people in an 8-bit grey image of width × height pixels whose rows are row_bytes
/// apart. The image is resized by scale (0.05–4) first; window_stride is the step of the
/// detection window in pixels (4–64) and pyramid_step the factor between the pyramid's levels
/// (1.01–2). Boxes come back in the original image's pixels, grouped (overlapping windows
/// merged), at most capacity of them written into boxes. Returns how many were found (more
/// than capacity when some did not fit), or -1 when the arguments are out of range or OpenCV
/// failed. Safe to call from several threads on one detector.
int32_t headroom_hog_detect(
    const headroom_hog *hog, const uint8_t *pixels, int32_t width, int32_t height,
    int32_t row_bytes, double scale, int32_t window_stride, double pyramid_step,
    headroom_hog_box *boxes, int32_t capacity);

/// A person the neural detector found: a box as fractions of the frame (0–1, top-left
/// origin) and the network's score (0–1).
typedef struct headroom_person_box {
    double left;
    double top;
    double right;
    double bottom;
    double score;
} headroom_person_box;

/// An SSD person detector network read through OpenCV's DNN module (libopencv-dnn-dev).
typedef struct headroom_person_net headroom_person_net;

/// Reads a TensorFlow frozen graph (`model`, .pb) with its text graph (`graph`, .pbtxt);
/// NULL when OpenCV cannot read them (a missing, truncated or foreign file).
headroom_person_net *headroom_person_net_create(const char *model, const char *graph);

/// Frees a network from headroom_person_net_create (NULL is ignored).
void headroom_person_net_destroy(headroom_person_net *network);

/// Finds people in an 8-bit grey image of width × height pixels whose rows are row_bytes
/// apart, copied into three channels and resized, whole, to input_width × input_height
/// (32–1024). Of the boxes scoring at least threshold (0–1, exclusive), those wider than
/// widest (a fraction of the frame, 0–1] are dropped and the rest thinned by non-maximum
/// suppression at overlap (IoU, 0–1]; they come back clipped to the frame, most likely first,
/// at most capacity written. Returns how many were found (more than capacity when some did not
/// fit), or -1 when the arguments are out of range or OpenCV failed. Calls into OpenCV's DNN
/// module are serialised across the process; a network keeps the anchors of the first input
/// size it ran at, so use one network per input size.
int32_t headroom_person_net_detect(
    headroom_person_net *network, const uint8_t *pixels, int32_t width, int32_t height,
    int32_t row_bytes, int32_t input_width, int32_t input_height, double threshold,
    double widest, double overlap, headroom_person_box *boxes, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
