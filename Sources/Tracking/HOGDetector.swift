import COpenCV
import Units

/// OpenCV's HOG people detector (Dalal and Triggs' histograms of oriented gradients with the
/// default people SVM, from Debian's OpenCV 4.6 through the `COpenCV` shim): real people in
/// real footage, one box each even when they walk side by side, with no model file to
/// download.
///
/// The people SVM looks through a 64 × 128 window, so people shorter than about 128 pixels
/// are found only when the frame is enlarged: ``scale`` is the governor's knob (1 is the
/// heaviest setting, cost ≈ scale²) and the frame is resized by ``scale`` × ``magnification``
/// before the search. Measured on OpenCV's `vtest.avi` (768 × 576, people 80–140 pixels
/// tall): the README's Benchmarks section has each ladder step's cost and finds.
public struct HOGDetector: Detector, Sendable {
    /// The governor's scale, in 0.05...1: the frame is resized by `scale × magnification`.
    public var scale: Double
    /// How much the frame is enlarged at ``scale`` 1, so that people smaller than the SVM's
    /// 128-pixel window are found (1.25 finds most people in `vtest.avi`).
    public var magnification: Double = 1.25
    /// The step of the detection window, pixels of the resized frame (4–64; 8 is OpenCV's
    /// usual).
    public var windowStride: Int = 8
    /// The factor between the levels of the search's image pyramid (1.01–2): finer finds more
    /// people, at more cost.
    public var pyramidStep: Double = 1.2
    /// The least SVM weight a box needs to be reported; weaker ones are mostly clutter.
    public var minimumWeight: Double = 0.3
    /// The most people reported in a frame.
    public static let capacity = 256

    /// Stride first, then down to 0.8: the people SVM's window is 64 × 128 pixels, so below
    /// 0.8 of its full magnification it finds almost nobody in `vtest.avi` (0.5 people a frame
    /// at 0.6 against 3.7 at 1; each step's cost and finds in the README's Benchmarks section).
    public static let inferenceLadder = [
        InferenceSetting(stride: 1, scale: 1), InferenceSetting(stride: 2, scale: 1),
        InferenceSetting(stride: 3, scale: 0.8),
    ]

    private let handle: Handle

    /// A detector at `scale`.
    ///
    /// - Throws: ``HOGUnavailableError`` when OpenCV could not set the detector up.
    public init(scale: Double = 1) throws(HOGUnavailableError) {
        self.scale = scale
        guard let pointer = headroom_hog_create() else { throw HOGUnavailableError() }
        handle = Handle(pointer)
    }

    /// People in the frame, in its pixel coordinates; the SVM's weight, squashed into 0...1,
    /// is each box's confidence.
    public mutating func detect(in frame: GrayFrame) -> [Detection] {
        var boxes = [headroom_hog_box](repeating: headroom_hog_box(), count: Self.capacity)
        let imageScale = min(max(scale, 0.05), 1) * magnification
        let found = frame.pixels.withUnsafeBufferPointer { pixels in
            boxes.withUnsafeMutableBufferPointer { output in
                headroom_hog_detect(
                    handle.pointer, pixels.baseAddress, Int32(frame.width), Int32(frame.height),
                    Int32(frame.width), imageScale, Int32(windowStride), pyramidStep,
                    output.baseAddress, Int32(Self.capacity))
            }
        }
        guard found > 0 else { return [] }
        return boxes.prefix(Int(min(found, Int32(Self.capacity)))).compactMap { box in
            guard box.weight >= minimumWeight else { return nil }
            return Detection(
                box: BoundingBox(
                    minX: Double(box.x), minY: Double(box.y), width: Double(box.width),
                    height: Double(box.height)),
                confidence: box.weight / (box.weight + 1))
        }
    }

    /// Owns the OpenCV descriptor. `@unchecked Sendable`: OpenCV's detection is `const` and
    /// safe from several threads, and the pointer is freed only when the last copy goes.
    private final class Handle: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { headroom_hog_destroy(pointer) }
    }
}

/// OpenCV could not set up the HOG people detector.
public struct HOGUnavailableError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String {
        "OpenCV's HOG people detector could not be set up (libopencv-objdetect)"
    }
}
