// A thin C interface over Debian's OpenCV 4.6 (libopencv-objdetect-dev): the HOG people
// detector (Dalal–Triggs, OpenCV's default SVM, no model file to download). The C++ stays in
// HOGPeopleDetector.cpp; Swift sees only these declarations.
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

#ifdef __cplusplus
}
#endif

#endif
