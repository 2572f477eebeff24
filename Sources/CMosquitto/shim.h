// Eclipse Mosquitto's client library (Debian's libmosquitto-dev): MQTT 3.1.1 and 5 with a
// network thread of its own, reconnection and a last will.
#include <mosquitto.h>
