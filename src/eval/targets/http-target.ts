import { ApiCallError, GroundcheckError, InvalidInputError, TimeoutError, errorMessage } from '../../errors.js';
import type { RagMode } from '../../contract/trace.js';
import type { EvalTarget, HttpTargetSpec, TargetAnswer } from './types.js';

export interface HttpTargetOptions {
  /** Where `${NAME}` in header templates is read from. [env=process.env] */
  env?: Record<string, string | undefined>;
  /** [fetch=globalThis.fetch] */
  fetch?: typeof fetch;
}

/** Longest part of a response body kept in an error. */
const MAX_BODY_IN_ERROR = 500;

/**
 * An HTTP endpoint as an eval target. Each question is one request built from the spec's
 * templates (`{{question}}`, `{{mode}}`; `${NAME}` in headers from the environment); the answer
 * and chunks are read from the JSON response by dot paths. By default the request is
 * `POST {"message": <question>, "mode": "rag"|"norag"}` and the response
 * `{"answer", "chunks": [{"id", "text", "title"?, "updated"?, "score"?}]}`, or `sources` entries
 * with `chunkId` and `text`.
 *
 * Failures: HTTP 408/409/429/5xx, timeouts and dropped connections are retryable `ApiCallError`s
 * (the runner retries them); other statuses are not; a response without the mapped fields is a
 * `GroundcheckError` `invalid_target_response` naming the path.
 *
 * @throws InvalidInputError `missing_env` when a header names an unset variable.
 * @example
 * const target = createHttpTarget(parseTargetField('http://127.0.0.1:3000/api/chat', process.cwd(), '--target') as HttpTargetSpec);
 * const { answer, chunks } = await target.answer('How long is probation?', { mode: 'rag' });
 */
export function createHttpTarget(spec: HttpTargetSpec, options: HttpTargetOptions = {}): EvalTarget {
  const env = options.env ?? process.env;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  // Headers are expanded once, up front, so a missing variable fails before any question runs.
  const headers = Object.fromEntries(Object.entries(spec.headers).map(([name, template]) => [name, expandEnv(template, env, name)]));
  const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  const name = `${spec.method} ${spec.url}`;
  return {
    kind: 'http',
    name,
    // Header templates, not their values: a rotated token keeps the cache.
    identity: { url: spec.url, method: spec.method, headers: spec.headers, body: spec.body, modes: spec.modes, norag: spec.norag, response: spec.response, version: spec.version },
    norag: spec.norag,
    async answer(question, { mode, signal }) {
      const modeValue = spec.modes[mode];
      const url = fillString(spec.url, question, modeValue, encodeURIComponent);
      const body = spec.body === null ? undefined : JSON.stringify(fillTemplate(spec.body, question, modeValue));
      const timeout = AbortSignal.timeout(spec.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let response: Response;
      let text: string;
      try {
        response = await fetchImpl(url, {
          method: spec.method,
          headers: { accept: 'application/json', ...(body !== undefined && !hasContentType ? { 'content-type': 'application/json' } : {}), ...headers },
          ...(body !== undefined ? { body } : {}),
          signal: combined,
        });
        text = await response.text();
      } catch (error) {
        if (timeout.aborted && !signal?.aborted) throw new TimeoutError(`target ${name} did not answer within ${spec.timeoutMs} ms`, { url, cause: error });
        if (signal?.aborted) throw new ApiCallError(`target ${name}: aborted`, { url, isRetryable: false, code: 'aborted', cause: error });
        throw new ApiCallError(`target ${name}: ${connectionMessage(error)}`, { url, isRetryable: true, code: 'connection_failed', cause: error });
      }
      if (!response.ok) {
        throw new ApiCallError(`target ${name} answered HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, {
          statusCode: response.status,
          url,
          responseBody: text.slice(0, MAX_BODY_IN_ERROR),
          cause: response,
        });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw responseError(name, mode, `is not JSON (content-type ${response.headers.get('content-type') ?? 'none'}): ${text.slice(0, 200)}`);
      }
      return readAnswer(json, spec, name, mode);
    },
  };
}

/**
 * The plain answer in a response, by the spec's paths; unmapped defaults fall back to `sources`
 * entries with `chunkId`. Field types are left to the runner's validation, which names them.
 */
export function readAnswer(json: unknown, spec: Pick<HttpTargetSpec, 'response'>, name: string, mode: RagMode): TargetAnswer {
  const mapping = spec.response;
  const answer = readPath(json, mapping.answer);
  if (typeof answer !== 'string') throw responseError(name, mode, `has no string at "${mapping.answer}" (${preview(json)})`);
  let list: unknown;
  let listPath: string;
  if (mapping.chunks !== null) {
    listPath = mapping.chunks;
    list = readPath(json, listPath);
  } else {
    listPath = readPath(json, 'chunks') !== undefined ? 'chunks' : 'sources';
    list = readPath(json, listPath);
  }
  if (list === undefined || list === null) list = [];
  if (!Array.isArray(list)) throw responseError(name, mode, `has no list at "${listPath}" (${preview(json)})`);
  const entryOf = (entry: unknown) => {
    const id = mapping.id !== null ? readPath(entry, mapping.id) : (readPath(entry, 'id') ?? readPath(entry, 'chunkId'));
    return dropUndefined({
      id,
      text: readPath(entry, mapping.text),
      title: readPath(entry, mapping.title),
      updated: readPath(entry, mapping.updated),
      score: readPath(entry, mapping.score),
    });
  };
  const chunks = list.map(entryOf);
  // A gate refusal's withheld chunks, when the app returns them.
  const withheldList = readPath(json, mapping.withheldChunks);
  if (withheldList !== undefined && withheldList !== null && !Array.isArray(withheldList)) throw responseError(name, mode, `has something other than a list at "${mapping.withheldChunks}" (${preview(json)})`);
  const withheld = Array.isArray(withheldList) && withheldList.length > 0 ? { withheldChunks: withheldList.map(entryOf) as TargetAnswer['chunks'] } : {};
  const model = readPath(json, mapping.model);
  return { answer, chunks: chunks as TargetAnswer['chunks'], ...withheld, ...(typeof model === 'string' && model !== '' ? { model } : {}) };
}

/** A value by dot path (`data.items.0.text`); `''` is the value itself; `undefined` when absent. */
export function readPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current) ? current[Number(key)] : (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Fill a JSON template: a string that is exactly a placeholder becomes the value itself (any JSON type). */
export function fillTemplate(template: unknown, question: string, modeValue: unknown): unknown {
  if (typeof template === 'string') {
    if (/^\{\{\s*question\s*\}\}$/.test(template)) return question;
    if (/^\{\{\s*mode\s*\}\}$/.test(template)) return modeValue;
    return fillString(template, question, modeValue, (text) => text);
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, question, modeValue));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, item]) => [key, fillTemplate(item, question, modeValue)]));
  }
  return template;
}

function fillString(template: string, question: string, modeValue: unknown, encode: (text: string) => string): string {
  return template.replace(/\{\{\s*(question|mode)\s*\}\}/g, (_, name: string) => encode(name === 'question' ? question : typeof modeValue === 'string' ? modeValue : JSON.stringify(modeValue)));
}

function expandEnv(template: string, env: Record<string, string | undefined>, header: string): string {
  return template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, variable: string) => {
    const value = env[variable];
    if (value === undefined || value === '') {
      throw new InvalidInputError(`target header ${header} uses \${${variable}}, which is not set in the environment`, { code: 'missing_env' });
    }
    return value;
  });
}

function responseError(name: string, mode: RagMode, problem: string): GroundcheckError {
  return new GroundcheckError('invalid_target_response', `target ${name} (mode ${mode}): the response ${problem}; map it with the suite's target.response paths (README, "Eval targets")`);
}

function connectionMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code} ${cause.message ?? ''}`.trim();
  return cause?.message ? `${errorMessage(error)}: ${cause.message}` : errorMessage(error);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `got ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
}

function dropUndefined(entry: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
}
