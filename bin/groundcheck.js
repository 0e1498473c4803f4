#!/usr/bin/env node
// In a checkout (src/ present, tsx installed) run the TypeScript sources, so the CLI never lags
// behind the code; in an installed package (only dist/ shipped) run the compiled build.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
const compiled = new URL('../dist/cli/main.js', import.meta.url);

async function load() {
  if (existsSync(source)) {
    try {
      const { register } = await import('tsx/esm/api');
      register();
      return await import(source.href);
    } catch (error) {
      if (!existsSync(compiled)) throw error;
    }
  }
  return import(compiled.href);
}

const cli = await load();
process.exitCode = await cli.main(process.argv.slice(2));
