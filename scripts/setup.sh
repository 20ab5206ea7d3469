#!/bin/sh
# setup.sh - installs what stoke needs to build and test on Debian 12, with
# apt, and only what is missing. Safe to run again. Run as root (or with sudo
# available).
set -eu

packages="build-essential cmake pkg-config libunwind-dev libelf-dev libdw-dev
libzstd-dev zstd libiberty-dev elfutils binutils g++ python3"

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
echo "setup: installing:$missing" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >&2
