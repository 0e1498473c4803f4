/**
 * The redaction placeholder, as a render/parse pair: what the capture redaction writes in place of
 * a masked value (`[email:3fa2c1d9]`, src/capture/redact.ts) and what a judge reading redacted
 * text recognises, so neither keeps its own copy of the format.
 */

/** The kinds of value masked, as they appear in placeholders. */
export const REDACTION_KINDS = ['email', 'ni', 'card', 'phone', 'number'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** Hex digits of a placeholder's token (a keyed HMAC's first bytes). */
export const REDACTION_TOKEN_LENGTH = 8;

/** `[kind:token]`: one masked value. */
export function renderRedactionPlaceholder(kind: RedactionKind, token: string): string {
  return `[${kind}:${token}]`;
}

/** A placeholder (`[phone:3fa2c1d9]`), or a plain mark of the first release (`[phone]`). Global: use with `replace`. */
export const REDACTION_PLACEHOLDER = new RegExp(`\\[(?:${REDACTION_KINDS.join('|')})(?::[0-9a-f]{${REDACTION_TOKEN_LENGTH}})?\\]`, 'g');

const ONE_PLACEHOLDER = new RegExp(REDACTION_PLACEHOLDER.source);

/** Whether the text holds a redaction placeholder (or a plain mark of the first release). */
export function holdsRedactionPlaceholder(text: string): boolean {
  return text.includes('[') && ONE_PLACEHOLDER.test(text);
}

/**
 * The text with every redaction placeholder taken out (a space in its place). A placeholder
 * stands for someone's value, not for what a question is about: read as words, its token
 * ("c2a8283c") was a topic word no passage holds (heuristic-v102).
 *
 * @example
 * withoutRedactionPlaceholders('What is the mileage rate? Call me on [phone:c2a8283c]') // 'What is the mileage rate? Call me on  '
 */
export function withoutRedactionPlaceholders(text: string): string {
  return text.includes('[') ? text.replace(REDACTION_PLACEHOLDER, ' ') : text;
}
