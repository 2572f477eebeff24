import Files

extension DeviceProfile {
    /// The profiles that ship with Headroom, in the order `headroom profiles` lists them.
    public static let builtIn: [DeviceProfile] = [.genericDesktop, .raspberryPi5, .jetsonOrinNX]

    /// A four-core x86_64 desktop with USB (UVC) cameras; colour conversion and scaling run on
    /// the CPU with SIMD.
    public static let genericDesktop = DeviceProfile(
        name: "generic-x86_64",
        summary: "4-core x86_64 desktop, dual-channel DDR4, USB 3 (UVC) cameras, VA-API encoder",
        pixelRate: 1.2e9,
        memoryBandwidth: 12.8e9,
        cameraPorts: 4,
        perCameraOverhead: 0.02,
        rawBytesPerPixel: 2,
        binnedReadoutFactor: 0.6,
        fullSensorReadoutFactor: 1.5,
        outputWeights: OutputWeights(preview: 0.25, videoData: 1, photo: 0.1, movie: 1.5),
        sensors: [
            SensorModes(
                name: "uvc-4k",
                formats: [
                    CameraFormat(width: 3840, height: 2160, maxFrameRate: 30, pixelFormat: .nv12),
                    CameraFormat(width: 2560, height: 1440, maxFrameRate: 30, pixelFormat: .nv12),
                    CameraFormat(width: 1920, height: 1080, maxFrameRate: 60, pixelFormat: .nv12),
                    CameraFormat(
                        width: 1920, height: 1080, maxFrameRate: 60, pixelFormat: .nv12,
                        isBinned: true),
                    CameraFormat(width: 1280, height: 720, maxFrameRate: 90, pixelFormat: .nv12),
                    CameraFormat(
                        width: 1280, height: 720, maxFrameRate: 60, pixelFormat: .yuyv,
                        isCropped: true),
                    CameraFormat(width: 640, height: 480, maxFrameRate: 120, pixelFormat: .yuyv),
                ]),
            SensorModes(
                name: "uvc-1080p",
                formats: [
                    CameraFormat(width: 1920, height: 1080, maxFrameRate: 30, pixelFormat: .nv12),
                    CameraFormat(width: 1280, height: 720, maxFrameRate: 60, pixelFormat: .yuyv),
                    CameraFormat(width: 640, height: 360, maxFrameRate: 60, pixelFormat: .yuyv),
                ]),
        ],
        sources: [
            "pixelRate": "estimate: ~0.3 Gpx/s per core for NV12 conversion and scaling with SIMD",
            "memoryBandwidth":
                "estimate: a quarter of dual-channel DDR4-3200's 51.2 GB/s theoretical peak",
            "cameraPorts":
                "estimate: USB 3 isochronous bandwidth reservations admit about 4 cameras",
            "perCameraOverhead": "estimate",
            "rawBytesPerPixel": "UVC cameras deliver YUYV (2 bytes per pixel) into memory",
            "binnedReadoutFactor": "estimate",
            "fullSensorReadoutFactor": "estimate",
            "outputWeights": "estimate; movie assumes a VA-API hardware encoder",
            "sensors": "typical 4K and 1080p UVC webcam mode lists (uvcvideo descriptors)",
        ])

    /// Raspberry Pi 5: two 4-lane MIPI CSI-2 connectors, raw frames written to DRAM by RP1 and
    /// processed memory-to-memory by the PiSP back end; no hardware H.264 encoder.
    public static let raspberryPi5 = DeviceProfile(
        name: "raspberry-pi-5",
        summary: "Raspberry Pi 5 (BCM2712 + RP1, PiSP ISP), LPDDR4X-4267, two CSI-2 cameras",
        pixelRate: 0.6e9,
        memoryBandwidth: 5.1e9,
        cameraPorts: 2,
        perCameraOverhead: 0.03,
        rawBytesPerPixel: 1.25,
        binnedReadoutFactor: 0.6,
        fullSensorReadoutFactor: 1.5,
        outputWeights: OutputWeights(preview: 0.25, videoData: 1, photo: 0.1, movie: 3),
        sensors: [
            SensorModes(
                name: "imx708",
                formats: [
                    CameraFormat(
                        width: 4608, height: 2592, maxFrameRate: 14.35, pixelFormat: .nv12),
                    CameraFormat(
                        width: 3840, height: 2160, maxFrameRate: 14.35, pixelFormat: .nv12),
                    CameraFormat(
                        width: 2304, height: 1296, maxFrameRate: 56.03, pixelFormat: .nv12,
                        isBinned: true),
                    CameraFormat(
                        width: 1920, height: 1080, maxFrameRate: 14.35, pixelFormat: .nv12),
                    CameraFormat(
                        width: 1920, height: 1080, maxFrameRate: 56.03, pixelFormat: .nv12,
                        isBinned: true),
                    CameraFormat(
                        width: 1536, height: 864, maxFrameRate: 120.13, pixelFormat: .nv12,
                        isBinned: true, isCropped: true),
                    CameraFormat(
                        width: 1280, height: 720, maxFrameRate: 56.03, pixelFormat: .nv12,
                        isBinned: true),
                    CameraFormat(
                        width: 640, height: 480, maxFrameRate: 56.03, pixelFormat: .nv12,
                        isBinned: true, isCropped: true),
                ]),
            SensorModes(
                name: "imx477",
                formats: [
                    CameraFormat(width: 4056, height: 3040, maxFrameRate: 10, pixelFormat: .nv12),
                    CameraFormat(
                        width: 2028, height: 1520, maxFrameRate: 40, pixelFormat: .nv12,
                        isBinned: true),
                    CameraFormat(
                        width: 2028, height: 1080, maxFrameRate: 50, pixelFormat: .nv12,
                        isBinned: true, isCropped: true),
                    CameraFormat(
                        width: 1332, height: 990, maxFrameRate: 120, pixelFormat: .nv12,
                        isBinned: true, isCropped: true),
                ]),
        ],
        sources: [
            "pixelRate": "estimate for the PiSP back end at its default clock",
            "memoryBandwidth":
                "estimate: 30% of LPDDR4X-4267 x32's 17.1 GB/s theoretical peak; raw frames go"
                + " to DRAM before the memory-to-memory ISP (kernel pisp-be documentation)",
            "cameraPorts":
                "Raspberry Pi 5 product brief: two 4-lane MIPI camera/display connectors",
            "perCameraOverhead": "estimate",
            "rawBytesPerPixel": "CSI-2 RAW10 packed: 10 bits per photosite",
            "binnedReadoutFactor": "estimate",
            "fullSensorReadoutFactor": "estimate",
            "outputWeights": "estimate; movie is high because Pi 5 has no hardware H.264 encoder",
            "sensors": "libcamera sensor modes of Camera Module 3 (imx708) and HQ Camera (imx477)",
        ])

    /// NVIDIA Jetson Orin NX 16 GB: VI and a hardware ISP, frames in shared LPDDR5, NVENC.
    public static let jetsonOrinNX = DeviceProfile(
        name: "jetson-orin-nx",
        summary: "NVIDIA Jetson Orin NX 16GB (T234), 128-bit LPDDR5, up to 4 CSI-2 cameras, NVENC",
        pixelRate: 1.5e9,
        memoryBandwidth: 30.7e9,
        cameraPorts: 4,
        perCameraOverhead: 0.02,
        rawBytesPerPixel: 1.25,
        binnedReadoutFactor: 0.6,
        fullSensorReadoutFactor: 1.5,
        outputWeights: OutputWeights(preview: 0.25, videoData: 1, photo: 0.1, movie: 1.25),
        sensors: [
            SensorModes(
                name: "imx274",
                formats: [
                    CameraFormat(width: 3840, height: 2160, maxFrameRate: 60, pixelFormat: .nv12),
                    CameraFormat(width: 3840, height: 2160, maxFrameRate: 30, pixelFormat: .nv12),
                    CameraFormat(
                        width: 1920, height: 1080, maxFrameRate: 60, pixelFormat: .nv12,
                        isBinned: true),
                    CameraFormat(
                        width: 1920, height: 1080, maxFrameRate: 120, pixelFormat: .nv12,
                        isCropped: true),
                    CameraFormat(
                        width: 1280, height: 720, maxFrameRate: 120, pixelFormat: .nv12,
                        isBinned: true),
                ]),
            SensorModes(
                name: "imx219",
                formats: [
                    CameraFormat(width: 3264, height: 2464, maxFrameRate: 21, pixelFormat: .nv12),
                    CameraFormat(width: 3264, height: 1848, maxFrameRate: 28, pixelFormat: .nv12),
                    CameraFormat(
                        width: 1920, height: 1080, maxFrameRate: 30, pixelFormat: .nv12,
                        isCropped: true),
                    CameraFormat(
                        width: 1640, height: 1232, maxFrameRate: 30, pixelFormat: .nv12,
                        isBinned: true),
                    CameraFormat(
                        width: 1280, height: 720, maxFrameRate: 60, pixelFormat: .nv12,
                        isBinned: true, isCropped: true),
                ]),
        ],
        sources: [
            "pixelRate": "estimate for the T234 ISP's sustained throughput",
            "memoryBandwidth": "estimate: 30% of the module's 102.4 GB/s LPDDR5 theoretical peak",
            "cameraPorts": "Jetson Orin NX datasheet: up to 4 cameras (8 through virtual channels)",
            "perCameraOverhead": "estimate",
            "rawBytesPerPixel": "CSI-2 RAW10; VI writes frames to buffers in shared memory",
            "binnedReadoutFactor": "estimate",
            "fullSensorReadoutFactor": "estimate",
            "outputWeights": "estimate; movie assumes NVENC",
            "sensors":
                "L4T sensor-driver mode tables for IMX274 and IMX219 (Jetson camera modules)",
        ])
}
