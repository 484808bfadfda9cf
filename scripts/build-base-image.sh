#!/usr/bin/env bash
# Builds a tracegate base image from a minimal Debian root filesystem, for
# machines where no registry answers: `build-base-image.sh SUITE IMAGE`
# (bookworm = Python 3.11, trixie = Python 3.13). Needs root, debootstrap and
# Debian's package mirror. Skipped when IMAGE already exists.
set -euo pipefail
suite="$1" image="$2"
if docker image inspect "$image" >/dev/null 2>&1; then exit 0; fi
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=python3,python3-venv "$suite" "$root" >/dev/null
tar -C "$root" -c . | docker import - "$image" >/dev/null
echo "built $image from debootstrap $suite" >&2
