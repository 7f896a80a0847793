#!/usr/bin/env bash
# A private PostgreSQL + pgvector cluster on a free loopback port, for memsvc's tests and
# benchmarks. Idempotent: run it as often as you like; the last line of its output is the URL.
#
#   tooling/scripts/pg-local.sh          make PostgreSQL + pgvector available, start, print the URL
#   tooling/scripts/pg-local.sh url      print the URL of the running cluster (exit 1 if stopped)
#   tooling/scripts/pg-local.sh stop     stop the cluster (its data stays)
#   tooling/scripts/pg-local.sh destroy  stop it and delete its data
#
# What it does, each step only when needed:
#   1. PostgreSQL server binaries from Debian's packages (postgresql-$PG_MAJOR).
#   2. pgvector, when the server lacks it: pgvector is not packaged for Debian bookworm, so its
#      Debian source package is fetched from trixie with a private apt source list and list
#      directory (the system's apt sources are never touched), patched as Debian patches it,
#      built against postgresql-server-dev-$PG_MAJOR and installed.
#   3. A cluster of its own under $MEMSVC_PG_DIR, listening on 127.0.0.1 only, on a free port
#      (kept across restarts), with trust authentication for the local `postgres` role.
# A system PostgreSQL already running on 5432 is left alone.
#
# Environment: MEMSVC_PG_MAJOR (default 15), MEMSVC_PG_DIR (default ${TMPDIR:-/tmp}/memsvc-pg$MAJOR),
# MEMSVC_PG_DATABASE (default memsvc).
set -euo pipefail

PG_MAJOR="${MEMSVC_PG_MAJOR:-15}"
STATE_DIR="${MEMSVC_PG_DIR:-${TMPDIR:-/tmp}/memsvc-pg${PG_MAJOR}}"
DATABASE="${MEMSVC_PG_DATABASE:-memsvc}"
BIN_DIR="/usr/lib/postgresql/${PG_MAJOR}/bin"
EXTENSION_DIR="/usr/share/postgresql/${PG_MAJOR}/extension"
PGVECTOR_SOURCE_SUITE="trixie"
DATA_DIR="${STATE_DIR}/data"
SOCKET_DIR="${STATE_DIR}/socket"
PORT_FILE="${STATE_DIR}/port"
LOG_FILE="${STATE_DIR}/server.log"

log() { printf 'pg-local: %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

is_root() { [ "$(id -u)" = 0 ]; }

# Runs a command as root: directly when we are root, through passwordless sudo otherwise.
as_root() {
  if is_root; then
    "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    die "installing needs root (or passwordless sudo) to run: $*"
  fi
}

# PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
as_cluster_owner() {
  if is_root; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

apt_install() {
  local stamp=/var/lib/apt/lists/memsvc-updated
  if [ ! -e "$stamp" ] || [ -z "$(find "$stamp" -mmin -360 2>/dev/null)" ]; then
    as_root apt-get update -qq >&2
    as_root touch "$stamp"
  fi
  # Through `env`, because sudo resets the environment and a debconf prompt would hang the run.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

ensure_server() {
  if [ -x "${BIN_DIR}/postgres" ]; then return; fi
  command -v apt-get >/dev/null 2>&1 || die "PostgreSQL ${PG_MAJOR} is not installed and apt-get is not available; install it, or set PGVECTOR_TEST_URL to a PostgreSQL with pgvector"
  log "installing PostgreSQL ${PG_MAJOR} from Debian's packages"
  apt_install "postgresql-${PG_MAJOR}"
}

installed_pgvector_version() {
  sed -n "s/^default_version = '\(.*\)'/\1/p" "${EXTENSION_DIR}/vector.control" 2>/dev/null
}

# pgvector 0.5 brought HNSW, which memsvc needs; an older build is replaced.
pgvector_is_usable() {
  local version
  version="$(installed_pgvector_version)"
  [ -n "$version" ] && [ "$(printf '%s\n0.5.0\n' "$version" | sort -V | head -n 1)" = "0.5.0" ]
}

ensure_pgvector() {
  if pgvector_is_usable; then return; fi
  command -v apt-get >/dev/null 2>&1 || die "pgvector is missing and apt-get is not available"
  log "pgvector is missing: building it from Debian's ${PGVECTOR_SOURCE_SUITE} source package"
  apt_install "postgresql-server-dev-${PG_MAJOR}" make gcc patch xz-utils ca-certificates

  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/memsvc-pgvector.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: the trap must remove this very directory
  trap "rm -rf '${work}'" EXIT
  # The system's apt sources stay untouched: a source list and a list directory of our own.
  mkdir -p "${work}/lists/partial" "${work}/sources"
  cat >"${work}/sources/${PGVECTOR_SOURCE_SUITE}-src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: ${PGVECTOR_SOURCE_SUITE}
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  local apt_private=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=${work}/sources"
    -o "Dir::State::Lists=${work}/lists" -o "APT::Sandbox::User=root")
  apt-get "${apt_private[@]}" update -qq >&2
  (cd "$work" && apt-get "${apt_private[@]}" source --download-only -qq pgvector >&2)

  local orig
  orig="$(find "$work" -maxdepth 1 -name 'pgvector_*.orig.tar.gz' | head -n 1)"
  [ -n "$orig" ] || die "Debian's ${PGVECTOR_SOURCE_SUITE} source package of pgvector could not be downloaded"
  mkdir -p "${work}/src"
  tar -xzf "$orig" -C "${work}/src" --strip-components=1
  tar -xJf "$(find "$work" -maxdepth 1 -name 'pgvector_*.debian.tar.xz' | head -n 1)" -C "${work}/src"
  if [ -f "${work}/src/debian/patches/series" ]; then
    while read -r patch_name; do
      case "$patch_name" in "" | \#*) continue ;; esac
      patch -d "${work}/src" -p1 -s <"${work}/src/debian/patches/${patch_name}"
    done <"${work}/src/debian/patches/series"
  fi
  # OPTFLAGS="" keeps the build portable (no -march=native), as Debian's own build does.
  make -C "${work}/src" -j"$(nproc)" -s PG_CONFIG="${BIN_DIR}/pg_config" OPTFLAGS="" >&2
  as_root make -C "${work}/src" -s PG_CONFIG="${BIN_DIR}/pg_config" OPTFLAGS="" install >&2
  rm -rf "$work"
  trap - EXIT
  pgvector_is_usable || die "pgvector was built but ${EXTENSION_DIR}/vector.control is missing or too old"
  log "pgvector $(installed_pgvector_version) installed"
}

free_port() {
  node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

port_is_free() {
  node -e "const s=require('node:net').createServer();s.once('error',()=>process.exit(1));s.listen(Number(process.argv[1]),'127.0.0.1',()=>s.close())" "$1"
}

cluster_running() {
  [ -f "${DATA_DIR}/PG_VERSION" ] && as_cluster_owner "${BIN_DIR}/pg_ctl" -D "$DATA_DIR" status >/dev/null 2>&1
}

database_url() {
  printf 'postgres://postgres@127.0.0.1:%s/%s\n' "$(cat "$PORT_FILE")" "$DATABASE"
}

prepare_state_dir() {
  mkdir -p "$STATE_DIR" "$SOCKET_DIR"
  if is_root; then
    chown postgres: "$STATE_DIR" "$SOCKET_DIR"
    runuser -u postgres -- test -w "$STATE_DIR" ||
      die "the postgres user cannot reach ${STATE_DIR} (a parent directory is closed to it); set MEMSVC_PG_DIR to a path under /tmp"
  fi
  chmod 700 "$SOCKET_DIR"
}

start_cluster() {
  prepare_state_dir
  if [ ! -f "${DATA_DIR}/PG_VERSION" ]; then
    log "creating a private cluster in ${DATA_DIR}"
    as_cluster_owner "${BIN_DIR}/initdb" -D "$DATA_DIR" -U postgres -A trust -E UTF8 --no-locale >/dev/null
  fi
  local port=""
  [ -f "$PORT_FILE" ] && port="$(cat "$PORT_FILE")"
  if [ -z "$port" ] || ! port_is_free "$port"; then port="$(free_port)"; fi
  printf '%s\n' "$port" >"$PORT_FILE"
  log "starting PostgreSQL ${PG_MAJOR} on 127.0.0.1:${port}"
  # `9>&-`: the server must not inherit the lock descriptor, or it would hold the lock forever.
  # shared_buffers 1GB: the recall benchmark's 200,000 memories and their HNSW graph (~700 MB)
  # fit, as they would on a tuned server; the memory is only taken as pages are touched.
  if ! as_cluster_owner "${BIN_DIR}/pg_ctl" -D "$DATA_DIR" -l "$LOG_FILE" -w -t 60 \
    -o "-p ${port} -h 127.0.0.1 -k ${SOCKET_DIR} -c max_connections=200 -c shared_buffers=1GB" start >/dev/null 9>&-; then
    tail -n 20 "$LOG_FILE" >&2 || true
    die "PostgreSQL did not start (log: ${LOG_FILE})"
  fi
}

ensure_database() {
  local port
  port="$(cat "$PORT_FILE")"
  local psql=("${BIN_DIR}/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA)
  if [ -z "$("${psql[@]}" -c "select 1 from pg_database where datname = '${DATABASE}'")" ]; then
    "${psql[@]}" -c "create database \"${DATABASE}\"" >/dev/null
  fi
  PGOPTIONS="-c client_min_messages=warning" "${BIN_DIR}/psql" -h 127.0.0.1 -p "$port" -U postgres -d "$DATABASE" -v ON_ERROR_STOP=1 -qtA \
    -c 'create extension if not exists vector' >/dev/null
}

main() {
  local command="${1:-start}"
  case "$command" in
    url)
      cluster_running || die "the cluster in ${DATA_DIR} is not running"
      database_url
      ;;
    stop)
      if cluster_running; then as_cluster_owner "${BIN_DIR}/pg_ctl" -D "$DATA_DIR" -m fast -w stop >/dev/null; fi
      log "stopped"
      ;;
    destroy)
      main stop
      rm -rf "$STATE_DIR"
      log "removed ${STATE_DIR}"
      ;;
    start)
      mkdir -p "$(dirname "$STATE_DIR")"
      # One run at a time: parallel test runners may all call this.
      exec 9>"${STATE_DIR}.lock"
      flock 9
      ensure_server
      ensure_pgvector
      if ! cluster_running; then start_cluster; fi
      ensure_database
      database_url
      ;;
    *) die "unknown command \"${command}\" (start, url, stop, destroy)" ;;
  esac
}

main "$@"
