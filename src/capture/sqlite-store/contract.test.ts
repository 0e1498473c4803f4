import { join } from 'node:path';
import { describeCaptureStoreContract } from '../../test-support/capture-store-contract.js';
import { tempDir } from '../../test-support/fixtures.js';
import { openCaptureStore } from '../store.js';

// The shared contract suite on a real SQLite file per test (the Postgres store runs the same suite).
describeCaptureStoreContract('SQLite', () => openCaptureStore({ path: join(tempDir(), 'captures.db'), backgroundCheckpoints: false }), {
  reopen: async (store) => {
    await store.close();
    return openCaptureStore({ path: store.location, backgroundCheckpoints: false });
  },
});
