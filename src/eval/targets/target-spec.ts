import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { InvalidInputError } from '../../errors.js';
import type { HttpTargetSpec, ModuleTargetSpec, ResponseMapping, TargetSpec } from './types.js';

/**
 * What a suite's `target` field and `--target` mean. A suite names its target as a string
 * (`"groundcheck"`, an `http://` URL, a module path) or as an object: `{ "url": … }` with the
 * request and response mapping of an HTTP target, or `{ "module": … }`.
 */

export const DEFAULT_RESPONSE_MAPPING: ResponseMapping = {
  answer: 'answer',
  chunks: null,
  withheldChunks: 'withheldChunks',
  id: null,
  text: 'text',
  title: 'title',
  updated: 'updated',
  score: 'score',
  model: 'model',
};

export const DEFAULT_HTTP_BODY = { message: '{{question}}', mode: '{{mode}}' };
export const DEFAULT_TIMEOUT_MS = 60_000;
const PLACEHOLDERS = ['question', 'mode'];
const MODULE_EXTENSIONS = /\.(?:[cm]?[jt]s)$/;

const path = z.string().regex(/^[^.\s][^\s]*$|^$/, 'use a dot path such as "data.reply" or "choices.0.text"');

const httpObject = z
  .object({
    url: z.string().regex(/^https?:\/\//i, 'must start with http:// or https://'),
    method: z.enum(['GET', 'POST', 'PUT']).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.unknown().optional(),
    modes: z.object({ rag: z.unknown(), norag: z.unknown() }).strict().optional(),
    norag: z.boolean().optional(),
    response: z
      .object({ answer: path, chunks: path, withheldChunks: path, id: path, text: path, title: path, updated: path, score: path, model: path })
      .partial()
      .strict()
      .optional(),
    timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
    version: z.string().min(1).optional(),
  })
  .strict();

const moduleObject = z
  .object({
    module: z.string().min(1),
    norag: z.boolean().optional(),
    version: z.string().min(1).optional(),
  })
  .strict();

const groundcheckObject = z.object({ kind: z.literal('groundcheck') }).strict();

export const targetFieldSchema = z.union([z.string().min(1), groundcheckObject, httpObject, moduleObject], {
  error: 'must be "groundcheck", an http(s) URL, a module path, { "url": … } or { "module": … }',
});

/**
 * Read a suite's `target` field (paths relative to `base`, the suite file's folder).
 *
 * @throws InvalidInputError `invalid_suite` naming `where` and the problem.
 */
export function parseTargetField(value: unknown, base: string, where: string): TargetSpec {
  const parsed = targetFieldSchema.safeParse(value);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${where}${issue.path.length > 0 ? `.${issue.path.join('.')}` : ''}: ${issue.message.replace(/^Invalid input: /, '')}`);
    throw new InvalidInputError(lines.join('\n'), { code: 'invalid_suite' });
  }
  const field = parsed.data;
  if (typeof field === 'string') return targetFromString(field, base, where);
  if ('kind' in field) return { kind: 'groundcheck' };
  if ('url' in field) return httpSpec(field, where);
  return moduleSpec(field.module, base, where, field.norag ?? null, field.version ?? null);
}

/**
 * The target `--target` names, on top of the suite's: a URL replaces the URL of the suite's HTTP
 * target and keeps its mapping (or makes a default HTTP target); a module path and `groundcheck`
 * replace the suite's target.
 *
 * @throws InvalidInputError `usage` for a value that is none of these.
 */
export function overrideTarget(flag: string, suiteTarget: TargetSpec, cwd: string): TargetSpec {
  const fromFlag = targetFromString(flag, cwd, '--target', 'usage');
  if (fromFlag.kind === 'http' && suiteTarget.kind === 'http') return { ...suiteTarget, url: fromFlag.url };
  return fromFlag;
}

/** A short description of a target spec, for messages and reports. */
export function describeTargetSpec(spec: TargetSpec): string {
  if (spec.kind === 'groundcheck') return 'groundcheck';
  if (spec.kind === 'http') return `${spec.method} ${spec.url}`;
  return `module ${spec.given}`;
}

function targetFromString(value: string, base: string, where: string, code = 'invalid_suite'): TargetSpec {
  if (value === 'groundcheck') return { kind: 'groundcheck' };
  if (/^https?:\/\//i.test(value)) return httpSpec({ url: value }, where);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new InvalidInputError(`${where}: ${value}: only http:// and https:// URLs can be targets`, { code });
  }
  return moduleSpec(value, base, where, null, null, code);
}

function httpSpec(field: z.infer<typeof httpObject>, where: string): HttpTargetSpec {
  try {
    new URL(field.url);
  } catch {
    throw new InvalidInputError(`${where}: ${field.url} is not a valid URL`, { code: 'invalid_suite' });
  }
  const method = field.method ?? 'POST';
  const body = method === 'GET' ? null : field.body === undefined ? DEFAULT_HTTP_BODY : field.body;
  for (const template of [field.url, body, ...Object.values(field.headers ?? {})]) checkPlaceholders(template, where);
  return {
    kind: 'http',
    url: field.url,
    method,
    headers: field.headers ?? {},
    body,
    modes: field.modes ?? { rag: 'rag', norag: 'norag' },
    norag: field.norag ?? true,
    response: { ...DEFAULT_RESPONSE_MAPPING, ...field.response },
    timeoutMs: field.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    version: field.version ?? null,
  };
}

function moduleSpec(given: string, base: string, where: string, norag: boolean | null, version: string | null, code = 'invalid_suite'): ModuleTargetSpec {
  const file = isAbsolute(given) ? given : resolve(base, given);
  if (!MODULE_EXTENSIONS.test(file)) {
    throw new InvalidInputError(`${where}: ${given} is neither "groundcheck", an http(s) URL nor a .js, .mjs, .ts or .mts module`, { code });
  }
  if (!existsSync(file) || statSync(file).isDirectory()) throw new InvalidInputError(`${where}: module ${given} not found`, { code });
  return { kind: 'module', path: file, given, norag, version };
}

/** Only `{{question}}` and `{{mode}}` may appear in a template: a typo would otherwise be sent as is. */
function checkPlaceholders(template: unknown, where: string): void {
  const strings: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(template);
  for (const text of strings) {
    for (const match of text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
      if (!PLACEHOLDERS.includes(match[1]!)) {
        throw new InvalidInputError(`${where}: unknown placeholder {{${match[1]}}} in "${text}": use {{question}} or {{mode}}`, { code: 'invalid_suite' });
      }
    }
  }
}
