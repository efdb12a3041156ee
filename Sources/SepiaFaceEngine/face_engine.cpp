// The face engine: sepia_faces.h's functions over Debian's dlib, built as libSepiaFaceEngine.so and loaded with
// dlopen by CFaces. Every entry point catches every exception: dlib reports a damaged model file or an allocation
// that fails by throwing, and an exception must never cross into C or Swift.
#include "sepia_face_engine.h"

#include <dlib/dnn.h>
#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <malloc.h>
#include <dlfcn.h>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace dlib;

// dlib's face recognition ResNet (dlib_face_recognition_resnet_model_v1.dat), as dlib's dnn_face_recognition_ex.cpp
// declares it for inference.
template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual = add_prev1<block<N, BN, 1, tag1<SUBNET>>>;
template <template <int, template <typename> class, int, typename> class block, int N,
          template <typename> class BN, typename SUBNET>
using residual_down = add_prev2<avg_pool<2, 2, 2, 2, skip1<tag2<block<N, BN, 2, tag1<SUBNET>>>>>>;
template <int N, template <typename> class BN, int stride, typename SUBNET>
using block = BN<con<N, 3, 3, 1, 1, relu<BN<con<N, 3, 3, stride, stride, SUBNET>>>>>;
template <int N, typename SUBNET> using ares = relu<residual<block, N, affine, SUBNET>>;
template <int N, typename SUBNET> using ares_down = relu<residual_down<block, N, affine, SUBNET>>;
template <typename SUBNET> using alevel0 = ares_down<256, SUBNET>;
template <typename SUBNET> using alevel1 = ares<256, ares<256, ares_down<256, SUBNET>>>;
template <typename SUBNET> using alevel2 = ares<128, ares<128, ares_down<128, SUBNET>>>;
template <typename SUBNET> using alevel3 = ares<64, ares<64, ares<64, ares_down<64, SUBNET>>>>;
template <typename SUBNET> using alevel4 = ares<32, ares<32, ares<32, SUBNET>>>;
using descriptor_net = loss_metric<fc_no_bias<
    128, avg_pool_everything<alevel0<alevel1<alevel2<alevel3<alevel4<
             max_pool<3, 3, 2, 2, relu<affine<con<32, 7, 7, 2, 2, input_rgb_image_sized<150>>>>>>>>>>>>>;

// dlib's CNN face detector (mmod_human_face_detector.dat), as dlib's dnn_mmod_face_detection_ex.cpp declares it.
template <long num_filters, typename SUBNET> using con5d = con<num_filters, 5, 5, 2, 2, SUBNET>;
template <long num_filters, typename SUBNET> using con5 = con<num_filters, 5, 5, 1, 1, SUBNET>;
template <typename SUBNET>
using downsampler = relu<affine<con5d<32, relu<affine<con5d<32, relu<affine<con5d<16, SUBNET>>>>>>>>>;
template <typename SUBNET> using rcon5 = relu<affine<con5<45, SUBNET>>>;
using cnn_detector_net =
    loss_mmod<con<1, 9, 9, 1, 1, rcon5<rcon5<rcon5<downsampler<input_rgb_image_pyramid<pyramid_down<6>>>>>>>>;

// The faces the descriptor network reads at once: larger batches are hardly faster on a CPU, and each face of a
// batch holds its own copy of every layer's output while it runs.
constexpr size_t describe_batch = 4;

// The chip the descriptor model was trained on: 150 pixels, a quarter of padding around the landmarks' face.
constexpr unsigned long chip_size = 150;
constexpr double chip_padding = 0.25;

void report(char *error, size_t size, const std::string &message) {
    if (error != nullptr && size > 0) {
        std::snprintf(error, size, "%s", message.c_str());
    }
}

// Reads a model file into `model`, naming the file in the error when it cannot be read or is not that model.
template <typename Model>
bool read_model(const char *path, const char *what, Model &model, char *error, size_t size) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        report(error, size, std::string("cannot open the ") + what + " model " + path + ": " + std::strerror(errno));
        return false;
    }
    try {
        deserialize(model, file);
    } catch (const std::bad_alloc &) {
        report(error, size, std::string("the ") + what + " model " + path + " asks for more memory than there is");
        return false;
    } catch (const std::exception &e) {
        std::string reason = e.what();
        while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
        report(error, size, std::string("the ") + what + " model " + path + " is damaged or is not that model (" + reason + ")");
        return false;
    }
    return true;
}

}  // namespace

// An 8-bit RGB image the caller owns, read in place through dlib's generic image interface (dlib's rgb_pixel is
// three bytes, red first, as the caller's rows are).
struct rgb_view {
    const uint8_t *data;
    long width, height;
    long row_bytes;
};
namespace dlib {
template <> struct image_traits<rgb_view> {
    typedef rgb_pixel pixel_type;
};
}  // namespace dlib
inline long num_rows(const rgb_view &view) { return view.height; }
inline long num_columns(const rgb_view &view) { return view.width; }
inline const void *image_data(const rgb_view &view) { return view.data; }
inline long width_step(const rgb_view &view) { return view.row_bytes; }

namespace {

// The caller's image copied into dlib's image type, for the CNN detector, which takes no other.
matrix<rgb_pixel> copy_image(const rgb_view &view) {
    matrix<rgb_pixel> image;
    assign_image(image, view);
    return image;
}

bool valid_image(const uint8_t *rgb, int width, int height, size_t row_bytes, char *error, size_t size) {
    if (rgb == nullptr || width <= 0 || height <= 0 || row_bytes < size_t(width) * 3) {
        report(error, size, "the image to search for faces is empty or its rows are shorter than its width");
        return false;
    }
    return true;
}

// Whether a face's box and landmarks are finite and lie within (a face's size of) the image, so that aligning it
// reads a sensible part of the image: the caller passes what sepia_face_detect found, but a face is never trusted.
bool valid_face(const sepia_face &face, int width, int height) {
    const float margin = std::max(face.width, face.height);
    if (!std::isfinite(margin) || !(face.width >= 1 && face.height >= 1) || margin > 4.0f * std::max(width, height)) {
        return false;
    }
    auto inside = [&](float x, float y) {
        return std::isfinite(x) && std::isfinite(y) && x >= -margin && y >= -margin && x <= width + margin && y <= height + margin;
    };
    if (!inside(face.x, face.y)) return false;
    for (int i = 0; i < 5; i++) {
        if (!inside(face.landmarks[2 * i], face.landmarks[2 * i + 1])) return false;
    }
    return true;
}

full_object_detection shape_of(const sepia_face &face) {
    rectangle box(long(face.x), long(face.y), long(face.x + face.width) - 1, long(face.y + face.height) - 1);
    std::vector<point> parts;
    for (int i = 0; i < 5; i++) {
        parts.push_back(point(long(face.landmarks[2 * i] + 0.5f), long(face.landmarks[2 * i + 1] + 0.5f)));
    }
    return full_object_detection(box, parts);
}

}  // namespace

struct sepia_face_engine {
    frontal_face_detector hog;
    shape_predictor landmarks;
    descriptor_net descriptor;
    std::unique_ptr<cnn_detector_net> cnn;
};

namespace {

template <typename Image>
void detect_in(sepia_face_engine *engine, const Image &image, int use_cnn, std::vector<rect_detection> &found) {
    if constexpr (std::is_same_v<Image, matrix<rgb_pixel>>) {
        if (use_cnn && engine->cnn) {
            for (const mmod_rect &d : (*engine->cnn)(image)) {
                found.push_back(rect_detection{d.detection_confidence, 0, d.rect});
            }
            return;
        }
    }
    engine->hog(image, found, 0.0);
}

// The landmarks of the surest `capacity` faces, sorted surest first, in the caller's pixels (the searched image was
// `scale` times larger).
template <typename Image>
void find_landmarks(
    sepia_face_engine *engine, const Image &image, double scale, std::vector<rect_detection> &found, sepia_face *faces,
    int capacity) {
    std::sort(found.begin(), found.end(), [](const rect_detection &a, const rect_detection &b) {
        return a.detection_confidence > b.detection_confidence;
    });
    int written = 0;
    for (const rect_detection &d : found) {
        if (written >= capacity) break;
        full_object_detection shape = engine->landmarks(image, d.rect);
        sepia_face &face = faces[written++];
        face.x = float(d.rect.left() / scale);
        face.y = float(d.rect.top() / scale);
        face.width = float(d.rect.width() / scale);
        face.height = float(d.rect.height() / scale);
        face.score = float(d.detection_confidence);
        for (unsigned long i = 0; i < 5; i++) {
            face.landmarks[2 * i] = float(shape.part(i).x() / scale);
            face.landmarks[2 * i + 1] = float(shape.part(i).y() / scale);
        }
    }
}

// Settings of the process that the engine's work needs, made once, when an engine is first opened, so that a
// process that never looks for faces keeps the defaults:
// - glibc serves a block of at least its mmap threshold from a mapping of its own, returned to the system when freed,
//   and raises that threshold to the size of each such block freed (up to 32 MiB). After the first search, the
//   large buffers of the next ones (the searched image, the detector's feature pyramid, the network's layers) come
//   from the threads' heaps, where they fragment and stay: two threads searching 55 photos of 12 megapixels grew to
//   472 MiB, against 358 to 379 MiB with the threshold fixed at 1 MiB.
// - OpenBLAS (Debian's libblas.so.3 when libopenblas is installed) runs each product on a thread per core, whose
//   threads wait by spinning: with Sepia's own engine per core, they took the cores from each other (10 % slower, 11 %
//   more processor time). One thread each: Sepia runs the items in parallel instead.
void configure_process() {
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, 1 << 20);
        using set_threads = void (*)(int);
        if (auto openblas = reinterpret_cast<set_threads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) openblas(1);
    });
}

}  // namespace

extern "C" {

sepia_face_engine *sepia_face_engine_open(
    const char *landmarks_path, const char *descriptor_path, const char *cnn_detector_path, char *error, size_t size) {
    try {
        configure_process();
        auto engine = std::make_unique<sepia_face_engine>();
        engine->hog = get_frontal_face_detector();
        if (!read_model(landmarks_path, "face landmark", engine->landmarks, error, size)) return nullptr;
        if (engine->landmarks.num_parts() != 5) {
            report(error, size, std::string("the face landmark model ") + landmarks_path + " has " +
                                    std::to_string(engine->landmarks.num_parts()) + " landmarks, not the 5 Sepia uses");
            return nullptr;
        }
        if (!read_model(descriptor_path, "face descriptor", engine->descriptor, error, size)) return nullptr;
        if (cnn_detector_path != nullptr) {
            engine->cnn = std::make_unique<cnn_detector_net>();
            if (!read_model(cnn_detector_path, "CNN face detector", *engine->cnn, error, size)) return nullptr;
        }
        return engine.release();
    } catch (const std::exception &e) {
        report(error, size, std::string("the face models could not be loaded: ") + e.what());
        return nullptr;
    }
}

sepia_face_engine *sepia_face_engine_copy(const sepia_face_engine *engine, char *error, size_t size) {
    try {
        auto copy = std::make_unique<sepia_face_engine>();
        copy->hog = engine->hog;
        copy->landmarks = engine->landmarks;
        copy->descriptor = engine->descriptor;
        if (engine->cnn) copy->cnn = std::make_unique<cnn_detector_net>(*engine->cnn);
        return copy.release();
    } catch (const std::exception &e) {
        report(error, size, std::string("the face models could not be copied for another thread: ") + e.what());
        return nullptr;
    }
}

void sepia_face_engine_close(sepia_face_engine *engine) { delete engine; }

int sepia_face_detect(
    sepia_face_engine *engine, const uint8_t *rgb, int width, int height, size_t row_bytes, int upsample, int use_cnn,
    sepia_face *faces, int capacity, char *error, size_t size) {
    if (!valid_image(rgb, width, height, row_bytes, error, size)) return -1;
    try {
        rgb_view view{rgb, width, height, long(row_bytes)};
        std::vector<rect_detection> found;
        double scale = 1;
        if (upsample > 0 || (use_cnn && engine->cnn)) {
            matrix<rgb_pixel> image;
            if (upsample > 0) {
                pyramid_up(static_cast<const rgb_view &>(view), image, pyramid_down<2>());
                scale = 2;
            } else {
                image = copy_image(view);
            }
            detect_in(engine, image, use_cnn, found);
            find_landmarks(engine, image, scale, found, faces, capacity);
        } else {
            detect_in(engine, view, use_cnn, found);
            find_landmarks(engine, view, scale, found, faces, capacity);
        }
        return int(std::min<size_t>(found.size(), 1 << 30));
    } catch (const std::bad_alloc &) {
        report(error, size, "searching for faces ran out of memory");
        return -1;
    } catch (const std::exception &e) {
        report(error, size, std::string("searching for faces failed: ") + e.what());
        return -1;
    }
}

int sepia_face_chip(
    const uint8_t *rgb, int width, int height, size_t row_bytes, const sepia_face *face, uint8_t *chip, char *error,
    size_t size) {
    if (!valid_image(rgb, width, height, row_bytes, error, size)) return 0;
    try {
        if (!valid_face(*face, width, height)) {
            report(error, size, "the face to align has landmarks outside the image or that are not numbers");
            return 0;
        }
        rgb_view view{rgb, width, height, long(row_bytes)};
        matrix<rgb_pixel> aligned;
        extract_image_chip(view, get_face_chip_details(shape_of(*face), chip_size, chip_padding), aligned);
        for (unsigned long y = 0; y < chip_size; y++) {
            for (unsigned long x = 0; x < chip_size; x++) {
                uint8_t *p = chip + 3 * (y * chip_size + x);
                p[0] = aligned(y, x).red;
                p[1] = aligned(y, x).green;
                p[2] = aligned(y, x).blue;
            }
        }
        return 1;
    } catch (const std::exception &e) {
        report(error, size, std::string("aligning a face failed: ") + e.what());
        return 0;
    }
}

int sepia_face_describe(
    sepia_face_engine *engine, const uint8_t *rgb, int width, int height, size_t row_bytes, const sepia_face *faces,
    int count, float *descriptors, char *error, size_t size) {
    if (!valid_image(rgb, width, height, row_bytes, error, size)) return 0;
    if (count <= 0) return 1;
    try {
        for (int i = 0; i < count; i++) {
            if (!valid_face(faces[i], width, height)) {
                report(error, size, "face " + std::to_string(i) + " has landmarks outside the image or that are not numbers");
                return 0;
            }
        }
        rgb_view view{rgb, width, height, long(row_bytes)};
        std::vector<matrix<rgb_pixel>> chips(static_cast<size_t>(count));
        for (int i = 0; i < count; i++) {
            extract_image_chip(view, get_face_chip_details(shape_of(faces[i]), chip_size, chip_padding), chips[size_t(i)]);
        }
        std::vector<matrix<float, 0, 1>> values = engine->descriptor(chips, describe_batch);
        // The network keeps every layer's output of the last batch (tens of megabytes per engine, and there is an
        // engine per thread): released here, so that an idle engine holds only its weights.
        engine->descriptor.clean();
        for (int i = 0; i < count; i++) {
            const matrix<float, 0, 1> &face = values[size_t(i)];
            if (face.size() != SEPIA_FACE_DESCRIPTOR_LENGTH) {
                report(error, size, "the face descriptor model gave " + std::to_string(face.size()) + " values, not 128");
                return 0;
            }
            for (long k = 0; k < face.size(); k++) descriptors[size_t(i) * SEPIA_FACE_DESCRIPTOR_LENGTH + size_t(k)] = face(k);
        }
        return 1;
    } catch (const std::bad_alloc &) {
        report(error, size, "describing faces ran out of memory");
        return 0;
    } catch (const std::exception &e) {
        report(error, size, std::string("describing faces failed: ") + e.what());
        return 0;
    }
}

int sepia_face_model_sha256(const char *path, uint8_t *digest, char *error, size_t size) {
    std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path, "rb"), std::fclose);
    if (!file) {
        report(error, size, std::string("cannot read the model ") + path + ": " + std::strerror(errno));
        return 0;
    }
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX *)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
        report(error, size, "OpenSSL's SHA-256 could not be started (out of memory?)");
        return 0;
    }
    std::vector<unsigned char> buffer(1 << 20);
    size_t read;
    while ((read = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) {
        EVP_DigestUpdate(context.get(), buffer.data(), read);
    }
    if (std::ferror(file.get())) {
        report(error, size, std::string("cannot read the model ") + path + ": " + std::strerror(errno));
        return 0;
    }
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context.get(), digest, &length) != 1 || length != 32) {
        report(error, size, "OpenSSL's SHA-256 failed");
        return 0;
    }
    return 1;
}

}  // extern "C"
