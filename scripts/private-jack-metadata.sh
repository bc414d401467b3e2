#!/usr/bin/env bash
# Runs a command with JACK's metadata store (jack2 keeps it at /dev/shm/jack_db-UID, one Berkeley DB for every server of
# the user) private to that command and its children, so servers elsewhere on the machine cannot change what its
# servers read. Two jack2 servers number their ports' UUIDs alike, so a port's pretty name on one server could read back
# as another server's name, and any server that exits deletes the store's files under the others. Non-realtime.
# Usage: private-jack-metadata.sh COMMAND [ARG...]; where a mount namespace cannot be made (not root, no unshare), the
# command runs with the shared store, and a line says so.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; }
store=/dev/shm/jack_db-$(id -u)
if ! unshare --mount --propagation private true 2>/dev/null; then
  echo "private-jack-metadata: no mount namespace here (unshare --mount failed): JACK metadata is shared with the machine's other servers" >&2
  exec "$@"
fi
mkdir -p "$store"
# A file of ours keeps the machine's store folder from being removed by a server that exits (jack2 removes its files,
# then the folder): removing the folder would also unmount the private store mounted on it.
touch "$store/.foldback-keep"
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
exec unshare --mount --propagation private sh -c 'mount -t tmpfs -o mode=0770,size=64m foldback-jack-metadata "$0" && exec "$@"' "$store" "$@"
