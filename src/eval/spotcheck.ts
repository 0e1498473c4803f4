import { readFileSync } from 'node:fs';
import { InvalidInputError } from '../errors.js';
import { STOPWORDS } from '../text/text.js';
import { RESULTS_FORMAT_VERSION, type EvalResults } from './types.js';

/**
 * Spot-check: list claims a judge called `contradicted` although an identifier, number or name in
 * the claim appears verbatim in the evidence the claim was judged against. Such claims are often
 * judge mistakes (a lexical judge tripping on word order, an LLM judge misreading a table); a
 * person should read them before trusting the hallucination rate.
 */

export type TokenKind = 'number' | 'identifier' | 'name';

export interface SpotToken {
  text: string;
  kind: TokenKind;
}

export interface SpotCheckItem {
  /** Runs in which this claim was judged `contradicted` (an identical claim in several runs is listed once). */
  runs: number[];
  questionId: string;
  category: string;
  side: 'rag' | 'norag';
  claim: string;
  note: string;
  /** Tokens of the claim found verbatim in the evidence, with the passage each was found in. */
  matches: { token: SpotToken; passageId: string }[];
  /** The passage the judge cited for the contradiction, if any. */
  citedPassageId: string | null;
}

const NUMBER = /(?<![\p{L}\p{N}])[£$€]?\d+(?:[.,:]\d+)*(?:%|p\b|k\b)?/gu;
const IDENTIFIER = /\b(?:[A-Za-z]+[-_]?\d[\w-]*|\d+[A-Za-z][\w-]*|[A-Z]{2,}[A-Za-z0-9]*|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+[A-Z][A-Za-z0-9]*)\b/g;
const CAPITALIZED = /\b[A-Z][a-z]{2,}\b/g;

/**
 * The identifiers (`P45`, `HMRC`, `MyHarbour`), numbers (`£22.50`, `09:30`, `25`) and names
 * (capitalized words that do not start a sentence) in a claim.
 *
 * @example
 * claimTokens('Phone James Okafor by 09:30 on ext. 2100.')
 * // [{ text: '09:30', kind: 'number' }, { text: '2100', kind: 'number' }, { text: 'James', kind: 'name' }, { text: 'Okafor', kind: 'name' }]
 */
export function claimTokens(claim: string): SpotToken[] {
  const tokens = new Map<string, SpotToken>();
  for (const match of claim.matchAll(NUMBER)) {
    const text = match[0].replace(/[.,:]$/, '');
    if (/\d/.test(text)) tokens.set(text, { text, kind: 'number' });
  }
  for (const match of claim.matchAll(IDENTIFIER)) {
    const text = match[0];
    if (!tokens.has(text) && !/^\d+$/.test(text) && !/^[£$€]?\d+(?:[.,:]\d+)*(?:%|p|k)?$/.test(text)) tokens.set(text, { text, kind: 'identifier' });
  }
  for (const match of claim.matchAll(CAPITALIZED)) {
    const text = match[0];
    const before = claim.slice(0, match.index).trimEnd();
    const startsSentence = before === '' || /[.!?:;"(]$/.test(before);
    if (startsSentence || STOPWORDS.has(text.toLowerCase()) || tokens.has(text)) continue;
    tokens.set(text, { text, kind: 'name' });
  }
  return [...tokens.values()];
}

/** Whether `token` occurs in `text` as a whole token (not inside a longer number or word). */
export function containsVerbatim(text: string, token: string): boolean {
  for (let index = text.indexOf(token); index !== -1; index = text.indexOf(token, index + 1)) {
    const before = text[index - 1];
    const after = text[index + token.length];
    const edge = (char: string | undefined) => char === undefined || !/[\p{L}\p{N}]/u.test(char);
    // "£2" must not match inside "£25", nor "25" inside "1.25".
    const cleanBefore = edge(before) && !(before === '.' && /\d/.test(text[index - 2] ?? ''));
    const cleanAfter = edge(after) && !((after === '.' || after === ',' || after === ':') && /\d/.test(text[index + token.length + 1] ?? ''));
    if (cleanBefore && cleanAfter) return true;
  }
  return false;
}

/**
 * Every contradicted claim (all runs, both sides) with a token found verbatim in the evidence it
 * was judged against, most matches first.
 */
export function spotCheck(results: EvalResults): SpotCheckItem[] {
  const items = new Map<string, SpotCheckItem>();
  for (const run of results.runs) {
    for (const question of run.questions) {
      for (const side of ['rag', 'norag'] as const) {
        const result = question[side];
        if (!result || result.judgment.status !== 'ok') continue;
        const passages = question.evidence.filter((passage) => result.judgedAgainst.includes(passage.id));
        for (const claim of result.judgment.claims) {
          if (claim.verdict !== 'contradicted') continue;
          const matches: SpotCheckItem['matches'] = [];
          for (const token of claimTokens(claim.text)) {
            const passage = passages.find((entry) => containsVerbatim(entry.text, token.text));
            if (passage) matches.push({ token, passageId: passage.id });
          }
          if (matches.length === 0) continue;
          const key = JSON.stringify([question.id, side, claim.text, claim.note]);
          const seen = items.get(key);
          if (seen) seen.runs.push(run.run);
          else items.set(key, { runs: [run.run], questionId: question.id, category: question.category, side, claim: claim.text, note: claim.note, matches, citedPassageId: claim.evidenceChunkId });
        }
      }
    }
  }
  return [...items.values()].sort((a, b) => b.matches.length - a.matches.length || a.questionId.localeCompare(b.questionId));
}

/**
 * Read a results JSON file written by `groundcheck eval`.
 *
 * @throws InvalidInputError when the file is missing, not JSON, or not eval results.
 */
export function readResults(path: string): EvalResults {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InvalidInputError(`cannot read eval results ${path}: ${(error as Error).message}`, { code: 'invalid_results' });
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { runs?: unknown }).runs) || format === undefined) {
    throw new InvalidInputError(`${path} is not a groundcheck eval results file (the .json written next to the .html report)`, { code: 'invalid_results' });
  }
  if (format !== RESULTS_FORMAT_VERSION) {
    throw new InvalidInputError(`${path} has results format ${String(format)}; this groundcheck reads format ${RESULTS_FORMAT_VERSION}`, { code: 'invalid_results' });
  }
  return raw as EvalResults;
}

/** Human-readable spot-check list. */
export function formatSpotCheck(items: SpotCheckItem[], results: EvalResults): string {
  const contradicted = results.runs.reduce(
    (sum, run) =>
      sum +
      run.questions.reduce((count, question) => {
        for (const side of ['rag', 'norag'] as const) {
          const judgment = question[side]?.judgment;
          if (judgment?.status === 'ok') count += judgment.counts.contradicted;
        }
        return count;
      }, 0),
    0,
  );
  const over = results.runs.length > 1 ? ` over ${results.runs.length} runs` : '';
  const judge = `${results.versions.faithfulnessJudge.model}, ${results.versions.faithfulnessJudge.promptVersion}`;
  const lines = [`${items.length} contradicted claim(s) share an identifier, number or name verbatim with their evidence (of ${contradicted} contradicted verdicts${over}; judge ${judge}).`];
  if (items.length > 0) lines.push('Review each: if the evidence says what the claim says, the judge was wrong.', '');
  for (const item of items) {
    lines.push(`${item.questionId} [${item.category}] ${item.side === 'rag' ? 'RAG on' : 'RAG off'}${results.runs.length > 1 ? `, run${item.runs.length > 1 ? 's' : ''} ${item.runs.join(', ')}` : ''}`);
    lines.push(`  claim: ${item.claim}`);
    if (item.note) lines.push(`  judge: ${item.note}${item.citedPassageId ? ` (cites ${item.citedPassageId})` : ''}`);
    lines.push(`  verbatim in evidence: ${item.matches.map((match) => `${match.token.text} (${match.token.kind}, ${match.passageId})`).join(', ')}`);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}
