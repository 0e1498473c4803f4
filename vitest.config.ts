import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'demo-app/**/*.test.ts', 'test/**/*.test.ts', 'evals/**/*.test.ts'],
    setupFiles: ['./test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Tests must never pick up a developer's real key or endpoint.
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', GROUNDCHECK_PROVIDER: '', GROUNDCHECK_EMBED_PROVIDER: '' },
  },
});
