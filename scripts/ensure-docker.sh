#!/usr/bin/env bash
# Make a Docker engine reachable and the tracegate base image present, on a
# clean Debian machine with no registry access: install docker.io and
# debootstrap from Debian's packages, start dockerd without iptables or a
# bridge (containers run with --network none anyway), and build the base
# image from a minimal Debian root filesystem. Idempotent: each step is
# skipped when its result already exists.
set -euo pipefail

BASE_IMAGE="${TRACEGATE_BASE_IMAGE:-tracegate/base:bookworm}"
SUITE="${TRACEGATE_BASE_SUITE:-bookworm}"
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

if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  log "building $BASE_IMAGE from debootstrap $SUITE (about a minute)"
  root="$(mktemp -d)"
  debootstrap --variant=minbase --include=python3,python3-venv "$SUITE" "$root" >/dev/null
  tar -C "$root" -c . | docker import - "$BASE_IMAGE" >/dev/null
  rm -rf "$root"
fi
log "engine up, $BASE_IMAGE present"
