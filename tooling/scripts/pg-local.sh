#!/usr/bin/env bash
# A private PostgreSQL + pgvector cluster on a free loopback port, for memsvc's tests and
# benchmarks. Idempotent: run it as often as you like; the last line of its output is the URL.
#
#   tooling/scripts/pg-local.sh          make PostgreSQL + pgvector available, start, print the URL
#   tooling/scripts/pg-local.sh url      print the URL of the running cluster (exit 1 if stopped)
#   tooling/scripts/pg-local.sh stop     stop the cluster (its data stays)
#   tooling/scripts/pg-local.sh destroy  stop it and delete its data
#
#   tooling/scripts/pg-local.sh replica [NAME]          a hot standby of that cluster (streaming
#                                                      replication), caught up; prints its URL last
#   tooling/scripts/pg-local.sh replica-url [NAME]      print the standby's URL (exit 1 if stopped)
#   tooling/scripts/pg-local.sh replica-stop [NAME]     stop the standby (its data stays)
#   tooling/scripts/pg-local.sh replica-destroy [NAME]  stop it and delete its data
#
# NAME (letters, digits, - and _) gives a test a throw-away standby of its own, for example one
# to promote (`SELECT pg_promote()`) or to pause (`SELECT pg_wal_replay_pause()`); without it,
# the shared standby. Each lives beside the primary's directory, in <dir>-replica[-NAME], and
# keeps its port. A standby that was promoted, or whose primary was recreated, is rebuilt.
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

# --- Hot standbys ---------------------------------------------------------------------------
# A standby is a pg_basebackup of the primary (`-R` writes primary_conninfo and standby.signal),
# started as a hot standby on its own free port. The primary that initdb made already allows it:
# wal_level=replica, max_wal_senders=10 and a trust `replication` entry for 127.0.0.1 are
# PostgreSQL's defaults; they are checked, and put in place when an older cluster lacks them.
# Each standby has a physical replication slot on the primary, so the WAL it has not received
# stays there while it is stopped: without one, a primary busy with other tests recycled that WAL
# within seconds, and a standby restarted after a short stop never caught up (30 s lost, then a
# new base backup). max_slot_wal_keep_size bounds what a standby stopped for good can hold back.

replica_dir() {
  local name="$1"
  [[ "$name" =~ ^[A-Za-z0-9_-]*$ ]] || die "a replica name may hold letters, digits, - and _ only (got \"${name}\")"
  printf '%s-replica%s\n' "$STATE_DIR" "${name:+-${name}}"
}

primary_psql() {
  "${BIN_DIR}/psql" -h 127.0.0.1 -p "$(cat "$PORT_FILE")" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"
}

standby_psql() {
  local port="$1"
  shift
  "${BIN_DIR}/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"
}

system_identifier() {
  as_cluster_owner "${BIN_DIR}/pg_controldata" -D "$1" 2>/dev/null | sed -n 's/^Database system identifier: *//p'
}

# What streaming replication needs on the primary, idempotently. Only wal_level and
# max_wal_senders need a restart, and only a cluster made with other settings lacks them.
ensure_primary_replicates() {
  local restart=""
  if [ "$(primary_psql -c 'show wal_level')" = "minimal" ]; then
    primary_psql -c "alter system set wal_level = 'replica'" >/dev/null
    restart=1
  fi
  if [ "$(primary_psql -c 'show max_wal_senders')" -lt 2 ]; then
    primary_psql -c "alter system set max_wal_senders = 10" >/dev/null
    restart=1
  fi
  if [ -z "$(primary_psql -c "select 1 from pg_hba_file_rules where 'replication' = any(database) and address = '127.0.0.1' and auth_method = 'trust' limit 1")" ]; then
    printf 'host    replication     all             127.0.0.1/32            trust\n' | as_cluster_owner tee -a "${DATA_DIR}/pg_hba.conf" >/dev/null
    primary_psql -c 'select pg_reload_conf()' >/dev/null
  fi
  if [ "$(primary_psql -c 'show max_slot_wal_keep_size')" = "-1" ]; then
    primary_psql -c "alter system set max_slot_wal_keep_size = '4GB'" -c 'select pg_reload_conf()' >/dev/null
  fi
  if [ -n "$restart" ]; then
    log "restarting the primary for wal_level=replica and max_wal_senders"
    as_cluster_owner "${BIN_DIR}/pg_ctl" -D "$DATA_DIR" -m fast -w stop >/dev/null
    start_cluster
  fi
}

standby_running() {
  local data="$1"
  [ -f "${data}/PG_VERSION" ] && as_cluster_owner "${BIN_DIR}/pg_ctl" -D "$data" status >/dev/null 2>&1
}

# Usable: still a standby (not promoted) of this very primary (not of an earlier one that was destroyed).
standby_usable() {
  local data="$1"
  [ -f "${data}/standby.signal" ] && [ "$(system_identifier "$data")" = "$(system_identifier "$DATA_DIR")" ]
}

start_standby() {
  local dir="$1" data="$1/data"
  local port=""
  [ -f "${dir}/port" ] && port="$(cat "${dir}/port")"
  if [ -z "$port" ] || ! port_is_free "$port"; then port="$(free_port)"; fi
  printf '%s\n' "$port" >"${dir}/port"
  # A hot standby refuses to start with max_connections (and friends) below the primary's.
  local max_connections
  max_connections="$(primary_psql -c 'show max_connections')"
  log "starting a hot standby on 127.0.0.1:${port}"
  if ! as_cluster_owner "${BIN_DIR}/pg_ctl" -D "$data" -l "${dir}/server.log" -w -t 60 \
    -o "-p ${port} -h 127.0.0.1 -k ${dir}/socket -c max_connections=${max_connections} -c shared_buffers=128MB -c hot_standby=on" start >/dev/null 9>&- 8>&-; then
    tail -n 20 "${dir}/server.log" >&2 || true
    die "the standby did not start (log: ${dir}/server.log)"
  fi
}

# The standby's slot on the primary: memsvc_standby[_NAME], NAME lowercased, - as _.
slot_name() {
  local name="${1,,}"
  printf 'memsvc_standby%s\n' "${name:+_${name//-/_}}"
}

# Drops a slot its standby no longer uses; a walsender still holding it (a standby stopped a
# moment ago) is ended first.
drop_slot() {
  local slot="$1"
  for _ in $(seq 1 50); do
    primary_psql -c "select pg_terminate_backend(active_pid) from pg_replication_slots where slot_name = '${slot}' and active" >/dev/null
    if primary_psql -c "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = '${slot}' and not active" >/dev/null 2>&1 &&
      [ -z "$(primary_psql -c "select 1 from pg_replication_slots where slot_name = '${slot}'")" ]; then
      return 0
    fi
    sleep 0.1
  done
  die "the replication slot ${slot} stays in use"
}

create_standby() {
  local dir="$1" data="$1/data" slot="$2"
  if standby_running "$data"; then as_cluster_owner "${BIN_DIR}/pg_ctl" -D "$data" -m immediate -w stop >/dev/null; fi
  rm -rf "$data"
  drop_slot "$slot"
  mkdir -p "${dir}/socket"
  if is_root; then chown postgres: "$dir" "${dir}/socket"; fi
  chmod 700 "${dir}/socket"
  log "taking a base backup of the primary into ${data}"
  # -c fast: checkpoint now instead of waiting for the next one; -X stream: the WAL written
  # meanwhile comes along; -R: primary_conninfo (with the slot) and standby.signal; -C -S: the
  # slot, made by the backup itself; --no-sync: a test cluster.
  as_cluster_owner "${BIN_DIR}/pg_basebackup" -h 127.0.0.1 -p "$(cat "$PORT_FILE")" -U postgres -D "$data" \
    -R -X stream -C -S "$slot" -c fast --no-sync >&2 9>&- 8>&-
  start_standby "$dir"
}

# Waits until the standby has replayed everything the primary had flushed when asked; false
# after 30 s (a standby that lost its place in the primary's WAL never gets there).
standby_caught_up() {
  local port="$1" target
  target="$(primary_psql -c 'select pg_current_wal_flush_lsn()')"
  for _ in $(seq 1 300); do
    if [ "$(standby_psql "$port" -c "select coalesce(pg_last_wal_replay_lsn() >= '${target}'::pg_lsn, false)" 2>/dev/null)" = "t" ]; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

standby_url() {
  printf 'postgres://postgres@127.0.0.1:%s/%s\n' "$(cat "$1/port")" "$DATABASE"
}

replica_command() {
  local command="$1" dir
  dir="$(replica_dir "$2")"
  case "$command" in
    replica-url)
      standby_running "${dir}/data" || die "the standby in ${dir} is not running"
      standby_url "$dir"
      ;;
    replica-stop)
      if standby_running "${dir}/data"; then as_cluster_owner "${BIN_DIR}/pg_ctl" -D "${dir}/data" -m fast -w stop >/dev/null; fi
      log "stopped the standby in ${dir}"
      ;;
    replica-destroy)
      replica_command replica-stop "$2"
      if cluster_running; then drop_slot "$(slot_name "$2")"; fi
      rm -rf "$dir" "${dir}.lock"
      log "removed ${dir}"
      ;;
    replica)
      # The primary first, under its lock (as `start` takes it); then only this standby's lock,
      # so that several standbys can be made at once.
      main start >/dev/null
      ensure_primary_replicates
      exec 9>&-
      exec 8>"${dir}.lock"
      flock 8
      mkdir -p "$dir"
      if ! standby_usable "${dir}/data"; then
        create_standby "$dir" "$(slot_name "$2")"
      elif ! standby_running "${dir}/data"; then
        start_standby "$dir"
      fi
      if ! standby_caught_up "$(cat "${dir}/port")"; then
        log "the standby does not catch up with the primary: taking a new base backup"
        create_standby "$dir" "$(slot_name "$2")"
        standby_caught_up "$(cat "${dir}/port")" || die "the standby in ${dir} does not catch up (log: ${dir}/server.log)"
      fi
      standby_url "$dir"
      ;;
  esac
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
    replica | replica-url | replica-stop | replica-destroy) replica_command "$command" "${2:-}" ;;
    *) die "unknown command \"${command}\" (start, url, stop, destroy, replica, replica-url, replica-stop, replica-destroy)" ;;
  esac
}

main "$@"
