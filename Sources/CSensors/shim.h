// lm-sensors' libsensors (Debian libsensors-dev), imported as is: the Pressure module owns it.
#include <stdio.h>
#include <sensors/sensors.h>
#include <sensors/error.h>
