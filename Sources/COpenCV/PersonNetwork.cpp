// The neural person detector behind COpenCV.h: an SSD network through OpenCV's DNN module
// (Debian's libopencv-dnn-dev). Exceptions never cross into Swift: any cv::Exception is a -1
// or NULL.
#include "COpenCV.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

namespace {
// cv::dnn is not documented as thread-safe, and two networks of the same graph reading and
// running at once on separate threads came back empty now and then (OpenCV 4.6): one call at
// a time in the process.
std::mutex dnnLock;
}  // namespace

struct headroom_person_net {
    cv::dnn::Net net;
    // The three-channel copy of the frame, kept between frames.
    cv::Mat bgr;
};

extern "C" headroom_person_net *headroom_person_net_create(const char *model, const char *graph) {
    if (model == nullptr || graph == nullptr) return nullptr;
    try {
        std::lock_guard<std::mutex> guard(dnnLock);
        auto *network = new (std::nothrow) headroom_person_net();
        if (network == nullptr) return nullptr;
        network->net = cv::dnn::readNetFromTensorflow(model, graph);
        if (network->net.empty()) {
            delete network;
            return nullptr;
        }
        network->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        network->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        return network;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void headroom_person_net_destroy(headroom_person_net *network) {
    std::lock_guard<std::mutex> guard(dnnLock);
    delete network;
}

extern "C" int32_t headroom_person_net_detect(
    headroom_person_net *network, const uint8_t *pixels, int32_t width, int32_t height,
    int32_t row_bytes, int32_t input_width, int32_t input_height, double threshold,
    double widest, double overlap, headroom_person_box *boxes, int32_t capacity) {
    if (network == nullptr || pixels == nullptr || width <= 0 || height <= 0 ||
        row_bytes < width || input_width < 32 || input_width > 1024 || input_height < 32 ||
        input_height > 1024 || !(threshold > 0 && threshold < 1) || !(widest > 0 && widest <= 1) ||
        !(overlap > 0 && overlap <= 1) || capacity < 0 || (capacity > 0 && boxes == nullptr)) {
        return -1;
    }
    try {
        std::lock_guard<std::mutex> guard(dnnLock);
        const cv::Mat grey(height, width, CV_8UC1, const_cast<uint8_t *>(pixels),
                           static_cast<size_t>(row_bytes));
        cv::cvtColor(grey, network->bgr, cv::COLOR_GRAY2BGR);
        // The whole frame resized to the input (aspect not kept), 0–255: the graph scales.
        const cv::Mat blob = cv::dnn::blobFromImage(
            network->bgr, 1.0, cv::Size(input_width, input_height), cv::Scalar(), true, false,
            CV_32F);
        network->net.setInput(blob);
        const cv::Mat out = network->net.forward();
        // 1×1×N×7, by score: image, class, score, left, top, right, bottom (fractions).
        const int rows = out.size[2];
        const float *values = out.ptr<float>();
        std::vector<cv::Rect2d> found;
        std::vector<float> scores;
        for (int row = 0; row < rows; ++row, values += 7) {
            if (values[2] < threshold) break;
            const double left = std::clamp(static_cast<double>(values[3]), 0.0, 1.0);
            const double top = std::clamp(static_cast<double>(values[4]), 0.0, 1.0);
            const double right = std::clamp(static_cast<double>(values[5]), 0.0, 1.0);
            const double bottom = std::clamp(static_cast<double>(values[6]), 0.0, 1.0);
            if (right <= left || bottom <= top || right - left > widest) continue;
            found.emplace_back(left, top, right - left, bottom - top);
            scores.push_back(values[2]);
        }
        std::vector<int> kept;
        cv::dnn::NMSBoxes(found, scores, static_cast<float>(threshold),
                          static_cast<float>(overlap), kept);
        const int32_t count = static_cast<int32_t>(kept.size());
        for (int32_t index = 0; index < count && index < capacity; ++index) {
            const cv::Rect2d &box = found[kept[index]];
            boxes[index].left = box.x;
            boxes[index].top = box.y;
            boxes[index].right = box.x + box.width;
            boxes[index].bottom = box.y + box.height;
            boxes[index].score = scores[kept[index]];
        }
        return count;
    } catch (...) {
        return -1;
    }
}
