#!/usr/bin/env bash
# Make a Docker engine reachable and the tracegate base images present, on a
# clean Debian machine with no registry access: install docker.io and
# debootstrap from Debian's packages, start dockerd without iptables or a
# bridge (containers run with --network none anyway), and build the base
# images from minimal Debian root filesystems:
#   tracegate/base:bookworm  Debian bookworm, Python 3.11 (settrace backend)
#   tracegate/base:trixie    Debian trixie,   Python 3.13 (sys.monitoring backend)
# Idempotent: each step is skipped when its result already exists.
set -euo pipefail

BASE_IMAGE="${TRACEGATE_BASE_IMAGE:-tracegate/base:bookworm}"
SUITE="${TRACEGATE_BASE_SUITE:-bookworm}"
# The second interpreter the tracer's suite runs on (3.12+: both backends).
SECOND_IMAGE="${TRACEGATE_SECOND_IMAGE:-tracegate/base:trixie}"
SECOND_SUITE="${TRACEGATE_SECOND_SUITE:-trixie}"
log() { echo "[ensure-docker] $*" >&2; }

if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null; then
  log "installing docker.io and debootstrap from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  log "starting dockerd (--iptables=false --bridge=none)"
  nohup dockerd --iptables=false --bridge=none --storage-driver=overlay2 \
    >/var/log/tracegate-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  docker info >/dev/null 2>&1 || { log "dockerd did not come up; see /var/log/tracegate-dockerd.log"; exit 1; }
fi

build_base() { # IMAGE SUITE
  if docker image inspect "$1" >/dev/null 2>&1; then return; fi
  log "building $1 from debootstrap $2 (about a minute)"
  bash "$(dirname "$0")/build-base-image.sh" "$2" "$1"
}

build_base "$BASE_IMAGE" "$SUITE"
build_base "$SECOND_IMAGE" "$SECOND_SUITE"
log "engine up, $BASE_IMAGE and $SECOND_IMAGE present"
