/// What a detected box looks like, from its pixels alone, for the tracker to keep identities
/// by: one of two looks, chosen by the detector (``AppearanceStyle``).
///
/// - ``BandLook``: eight bands' mean grey (and colour), forgiving a change of light; for the
///   rendered scene, whose people are flat colours under lighting that drifts across the room.
/// - ``ColourHistogram``: the colours of the upper and lower body; for real footage in colour,
///   where clothes are patterned and a box sits a little differently on the body each frame.
///
/// Two descriptors of different looks are as different as can be (distance 1): a tracker's
/// detections all come from one detector.
public struct AppearanceDescriptor: Sendable, Hashable {
    private var look: Look

    private enum Look: Sendable, Hashable {
        case bands(BandLook)
        case histogram(ColourHistogram)
    }

    /// The descriptor of `box` (pixels, top-left origin) inside `frame` in `style`; nil when
    /// the box holds too little of the frame, or for a histogram when the frame has no colour.
    public init?(box: BoundingBox, in frame: GrayFrame, style: AppearanceStyle = .bands) {
        switch style {
        case .bands:
            guard let bands = BandLook(box: box, in: frame) else { return nil }
            look = .bands(bands)
        case .colourHistogram:
            guard let histogram = ColourHistogram(box: box, in: frame) else { return nil }
            look = .histogram(histogram)
        }
    }

    /// A band look with the given band means (``BandLook/bandCount`` of them).
    public init(bands: [Double]) {
        look = .bands(BandLook(bands: bands))
    }

    /// A band look in colour: each band's mean grey, blue and red difference
    /// (``BandLook/bandCount`` of each).
    public init(bands: [Double], blue: [Double], red: [Double]) {
        look = .bands(BandLook(bands: bands, blue: blue, red: red))
    }

    /// The mean grey of each band, top first, 0...255; empty for a histogram.
    public var bands: [Double] {
        guard case .bands(let bands) = look else { return [] }
        return bands.bands
    }

    /// Whether the descriptor was seen in colour (a histogram always is).
    public var hasColour: Bool {
        switch look {
        case .bands(let bands): bands.hasColour
        case .histogram: true
        }
    }

    /// How different two descriptors look, ≥ 0: ``BandLook/distance(to:lightChange:)`` or
    /// ``ColourHistogram/distance(to:)`` (which has no light to forgive), 1 for two looks of
    /// different kinds.
    public func distance(to other: AppearanceDescriptor, lightChange: Double = 0) -> Double {
        switch (look, other.look) {
        case (.bands(let mine), .bands(let theirs)):
            mine.distance(to: theirs, lightChange: lightChange)
        case (.histogram(let mine), .histogram(let theirs)): mine.distance(to: theirs)
        default: 1
        }
    }

    /// ``distance(to:lightChange:)`` allowing for a box that sits a little higher or lower on
    /// the body: ``BandLook/slidingDistance(to:lightChange:)``; a histogram does not care where
    /// in a half a colour sits, so its distance stands.
    public func slidingDistance(to other: AppearanceDescriptor, lightChange: Double = 0)
        -> Double
    {
        switch (look, other.look) {
        case (.bands(let mine), .bands(let theirs)):
            mine.slidingDistance(to: theirs, lightChange: lightChange)
        case (.histogram(let mine), .histogram(let theirs)): mine.distance(to: theirs)
        default: 1
        }
    }

    /// This descriptor moved toward `other` by `weight` (0...1): the running appearance of a
    /// track, updated with each clean observation. A look of another kind teaches nothing.
    public func blended(toward other: AppearanceDescriptor, weight: Double) -> AppearanceDescriptor
    {
        var result = self
        switch (look, other.look) {
        case (.bands(let mine), .bands(let theirs)):
            result.look = .bands(mine.blended(toward: theirs, weight: weight))
        case (.histogram(let mine), .histogram(let theirs)):
            result.look = .histogram(mine.blended(toward: theirs, weight: weight))
        default: break
        }
        return result
    }
}

/// Which look (``AppearanceDescriptor``) a detector's boxes are described by.
public enum AppearanceStyle: Sendable, Hashable {
    /// ``BandLook``: bands' mean grey and colour.
    case bands
    /// ``ColourHistogram``: the colours of the upper and lower body.
    case colourHistogram
}
