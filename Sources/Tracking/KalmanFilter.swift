/// A constant-velocity Kalman filter over a box's centre and size, with noise proportional to
/// the box size as ByteTrack (and BoT-SORT, in this x-y-width-height form) uses it.
///
/// The state is `[cx, cy, w, h, vcx, vcy, vw, vh]`; the measurement is `[cx, cy, w, h]`. The
/// process and measurement noise are diagonal and the motion model moves each coordinate with
/// its own velocity only, so a covariance that starts as four independent 2×2 blocks (one per
/// coordinate: position and velocity) stays that way. The filter therefore keeps those four
/// blocks instead of an 8×8 matrix: the arithmetic is exactly that of the full filter, about
/// twenty times cheaper.
public struct KalmanFilter: Sendable, Equatable {
    /// The noise model: standard deviations as fractions of the box size.
    public struct Noise: Sendable, Hashable {
        /// Position noise per unit of box size (ByteTrack: 1/20).
        public var position: Double
        /// Velocity noise per unit of box size (ByteTrack: 1/160).
        public var velocity: Double

        /// Creates a noise model; both weights must be > 0.
        public init(position: Double = 1.0 / 20, velocity: Double = 1.0 / 160) {
            self.position = position
            self.velocity = velocity
        }
    }

    /// One coordinate's position, velocity and their 2×2 covariance.
    struct Axis: Sendable, Hashable {
        var position: Double
        var velocity: Double
        var positionVariance: Double
        var covariance: Double
        var velocityVariance: Double

        mutating func predict(dt: Double, positionNoise: Double, velocityNoise: Double) {
            position += velocity * dt
            positionVariance +=
                2 * dt * covariance + dt * dt * velocityVariance + positionNoise * positionNoise
            covariance += dt * velocityVariance
            velocityVariance += velocityNoise * velocityNoise
        }

        mutating func update(measurement: Double, measurementNoise: Double) {
            let innovationVariance = positionVariance + measurementNoise * measurementNoise
            let positionGain = positionVariance / innovationVariance
            let velocityGain = covariance / innovationVariance
            let innovation = measurement - position
            position += positionGain * innovation
            velocity += velocityGain * innovation
            velocityVariance -= velocityGain * covariance
            covariance -= positionGain * covariance
            positionVariance -= positionGain * positionVariance
        }
    }

    /// The noise model.
    public let noise: Noise
    var centerX: Axis
    var centerY: Axis
    var width: Axis
    var height: Axis

    /// Starts a filter at a measured box with zero velocity and ByteTrack's initial uncertainty
    /// (2 position and 10 velocity noise units of the box size).
    public init(initial box: BoundingBox, noise: Noise = Noise()) {
        self.noise = noise
        func axis(_ value: Double, size: Double) -> Axis {
            let positionDeviation = 2 * noise.position * size
            let velocityDeviation = 10 * noise.velocity * size
            return Axis(
                position: value, velocity: 0,
                positionVariance: positionDeviation * positionDeviation, covariance: 0,
                velocityVariance: velocityDeviation * velocityDeviation)
        }
        centerX = axis(box.centerX, size: box.width)
        centerY = axis(box.centerY, size: box.height)
        width = axis(box.width, size: box.width)
        height = axis(box.height, size: box.height)
    }

    /// The estimated box.
    public var box: BoundingBox {
        BoundingBox(
            centerX: centerX.position, centerY: centerY.position, width: max(width.position, 0),
            height: max(height.position, 0))
    }

    /// The estimated velocity of the centre and size, in box units per step.
    public var velocity: (centerX: Double, centerY: Double, width: Double, height: Double) {
        (centerX.velocity, centerY.velocity, width.velocity, height.velocity)
    }

    /// The state vector `[cx, cy, w, h, vcx, vcy, vw, vh]`.
    public var state: [Double] {
        [
            centerX.position, centerY.position, width.position, height.position,
            centerX.velocity, centerY.velocity, width.velocity, height.velocity,
        ]
    }

    /// The 8×8 state covariance, row-major, in the order of ``state``.
    public var covariance: [Double] {
        var matrix = [Double](repeating: 0, count: 64)
        for (index, axis) in [centerX, centerY, width, height].enumerated() {
            matrix[index * 8 + index] = axis.positionVariance
            matrix[index * 8 + index + 4] = axis.covariance
            matrix[(index + 4) * 8 + index] = axis.covariance
            matrix[(index + 4) * 8 + index + 4] = axis.velocityVariance
        }
        return matrix
    }

    /// Sets the centre's velocity (box units per step), keeping its uncertainty: a track
    /// recovered after a gap moves as its observations on both sides of the gap say.
    public mutating func setVelocity(centerX: Double, centerY: Double) {
        self.centerX.velocity = centerX
        self.centerY.velocity = centerY
    }

    /// Stops the size from changing (zero width and height velocity), keeping the position's
    /// motion.
    public mutating func stopResizing() {
        width.velocity = 0
        height.velocity = 0
    }

    /// Advances the state by `dt` steps (1 = one frame) without a measurement.
    ///
    /// A size that would shrink to zero or below stops shrinking instead (as SORT does), so
    /// long prediction-only runs never produce empty boxes.
    public mutating func predict(dt: Double = 1) {
        if width.position + width.velocity * dt <= 0 { width.velocity = 0 }
        if height.position + height.velocity * dt <= 0 { height.velocity = 0 }
        let boxWidth = width.position
        let boxHeight = height.position
        let p = noise.position
        let v = noise.velocity
        centerX.predict(dt: dt, positionNoise: p * boxWidth, velocityNoise: v * boxWidth)
        centerY.predict(dt: dt, positionNoise: p * boxHeight, velocityNoise: v * boxHeight)
        width.predict(dt: dt, positionNoise: p * boxWidth, velocityNoise: v * boxWidth)
        height.predict(dt: dt, positionNoise: p * boxHeight, velocityNoise: v * boxHeight)
    }

    /// Corrects the state with a measured box.
    public mutating func update(with box: BoundingBox) {
        let boxWidth = width.position
        let boxHeight = height.position
        let p = noise.position
        centerX.update(measurement: box.centerX, measurementNoise: p * boxWidth)
        centerY.update(measurement: box.centerY, measurementNoise: p * boxHeight)
        width.update(measurement: box.width, measurementNoise: p * boxWidth)
        height.update(measurement: box.height, measurementNoise: p * boxHeight)
    }
}
