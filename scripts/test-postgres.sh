#!/usr/bin/env bash
# Run the tests against a real, throwaway Postgres: start a cluster in a temp folder, export
# GROUNDCHECK_TEST_POSTGRES_URL, run vitest (with the arguments given, e.g. a test file), then stop
# the cluster and delete its folder.
#
#   scripts/test-postgres.sh                                        # the whole suite
#   scripts/test-postgres.sh src/capture/postgres-store/            # only the Postgres store's tests
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/postgres-cluster.sh
trap postgres_cluster_stop EXIT
postgres_cluster_start || exit 1
npx vitest run "$@"
