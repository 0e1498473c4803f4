# A throwaway Postgres cluster for the tests, sourced by .ci/run and scripts/test-postgres.sh.
#
#   source scripts/postgres-cluster.sh
#   postgres_cluster_start   # exports GROUNDCHECK_TEST_POSTGRES_URL, or says why not and returns 1
#   ...
#   postgres_cluster_stop    # stops the server and deletes its folder (also safe to call twice)
#
# The cluster lives in a temp folder: data, log and unix socket. It listens on a free loopback
# port, trusts local connections (nothing else can reach it) and runs as a non-root user, since
# initdb refuses root: the `postgres` system user when we are root, else the caller.

postgres_cluster_dir=""
postgres_cluster_user=""

postgres_bin_dir() {
  local found
  for found in /usr/lib/postgresql/*/bin; do
    [ -x "$found/initdb" ] && [ -x "$found/pg_ctl" ] && { echo "$found"; return 0; }
  done
  found=$(command -v initdb 2>/dev/null) && [ -n "$found" ] && { dirname "$found"; return 0; }
  return 1
}

# Run a command as the cluster's user (root cannot run initdb or postgres).
postgres_as_user() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$postgres_cluster_user" -- "$@"
  else
    "$@"
  fi
}

postgres_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

postgres_cluster_start() {
  local bin port
  bin=$(postgres_bin_dir) || { echo "postgres server binaries (initdb, pg_ctl) not found"; return 1; }
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "running as root and there is no 'postgres' user to run the cluster as"; return 1; }
    postgres_cluster_user=postgres
  else
    postgres_cluster_user=$(id -un)
  fi
  postgres_cluster_dir=$(mktemp -d "${TMPDIR:-/tmp}/groundcheck-pg.XXXXXX") || return 1
  chmod 0755 "$postgres_cluster_dir"
  [ "$(id -u)" -eq 0 ] && chown "$postgres_cluster_user" "$postgres_cluster_dir"
  port=$(postgres_free_port) || return 1
  postgres_as_user "$bin/initdb" -D "$postgres_cluster_dir/data" -U groundcheck --auth=trust --no-sync -E UTF8 --locale=C >"$postgres_cluster_dir/initdb.log" 2>&1 \
    || { echo "initdb failed:"; cat "$postgres_cluster_dir/initdb.log"; return 1; }
  # fsync off: a throwaway cluster needs no durability, and the tests create and drop many databases.
  postgres_as_user "$bin/pg_ctl" -D "$postgres_cluster_dir/data" -l "$postgres_cluster_dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $postgres_cluster_dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null \
    || { echo "pg_ctl start failed:"; cat "$postgres_cluster_dir/server.log"; return 1; }
  export GROUNDCHECK_TEST_POSTGRES_URL="postgres://groundcheck@127.0.0.1:$port/postgres"
  echo "postgres $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $postgres_cluster_dir): GROUNDCHECK_TEST_POSTGRES_URL=$GROUNDCHECK_TEST_POSTGRES_URL"
}

postgres_cluster_stop() {
  [ -n "$postgres_cluster_dir" ] || return 0
  local bin
  if bin=$(postgres_bin_dir) && [ -d "$postgres_cluster_dir/data" ]; then
    postgres_as_user "$bin/pg_ctl" -D "$postgres_cluster_dir/data" -m immediate -w stop >/dev/null 2>&1
  fi
  rm -rf "$postgres_cluster_dir"
  postgres_cluster_dir=""
}
