export type JsonExtraction = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * Find the first complete JSON object in a model reply that may wrap it in prose or code fences.
 * Scans by brace depth, aware of strings and escapes, so braces inside string values do not
 * confuse it; tries each top-level candidate until one parses. A truncated object is an error,
 * never a partial value.
 *
 * @example
 * extractJsonObject('Sure! ```json\n{"a": 1}\n``` Hope that helps.') // { ok: true, value: { a: 1 } }
 */
export function extractJsonObject(reply: string): JsonExtraction {
  const text = reply.trim();
  if (text === '') return { ok: false, error: 'empty reply' };
  try {
    const direct = JSON.parse(text) as unknown;
    if (isPlainObject(direct)) return { ok: true, value: direct };
  } catch {
    // fall through to scanning
  }
  let sawOpen = false;
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    sawOpen = true;
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    try {
      const value = JSON.parse(text.slice(start, end + 1)) as unknown;
      if (isPlainObject(value)) return { ok: true, value };
    } catch {
      // not JSON (prose with braces); try the next opening brace
    }
  }
  return { ok: false, error: sawOpen ? 'no complete JSON object (truncated or malformed)' : 'no JSON object in reply' };
}

/** Index of the `}` closing the `{` at `start`, or -1 when the text ends first. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
