#!/usr/bin/env node
// In a checkout (src/ present, tsx installed) run the TypeScript sources, so the CLI never lags
// behind the code; in an installed package (only dist/ shipped) run the compiled build.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);

async function load() {
  if (existsSync(source)) {
    let tsx;
    try {
      tsx = await import('tsx/esm/api');
    } catch (error) {
      // A checkout without dev dependencies: the build is all there is.
      if (!existsSync(compiled)) throw error;
    }
    // Only a missing tsx falls back to dist/: an error in the sources themselves is reported,
    // not hidden behind an older build.
    if (tsx) {
      tsx.register();
      return import(source.href);
    }
  }
  return import(compiled.href);
}

const cli = await load();
process.exitCode = await cli.main(process.argv.slice(2));
