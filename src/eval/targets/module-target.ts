import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { InvalidInputError } from '../../errors.js';
import type { EvalTarget, ModuleTargetSpec, TargetAnswer, TargetCallOptions } from './types.js';

type AnswerFunction = (question: string, options: TargetCallOptions) => TargetAnswer | Promise<TargetAnswer>;

/**
 * A module as an eval target. It exports `answer(question, { mode, signal })` returning
 * `{ answer, chunks: [{ id, text, title?, updated?, score? }] }` (or a default export that is that
 * function, or an object with it), and optionally `norag = false` when it cannot answer without
 * retrieval, `name` and `version`. A `.ts` module is loaded through tsx when it is installed (a
 * checkout of groundcheck has it); otherwise point at compiled JavaScript.
 *
 * The cache key includes the module file's content, so editing it asks the target again; edits
 * in files it imports do not: bump `version` (the export, or the suite's `target.version`).
 *
 * @throws InvalidInputError `invalid_target` when the module cannot be loaded or exports no `answer` function.
 * @example
 * const target = await loadModuleTarget({ kind: 'module', path: '/app/eval-target.ts', given: './eval-target.ts', norag: null, version: null });
 */
export async function loadModuleTarget(spec: ModuleTargetSpec): Promise<EvalTarget> {
  const loaded = await importModule(spec);
  const fromDefault = loaded.default;
  const answer: unknown =
    typeof loaded.answer === 'function'
      ? loaded.answer
      : typeof fromDefault === 'function'
        ? fromDefault
        : fromDefault !== null && typeof fromDefault === 'object'
          ? (fromDefault as Record<string, unknown>).answer
          : undefined;
  if (typeof answer !== 'function') {
    throw new InvalidInputError(`target ${spec.given} exports no answer() function: export async function answer(question, { mode, signal }) { return { answer, chunks } }`, { code: 'invalid_target' });
  }
  const exported = (key: string): unknown => loaded[key] ?? (fromDefault !== null && typeof fromDefault === 'object' ? (fromDefault as Record<string, unknown>)[key] : undefined);
  const norag = spec.norag ?? (exported('norag') === false ? false : true);
  const version = spec.version ?? (typeof exported('version') === 'string' ? (exported('version') as string) : null);
  const name = typeof exported('name') === 'string' ? `module ${exported('name') as string}` : `module ${spec.given}`;
  const content = createHash('sha256').update(readFileSync(spec.path)).digest('hex');
  const call = answer as AnswerFunction;
  return {
    kind: 'module',
    name,
    identity: { path: spec.path, content, version, norag },
    norag,
    answer: async (question, options) => call(question, options),
  };
}

async function importModule(spec: ModuleTargetSpec): Promise<Record<string, unknown>> {
  const url = pathToFileURL(spec.path).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw loadError(spec, error);
  }
  // Node cannot run TypeScript by itself: load it through tsx (the project's own, if it has it),
  // scoped to this import (tsImport loads under its own URL; the failed load above stays cached).
  const specifier = 'tsx/esm/api';
  let tsx: { tsImport: (specifier: string, parentURL: string) => Promise<unknown> };
  try {
    tsx = (await import(specifier)) as typeof tsx;
  } catch (error) {
    throw new InvalidInputError(`target ${spec.given} is TypeScript and tsx is not installed: npm install --save-dev tsx, or point --target at compiled JavaScript`, { code: 'invalid_target', cause: error });
  }
  try {
    return (await tsx.tsImport(url, import.meta.url)) as Record<string, unknown>;
  } catch (error) {
    throw loadError(spec, error);
  }
}

function loadError(spec: ModuleTargetSpec, error: unknown): InvalidInputError {
  return new InvalidInputError(`target ${spec.given} could not be loaded: ${(error as Error).message ?? String(error)}`, { code: 'invalid_target', cause: error });
}
