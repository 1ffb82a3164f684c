#!/usr/bin/env bash
# Installs what the browser and device tests run and that a fresh machine
# may lack, from Debian's packages: Chromium (tests never download a browser
# of their own: the machine has no route to one), and the independent
# field-bus clients the device tests check against, mbpoll (Modbus) and
# mosquitto_pub (MQTT).
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-dejavu-core)
command -v mbpoll >/dev/null || missing+=(mbpoll)
command -v mosquitto_pub >/dev/null || missing+=(mosquitto-clients)
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
/usr/bin/chromium --version
