// The HOG people detector behind COpenCV.h: OpenCV's HOGDescriptor with its default people
// SVM. Exceptions never cross into Swift: any cv::Exception is a -1.
#include "COpenCV.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <cmath>
#include <new>
#include <vector>

struct headroom_hog {
    cv::HOGDescriptor descriptor;
};

extern "C" headroom_hog *headroom_hog_create(void) {
    try {
        auto *hog = new (std::nothrow) headroom_hog();
        if (hog != nullptr) {
            hog->descriptor.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
        }
        return hog;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void headroom_hog_destroy(headroom_hog *hog) { delete hog; }

extern "C" int32_t headroom_hog_detect(
    const headroom_hog *hog, const uint8_t *pixels, int32_t width, int32_t height,
    int32_t row_bytes, double scale, int32_t window_stride, double pyramid_step,
    headroom_hog_box *boxes, int32_t capacity) {
    if (hog == nullptr || pixels == nullptr || width <= 0 || height <= 0 || row_bytes < width ||
        !(scale >= 0.05 && scale <= 4) || window_stride < 4 || window_stride > 64 ||
        !(pyramid_step >= 1.01 && pyramid_step <= 2) || capacity < 0 ||
        (capacity > 0 && boxes == nullptr)) {
        return -1;
    }
    try {
        // A view of the caller's pixels: nothing is copied unless the image is resized.
        const cv::Mat frame(height, width, CV_8UC1, const_cast<uint8_t *>(pixels),
                            static_cast<size_t>(row_bytes));
        cv::Mat image = frame;
        if (scale != 1) {
            cv::resize(frame, image, cv::Size(), scale, scale,
                       scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        }
        std::vector<cv::Rect> found;
        std::vector<double> weights;
        if (image.cols >= hog->descriptor.winSize.width &&
            image.rows >= hog->descriptor.winSize.height) {
            hog->descriptor.detectMultiScale(image, found, weights, 0,
                                             cv::Size(window_stride, window_stride),
                                             cv::Size(8, 8), pyramid_step, 2);
        }
        const int32_t count = static_cast<int32_t>(found.size());
        for (int32_t index = 0; index < count && index < capacity; ++index) {
            const cv::Rect &box = found[index];
            boxes[index].x = static_cast<int32_t>(std::lround(box.x / scale));
            boxes[index].y = static_cast<int32_t>(std::lround(box.y / scale));
            boxes[index].width = static_cast<int32_t>(std::lround(box.width / scale));
            boxes[index].height = static_cast<int32_t>(std::lround(box.height / scale));
            boxes[index].weight = index < static_cast<int32_t>(weights.size()) ? weights[index] : 0;
        }
        return count;
    } catch (...) {
        return -1;
    }
}
