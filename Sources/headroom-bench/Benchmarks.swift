/// Every benchmark, by area. A new area adds its list here.
let allBenchmarks: [Benchmark] =
    captureBenchmarks + launchBenchmarks + pressureBenchmarks + telemetryBenchmarks
    + trackingBenchmarks + storageBenchmarks + serviceBenchmarks
