import { describeCaptureStoreContract } from '../../test-support/capture-store-contract.js';
import { describeWithPostgres } from '../../test-support/postgres.js';

// The shared contract suite on a real Postgres: a new database for this file, a new schema per
// test (the SQLite store runs the same suite on a file per test).
describeWithPostgres('Postgres capture store', (postgres) => {
  describeCaptureStoreContract('Postgres', () => postgres.newStore());
});
