import { analyze } from './heuristic-analysis.js';
import { hasStem } from './heuristic-tokens.js';
import type { EvidenceUnit } from './heuristic-units.js';

/**
 * Identifiers a claim can get wrong: e-mail addresses, phone numbers and the keyed placeholders
 * redaction leaves in their place (`[email:3fa2c1d9]`). Like a figure, an identifier is compared
 * with the one the evidence gives for the same thing: another address where the passage gives one
 * is a contradiction, not merely an unsupported word.
 */
export interface Identifier {
  kind: string;
  /** Normalized: lower case; digits only for phone numbers. */
  value: string;
  written: string;
}

const IDENTIFIER =
  /\[(email|phone|card|ni|number):([0-9a-f]{8})\]|([\p{L}\p{N}._%+-]+@(?:[\p{L}\p{N}-]+\.)+[\p{L}\p{N}-]*\p{L})|((?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{2,6}(?:[ .-]\d{1,6}){1,5})/gu;

/** The identifiers of a text, in order. Digit groups count as a phone number only with 9 digits or more. */
export function identifiersOf(text: string): Identifier[] {
  const found: Identifier[] = [];
  for (const match of text.matchAll(IDENTIFIER)) {
    if (match[1]) found.push({ kind: match[1], value: match[2]!, written: match[0] });
    else if (match[3]) found.push({ kind: 'email', value: match[3].toLowerCase(), written: match[3] });
    else if (match[4] && match[4].replace(/\D/g, '').length >= 9 && !/^\d{4}-\d{2}-\d{2}$/.test(match[4].trim())) {
      found.push({ kind: 'phone', value: match[4].replace(/\D/g, ''), written: match[4].trim() });
    }
  }
  return found;
}

/** A claim's identifiers must cover this share of its other words in a unit before they are compared with the unit's. */
const SUBJECT_SHARE = 0.5;

/**
 * The contradiction, when a unit that is about what the claim says (half of the claim's other words)
 * gives an identifier of the same kind that the claim gets wrong; `null` otherwise.
 *
 * @example
 * identifierConflict('Email privacy@harbourline.com', units) // { unit, note: 'gives privacy@harbourline.co.uk, not privacy@harbourline.com' }
 */
export function identifierConflict(text: string, units: readonly EvidenceUnit[]): { unit: EvidenceUnit; note: string } | null {
  const claimed = identifiersOf(text);
  if (claimed.length === 0) return null;
  let rest = text;
  for (const identifier of claimed) rest = rest.replace(identifier.written, ' ');
  const stems = analyze(rest).stems;
  for (const unit of units) {
    const given = identifiersOf(unit.text);
    if (given.length === 0) continue;
    const covered = stems.length === 0 ? 1 : stems.filter((stem) => hasStem(unit.own, stem) || hasStem(unit.heading, stem)).length / stems.length;
    if (covered < SUBJECT_SHARE) continue;
    for (const identifier of claimed) {
      const sameKind = given.filter((other) => other.kind === identifier.kind);
      if (sameKind.length > 0 && !sameKind.some((other) => other.value === identifier.value)) {
        return { unit, note: `gives ${sameKind[0]!.written}, not ${identifier.written}` };
      }
    }
  }
  return null;
}
