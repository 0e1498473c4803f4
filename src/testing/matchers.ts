/**
 * Test matchers for RAG answers, independent of the test runner: each takes what it checks and
 * returns `{ pass, message }` the way `expect.extend` wants it (vitest and Jest both). The vitest
 * entry point `groundcheck/vitest` registers them; from Jest, `expect.extend(groundcheckMatchers)`.
 *
 * What they check is always a trace (a `RagTrace`, or the plain `{ query, chunks, answer }` record
 * an app not built on groundcheck can give), and always against the trace's own chunks.
 */
import { extractCitations } from '../contract/formats.js';
import { flagsOf, outcomeNames, outcomeRow, type JudgmentOutcome } from '../contract/outcome.js';
import { traceFromPlain } from '../contract/plain-trace.js';
import { isRefusal, REFUSAL_SENTENCE } from '../contract/refusal.js';
import type { RagTrace } from '../contract/trace.js';
import { InvalidInputError } from '../errors.js';
import { createHeuristicFaithfulnessJudge, judgeTrace } from '../judge/index.js';
import type { EvidencePassage, FaithfulnessJudge, FaithfulnessJudgment, JudgedClaim } from '../judge/types.js';

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** `this` of a matcher as vitest and Jest call it: only `isNot` is read. */
export interface MatcherContext {
  isNot?: boolean;
}

export interface GroundedOptions {
  /** The judge. [judge=createHeuristicFaithfulnessJudge({ refusalSentence })] */
  judge?: FaithfulnessJudge;
  /** Extra passages the answer may also rely on (a reference answer). */
  references?: EvidencePassage[];
  /** Your app's refusal sentence. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
}

export interface RefuseOptions {
  /** Your app's refusal sentence (common paraphrases are recognised too). [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
}

export interface OutcomeOptions {
  /** The judge. [judge=createHeuristicFaithfulnessJudge({ refusalSentence })] */
  judge?: FaithfulnessJudge;
  /**
   * A correct answer written by a person, as an offline eval gives it: it is not evidence, but
   * an answer that states too little of it is `incomplete`, and it tells the judge which chunk
   * answers. Without one the judge decides as the live judge does.
   */
  reference?: string;
  /** The question asks for someone's personal or confidential data (so refusing is right). */
  personalData?: boolean;
  /** Your app's refusal sentence. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
}

/** The longest part of an answer quoted in a message. */
const QUOTE = 200;

/**
 * Passes when every checkable claim of the answer is verified by the trace's own chunks. A
 * refusal, or an answer with nothing to check, is not grounded (and says so). A judge that fails
 * throws: it is neither a pass nor a failure.
 *
 * @example
 * await expect(trace).toBeGrounded();
 * await expect({ query, chunks, answer }).toBeGrounded({ judge: createLlmFaithfulnessJudge({ chat }) });
 */
export async function toBeGrounded(this: MatcherContext | void, received: unknown, options: GroundedOptions = {}): Promise<MatcherResult> {
  const trace = asTrace(received, 'toBeGrounded');
  const judgment = await judged('toBeGrounded', trace, options, options.references ? { references: options.references } : {});
  const chunkCount = `${trace.chunks.length} chunk${trace.chunks.length === 1 ? '' : 's'}`;
  const claims = judgment.claims;
  const lines = claimLines(claims);
  const context = `\n\nanswer: "${quote(trace.answer)}"\nchunks: ${trace.chunks.map((chunk) => chunk.chunkId).join(', ') || 'none'}`;
  const pass = judgment.faithful === true;
  return {
    pass,
    message: () => {
      if (pass) return `expected the answer not to be grounded, but all ${claims.length} of its claims are verified by its ${chunkCount}:\n${lines.join('\n')}${context}`;
      if (judgment.refused) return `expected a grounded answer, but the answer is a refusal: "${quote(trace.answer)}"${context}`;
      if (judgment.faithful === null) return `expected a grounded answer, but it makes no claim that can be checked against its ${chunkCount}${context}`;
      const flagged = claims.filter((claim) => claim.verdict !== 'verified').length;
      return `expected the answer to be grounded in its ${chunkCount}, but ${flagged} of its ${claims.length} claims ${flagged === 1 ? 'is' : 'are'} not:\n${lines.join('\n')}${context}`;
    },
  };
}

/**
 * Passes when the judgment's outcome (the outcome table's, as on the dashboard and in eval
 * reports) is the one expected, or one of those listed. Unlike {@link toBeGrounded}, a faithful
 * answer that does not answer the question is `off_topic`, and a refusal is `correct_refusal` or
 * `over_refusal` by whether a chunk answers. A judge that fails throws.
 *
 * @example
 * await expect(trace).toHaveOutcome('correct', { reference: 'Birth parents get 20 weeks at full pay.' });
 * await expect(await pipeline.ask('Can I be paid in bitcoin?')).toHaveOutcome('correct_refusal');
 */
export async function toHaveOutcome(this: MatcherContext | void, received: unknown, expected: JudgmentOutcome | readonly JudgmentOutcome[], options: OutcomeOptions = {}): Promise<MatcherResult> {
  const wanted = typeof expected === 'string' ? [expected] : [...(expected ?? [])];
  const known = new Set<string>(outcomeNames());
  if (wanted.length === 0 || wanted.some((outcome) => !known.has(outcome))) {
    throw new InvalidInputError(`toHaveOutcome(outcome): give one of ${[...known].join(', ')}, or a list of them`, { code: 'invalid_option' });
  }
  const judged = await outcomeOfTrace(received, 'toHaveOutcome', options);
  const pass = wanted.includes(judged.row.outcome);
  const expectedText = wanted.length === 1 ? wanted[0]! : `one of ${wanted.join(', ')}`;
  return {
    pass,
    message: () => (pass ? `expected an outcome other than ${expectedText}, but it is ${judged.row.outcome}` : `expected the outcome ${expectedText}, but it is ${judged.row.outcome}`) + judged.details,
  };
}

/**
 * Passes when the outcome is one the outcome table counts as a pass: `correct`, or
 * `correct_refusal`. An incomplete, off-topic or hallucinated answer fails; so do an over-refusal
 * and an answer that should have been a refusal.
 *
 * @example
 * await expect(trace).toAnswerCorrectly({ reference: 'Probation lasts 6 months.' });
 */
export async function toAnswerCorrectly(this: MatcherContext | void, received: unknown, options: OutcomeOptions = {}): Promise<MatcherResult> {
  const judged = await outcomeOfTrace(received, 'toAnswerCorrectly', options);
  const pass = judged.row.pass === true;
  return {
    pass,
    message: () => (pass ? `expected the answer not to pass, but it is ${judged.row.outcome}` : `expected a correct answer or a correct refusal, but it is ${judged.row.outcome}`) + judged.details,
  };
}

/** The outcome-table row of a trace's judgment, with what a failure message shows: why, the claims, the chunks' verdicts. */
async function outcomeOfTrace(received: unknown, matcher: string, options: OutcomeOptions): Promise<{ row: ReturnType<typeof outcomeRow>; details: string }> {
  const trace = asTrace(received, matcher, options.refusalSentence);
  const judgment = await judged(matcher, trace, options, { ...(options.reference ? { reference: options.reference } : {}), ...(options.personalData !== undefined ? { personalData: options.personalData } : {}) });
  const row = outcomeRow(flagsOf(judgment));
  const claims = claimLines(judgment.claims);
  const contexts = judgment.contexts.map((context) => `  ${context.chunkId}: ${context.verdict}`);
  const details = [
    ` (${row.description}; answer relevance: ${judgment.answerRelevance}${judgment.referenceRecall !== null && judgment.referenceRecall !== undefined ? `, reference recall ${Math.round(100 * judgment.referenceRecall)}%` : ''})`,
    ...(claims.length > 0 ? ['', 'claims:', ...claims] : []),
    ...(contexts.length > 0 ? ['', 'chunks:', ...contexts] : []),
    '',
    `answer: "${quote(trace.answer)}"`,
  ].join('\n');
  return { row, details };
}

/**
 * Passes when the answer is a refusal: the trace says so, or the answer is the refusal sentence
 * or a common paraphrase ("I don't know…", "the documents do not cover…").
 *
 * @example
 * expect(await pipeline.ask('What is the CEO\'s salary?')).toRefuse();
 */
export function toRefuse(this: MatcherContext | void, received: unknown, options: RefuseOptions = {}): MatcherResult {
  const trace = asTrace(received, 'toRefuse', options.refusalSentence);
  const pass = trace.refused || isRefusal(trace.answer, options.refusalSentence ?? REFUSAL_SENTENCE);
  return {
    pass,
    message: () =>
      pass
        ? `expected an answer, but it refused: "${quote(trace.answer)}" (${trace.chunks.length} chunk(s) retrieved${trace.refusalReason ? `, refused by the ${trace.refusalReason}` : ''})`
        : `expected a refusal, but the answer says: "${quote(trace.answer)}" (from ${trace.chunks.length} chunk(s): ${trace.chunks.map((chunk) => chunk.chunkId).join(', ') || 'none'})`,
  };
}

/**
 * Passes when the answer cites the chunk: the chunk is among the trace's chunks, and the answer
 * names it, by a citation whose title is the chunk's (`(Leave Policy, updated 2026-01-12)`, a
 * copied `[Source: …]` line, `(Source: Leave Policy)`) or by its id (`[KB-101]` for `kb-101`).
 *
 * @example
 * expect(trace).toCite('leave-policy#parental-leave');
 */
export function toCite(this: MatcherContext | void, received: unknown, chunkId: string): MatcherResult {
  if (typeof chunkId !== 'string' || chunkId === '') throw new InvalidInputError('toCite(chunkId): give the id of a chunk of the trace', { code: 'invalid_option' });
  const trace = asTrace(received, 'toCite');
  const chunk = trace.chunks.find((entry) => entry.chunkId === chunkId);
  const citations = extractCitations(trace.answer).citations;
  const citedText = citations.length === 0 ? 'nothing' : citations.map((citation) => citation.text).join(', ');
  if (!chunk) {
    return {
      pass: false,
      message: () => `expected the answer to cite chunk ${chunkId}, but ${chunkId} is not among the trace's ${trace.chunks.length} chunk(s) (${trace.chunks.map((entry) => entry.chunkId).join(', ') || 'none'}): an answer can only cite what it was given`,
    };
  }
  const title = normalize(chunk.title);
  const byTitle = title !== '' && citations.some((citation) => normalize(citation.title) === title && (citation.updated === null || chunk.updated === null || citation.updated === chunk.updated));
  const byId = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(chunkId)}($|[^\\p{L}\\p{N}])`, 'iu').test(trace.answer);
  const pass = byTitle || byId;
  const label = `chunk ${chunkId}${chunk.title ? ` ("${chunk.title}"${chunk.updated ? `, updated ${chunk.updated}` : ''})` : ''}`;
  return {
    pass,
    message: () =>
      pass
        ? `expected the answer not to cite ${label}, but it does${byId ? ' by its id' : `: ${citedText}`}\n\nanswer: "${quote(trace.answer)}"`
        : `expected the answer to cite ${label}, but it cites ${citedText}\n\nanswer: "${quote(trace.answer)}"`,
  };
}

/**
 * The trace judged by the matcher's judge (the offline heuristic judge unless one is given), with
 * what the judge may know besides the trace. A judge that fails throws: it decided nothing.
 */
async function judged(matcher: string, trace: RagTrace, options: { judge?: FaithfulnessJudge; refusalSentence?: string }, known: Parameters<typeof judgeTrace>[2]): Promise<Extract<FaithfulnessJudgment, { status: 'ok' }>> {
  const judge = options.judge ?? createHeuristicFaithfulnessJudge(options.refusalSentence ? { refusalSentence: options.refusalSentence } : {});
  const judgment = await judgeTrace(judge, trace, known);
  if (judgment.status === 'error') throw new Error(`${matcher}: the judge (${judgment.judge.kind}:${judgment.judge.model}) failed, so nothing was decided: ${judgment.error}`);
  return judgment;
}

/** One line per claim: its mark, verdict, text, and the chunk and note that decided it. */
function claimLines(claims: readonly JudgedClaim[]): string[] {
  return claims.map((claim) => `  ${claim.verdict === 'verified' ? '✓' : '✗'} ${claim.verdict.padEnd(12)} "${quote(claim.text)}"${claim.evidenceChunkId ? ` (${claim.evidenceChunkId}${claim.note ? `: ${claim.note}` : ''})` : claim.note ? ` (${claim.note})` : ''}`);
}

/** The matchers, for `expect.extend(groundcheckMatchers)`. */
export const groundcheckMatchers = { toBeGrounded, toHaveOutcome, toAnswerCorrectly, toRefuse, toCite };

/** A `RagTrace` as is; a plain `{ query, chunks, answer }` record through the contract's one conversion. */
function asTrace(received: unknown, matcher: string, refusalSentence?: string): RagTrace {
  if (isRagTrace(received)) return received;
  if (received !== null && typeof received === 'object' && 'answer' in received && 'chunks' in received) {
    const result = traceFromPlain(received, refusalSentence ? { refusalSentence } : {});
    if (!result.ok) throw new InvalidInputError(`${matcher}: ${result.error}`, { code: 'invalid_trace' });
    return result.trace;
  }
  throw new InvalidInputError(`${matcher}: expected a RagTrace or a { query, chunks: [{ id, text }], answer } record, got ${received === null ? 'null' : typeof received}`, { code: 'invalid_trace' });
}

function isRagTrace(value: unknown): value is RagTrace {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Partial<RagTrace>;
  return typeof candidate.query === 'string' && typeof candidate.answer === 'string' && typeof candidate.refused === 'boolean' && Array.isArray(candidate.chunks) && candidate.chunks.every((chunk) => typeof chunk?.chunkId === 'string' && typeof chunk.text === 'string');
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE ? `${flat.slice(0, QUOTE)}…` : flat;
}
