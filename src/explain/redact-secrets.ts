/**
 * Secrets in source code, masked before anything is indexed or placed in a prompt: API keys with
 * a known shape, bearer and basic credentials, private keys, passwords in connection strings,
 * quoted values assigned to secret-sounding names, and `KEY=value` lines (`.env` style). Every
 * replacement stays on its line, so line numbers in excerpts and stack frames still match the file.
 *
 * Code-specific on purpose: personal data (e-mail addresses, phone numbers) is the capture
 * module's redaction (`src/capture/redact.ts`); this one is about credentials in code.
 */

export const SECRET_MARK = '[redacted]';

/** Known token shapes (OpenAI, Anthropic, Stripe, AWS, GitHub, GitLab, Slack, Google, npm, JWTs). */
const TOKEN_SHAPES = [
  /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}/g,
  /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
/** `Authorization: Bearer …`, `Basic …`, `Token …`. */
const AUTH_SCHEME = /\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/g;
/** `scheme://user:password@host`. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`]+):([^\s@/'"`]+)@/gi;
/** A quoted value assigned to a secret-sounding name: `apiKey: 'abc'`, `const DB_PASSWORD = "x"`. */
const SECRET_ASSIGNMENT =
  /((?:api[_-]?key|apikey|secret|passw(?:or)?d|pwd|token|auth|credential|private[_-]?key|access[_-]?key|client[_-]?secret)[\w$-]*['"`]?\s*(?::|=|:=|=>)\s*)(['"`])((?:(?!\2)[^\\\n]|\\.){3,})\2/gi;
/** `KEY=value` at the start of a line (`.env` files, shell, Dockerfiles, docs): the value is masked. */
const ENV_LINE = /^(\s*(?:export\s+|ENV\s+)?[A-Z][A-Z0-9_]*[A-Z0-9]\s*=(?!=)\s*)(\S.*)$/gm;
const PRIVATE_KEY_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;
const PRIVATE_KEY_END = /-----END [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * Mask secrets in source text, line by line (the line count never changes).
 *
 * @example
 * redactSecrets('const apiKey = "sk-live-abcdefghijklmnop";\nOPENAI_API_KEY=sk-abc')
 * // 'const apiKey = "[redacted]";\nOPENAI_API_KEY=[redacted]'
 */
export function redactSecrets(text: string): string {
  let redacted = maskPrivateKeys(text);
  redacted = redacted.replace(ENV_LINE, (_, key: string, value: string) => (value.startsWith(SECRET_MARK) ? `${key}${value}` : `${key}${SECRET_MARK}`));
  redacted = redacted.replace(SECRET_ASSIGNMENT, (_, lead: string, quote: string) => `${lead}${quote}${SECRET_MARK}${quote}`);
  redacted = redacted.replace(URL_PASSWORD, (_, lead: string) => `${lead}:${SECRET_MARK}@`);
  redacted = redacted.replace(AUTH_SCHEME, (_, scheme: string, gap: string) => `${scheme}${gap}${SECRET_MARK}`);
  for (const shape of TOKEN_SHAPES) redacted = redacted.replace(shape, SECRET_MARK);
  return redacted;
}

function maskPrivateKeys(text: string): string {
  if (!PRIVATE_KEY_BEGIN.test(text)) return text;
  const lines = text.split('\n');
  let inside = false;
  for (const [index, line] of lines.entries()) {
    if (PRIVATE_KEY_BEGIN.test(line)) {
      inside = !PRIVATE_KEY_END.test(line);
      continue;
    }
    if (!inside) continue;
    if (PRIVATE_KEY_END.test(line)) inside = false;
    else lines[index] = SECRET_MARK;
  }
  return lines.join('\n');
}
