#!/usr/bin/env bash
# Real PostgreSQL 15 + pgvector for CI and local integration tests.
#
# Usage:
#   bash scripts/ci/postgres.sh install   # build+install pgvector for PG 15 (no-op if present)
#   bash scripts/ci/postgres.sh start     # (install if needed) start a throwaway cluster;
#                                         # the LAST (and only) stdout line is the connection URL
#   bash scripts/ci/postgres.sh stop      # stop the cluster and delete its directory
#   bash scripts/ci/postgres.sh status    # exit 0 if the server answers, non-zero otherwise
#   bash scripts/ci/postgres.sh url       # print the connection URL
#
#   DATABASE_URL="$(bash scripts/ci/postgres.sh start | tail -n1)"
#
# Environment:
#   PGDATA_DIR  cluster directory          (default /tmp/ias-pg)
#   PGPORT_CI   TCP port on 127.0.0.1      (default 55432)
#   PG_CONFIG   pg_config of the server    (default /usr/lib/postgresql/15/bin/pg_config)
#   PG_SHARED_BUFFERS  shared_buffers of a new cluster (default 2GB)
#
# All progress messages go to stderr; stdout carries only the URL (start/url).
# The machine's apt sources are never modified: trixie's pgvector source package is fetched
# with a private sources list, lists directory and cache in a temp dir.
set -euo pipefail

PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
PGBIN="$("$PG_CONFIG" --bindir)"
PGDATA_DIR="${PGDATA_DIR:-/tmp/ias-pg}"
PGPORT_CI="${PGPORT_CI:-55432}"
SOCKET_DIR=/tmp
PG_USER=postgres
MAX_CONNECTIONS="${PG_MAX_CONNECTIONS:-200}"
SHARED_BUFFERS="${PG_SHARED_BUFFERS:-2GB}"
BUILD_DIR=
URL="postgres://${PG_USER}@127.0.0.1:${PGPORT_CI}/postgres"

log() { printf '[postgres.sh] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Run a command as the postgres system user when we are root (CI runs as root); otherwise as
# ourselves. cd / first so the postgres user never trips over an unreadable working directory.
as_pg() {
  if is_root; then
    (cd / && runuser -u "$PG_USER" -- "$@")
  else
    "$@"
  fi
}

psql_ci() {
  PGOPTIONS='-c client_min_messages=warning' "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PGPORT_CI" -U "$PG_USER" "$@"
}

vector_installed() {
  [ -f "$("$PG_CONFIG" --sharedir)/extension/vector.control" ] &&
    [ -f "$("$PG_CONFIG" --pkglibdir)/vector.so" ]
}

APT_OPTS=(-y -qq -o DPkg::Lock::Timeout=300 -o Dpkg::Use-Pty=0)

# Quiet apt/dpkg output: kept in a log, shown only if the install fails.
apt_install() {
  local aptlog
  aptlog="$(mktemp /tmp/postgres-sh-apt.XXXXXX.log)"
  if ! DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install --no-install-recommends "$@" \
    >"$aptlog" 2>&1; then
    tail -n 40 "$aptlog" >&2
    die "apt-get install $* failed (full log: $aptlog)"
  fi
  rm -f "$aptlog"
}

cmd_install() {
  if vector_installed; then
    log "pgvector already installed for $("$PG_CONFIG" --version) — nothing to do"
    return 0
  fi
  is_root || die "pgvector is missing and installing it needs root (apt-get, make install)"
  local t0 t
  t0=$(now)

  t=$(now)
  log "apt-get update"
  apt-get -qq -o DPkg::Lock::Timeout=300 update >&2
  log "apt-get update: $(elapsed "$t") s"

  t=$(now)
  local pkgs=(postgresql-server-dev-15)
  command -v make >/dev/null || pkgs+=(make)
  command -v gcc >/dev/null || pkgs+=(gcc)
  command -v dpkg-source >/dev/null || pkgs+=(dpkg-dev)
  command -v xz >/dev/null || pkgs+=(xz-utils)
  log "apt-get install ${pkgs[*]}"
  apt_install "${pkgs[@]}"
  log "apt-get install: $(elapsed "$t") s"

  # Private apt configuration: only a deb-src line for trixie, same mirror and keyring as the
  # machine's own sources. Nothing under /etc/apt or /var/lib/apt is touched.
  local work uri keyring
  work="$(mktemp -d /tmp/pgvector-build.XXXXXX)"
  BUILD_DIR="$work"
  trap 'rm -rf "$BUILD_DIR"' EXIT
  chmod 755 "$work" # apt downloads as the _apt user
  uri="$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
  uri="${uri:-http://deb.debian.org/debian}"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -f /usr/share/keyrings/debian-archive-trixie-stable.gpg ] &&
    keyring=/usr/share/keyrings/debian-archive-trixie-stable.gpg
  [ -f "$keyring" ] || die "no Debian archive keyring found in /usr/share/keyrings"
  mkdir -p "$work/etc/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
  # apt-get source downloads into the current directory as the _apt user.
  id _apt >/dev/null 2>&1 && chown _apt:root "$work/src"
  printf 'deb-src [signed-by=%s] %s trixie main\n' "$keyring" "$uri" >"$work/etc/sources.list"
  local apt_private=(
    -o "Dir::Etc::SourceList=$work/etc/sources.list"
    -o "Dir::Etc::SourceParts=$work/etc/sources.list.d"
    -o "Dir::State::Lists=$work/lists"
    -o "Dir::Cache=$work/cache"
    -o "Dir::Cache::pkgcache="
    -o "Dir::Cache::srcpkgcache="
    -o "APT::Sandbox::User=_apt"
  )

  t=$(now)
  log "apt-get update (private trixie deb-src list)"
  apt-get -qq "${apt_private[@]}" update >&2
  log "fetching pgvector source (trixie)"
  (cd "$work/src" && apt-get -qq "${apt_private[@]}" source pgvector >&2)
  local srcdir
  srcdir="$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)"
  [ -n "$srcdir" ] || die "apt-get source pgvector produced no source directory"
  local ver
  ver="$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$srcdir/vector.control" 2>/dev/null || true)"
  case "$ver" in
    0.8.*) ;;
    *) log "WARNING: expected pgvector 0.8.x, got '${ver:-unknown}' — building it anyway" ;;
  esac
  log "fetch source: $(elapsed "$t") s (pgvector $ver)"

  # OPTFLAGS="" drops upstream's default -march=native, so the .so does not depend on this
  # exact CPU (the machine may come back on other hardware). with_llvm=no skips the JIT bitcode
  # (clang), which halves the build and is not needed by the tests.
  t=$(now)
  log "building pgvector $ver"
  make -C "$srcdir" -s -j"$(nproc)" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" with_llvm=no >&2
  make -C "$srcdir" -s install PG_CONFIG="$PG_CONFIG" OPTFLAGS="" with_llvm=no >&2
  log "build + install: $(elapsed "$t") s"

  vector_installed || die "pgvector install finished but vector.control/vector.so are missing"
  log "pgvector $ver installed for $("$PG_CONFIG" --version) in $(elapsed "$t0") s total"
}

server_answers() {
  "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PGPORT_CI" -U "$PG_USER" -t 2 >/dev/null 2>&1
}

verify_vector() {
  local db=ci_vector_check
  psql_ci -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null
  psql_ci -d postgres -c "CREATE DATABASE $db" >/dev/null
  local dist
  dist="$(psql_ci -d "$db" -At -c "CREATE EXTENSION vector; SELECT '[1,2,3]'::vector <-> '[1,2,4]'::vector")"
  psql_ci -d postgres -c "DROP DATABASE $db" >/dev/null
  [ "$dist" = "1" ] || die "pgvector check returned '$dist', expected 1"
  log "CREATE EXTENSION vector OK ($(psql_ci -d postgres -At -c "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"))"
}

cmd_start() {
  local t0
  t0=$(now)
  cmd_install

  # Serialise concurrent starts on the same port. fd 9 is closed for pg_ctl (9>&-) so that
  # the long-lived postmaster does not inherit, and keep holding, the lock.
  exec 9>"/tmp/.ias-pg-${PGPORT_CI}.lock"
  flock -w 120 9 || die "timed out waiting for another postgres.sh start on port $PGPORT_CI"

  if server_answers; then
    log "a server already answers on 127.0.0.1:$PGPORT_CI — reusing it"
  else
    if [ ! -f "$PGDATA_DIR/PG_VERSION" ]; then
      if [ -e "$PGDATA_DIR" ] && [ -n "$(ls -A "$PGDATA_DIR" 2>/dev/null)" ]; then
        die "$PGDATA_DIR exists, is not empty and is not a PostgreSQL cluster; refusing to touch it"
      fi
      local t
      t=$(now)
      mkdir -p "$PGDATA_DIR"
      is_root && chown "$PG_USER:$PG_USER" "$PGDATA_DIR"
      chmod 700 "$PGDATA_DIR"
      as_pg "$PGBIN/initdb" -D "$PGDATA_DIR" -U "$PG_USER" --auth=trust \
        --encoding=UTF8 --locale=C.UTF-8 --no-instructions >/dev/null
      # Throwaway cluster: favour speed over durability, allow many parallel jest workers. Shared
      # buffers as RDS gives the production stage's m7g.large by default (a quarter of its 8 GiB), so
      # the retrieval bench reads its 100,000 vectors as the deployed database would, not through
      # PostgreSQL's 128 MB default (docs/retrieval.md).
      as_pg tee -a "$PGDATA_DIR/postgresql.conf" >/dev/null <<EOF

# --- scripts/ci/postgres.sh (throwaway CI cluster) ---
max_connections = $MAX_CONNECTIONS
shared_buffers = $SHARED_BUFFERS
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
      log "initdb $PGDATA_DIR: $(elapsed "$t") s"
    fi
    local t
    t=$(now)
    as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -l "$PGDATA_DIR/server.log" -s -w -t 60 \
      -o "-p $PGPORT_CI -c listen_addresses=127.0.0.1 -k $SOCKET_DIR" start >&2 9>&- ||
      { tail -n 30 "$PGDATA_DIR/server.log" >&2 || true; die "pg_ctl start failed"; }
    log "pg_ctl start: $(elapsed "$t") s"
  fi

  server_answers || die "server on 127.0.0.1:$PGPORT_CI does not answer"
  local mc
  mc="$(psql_ci -d postgres -At -c 'SHOW max_connections')"
  [ "$mc" -ge "$MAX_CONNECTIONS" ] ||
    log "WARNING: max_connections is $mc (< $MAX_CONNECTIONS) on the reused server"
  verify_vector
  log "ready in $(elapsed "$t0") s (max_connections=$mc, data dir $PGDATA_DIR)"
  printf '%s\n' "$URL"
}

cmd_stop() {
  if [ -f "$PGDATA_DIR/PG_VERSION" ]; then
    if as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" status >/dev/null 2>&1; then
      as_pg "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -s -m fast -w -t 60 stop >&2
      log "stopped the server in $PGDATA_DIR"
    else
      log "no server running in $PGDATA_DIR"
    fi
    rm -rf "$PGDATA_DIR"
    log "removed $PGDATA_DIR"
  elif [ -d "$PGDATA_DIR" ] && [ -z "$(ls -A "$PGDATA_DIR")" ]; then
    rmdir "$PGDATA_DIR"
    log "removed empty $PGDATA_DIR"
  elif [ -e "$PGDATA_DIR" ]; then
    die "$PGDATA_DIR is not a PostgreSQL cluster; not removing it"
  else
    log "nothing to stop ($PGDATA_DIR does not exist)"
  fi
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) server_answers ;;
  url) printf '%s\n' "$URL" ;;
  *)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
