import { isRefusal } from '../contract/refusal.js';
import { stem } from '../text/text.js';
import { chunkCoverage, CONTEXT_THRESHOLDS, readQuestion, type QuestionReading } from './heuristic-context.js';
import type { EvidenceUnit } from './heuristic-units.js';
import type { JudgedContext } from './types.js';

/**
 * What a refusal says it looked for (v119). A refusal that names what it could not find ("I can't
 * find anything on suppliers paying for travel or hotels", "the handbook doesn't cover sick notes
 * versus self-certifying") restates what was asked in a few words, without the asker's scene ("A
 * journalist just emailed me asking about one of our port customers…"), whose words dilute the
 * question's topic so that the chunk that answers covers too little of it. When a retrieved chunk's
 * sentence covers what the refusal names, that chunk holds what was asked: the refusal is an
 * over-refusal, with or without a reference answer. Without a reference (the live judge), the
 * question's words were the only reading before, and they credited 30% of the development files'
 * over-refusals as correct.
 *
 * Guards, each from a failure on the development files:
 * - at least {@link NAMED_TOPIC_MIN_WORDS} topic words once the refusal's own vocabulary is set
 *   aside: with two ("working late on your own": "work", "late"), a sentence about anything held
 *   both ("the working days … later");
 * - the named topic shares a word with the question: a refusal naming something else says nothing
 *   about what was asked;
 * - a sentence giving a reason to refuse ("pay is confidential", "I can't tell you what a colleague
 *   earns") names why, not what is missing: it is not read;
 * - the standard `answers` bar (`CONTEXT_THRESHOLDS.answers`), and only the chunks that cover the
 *   named topic best are upgraded (so one refusal does not turn every loosely related chunk into
 *   an answering one).
 *
 * The pipeline's own refusal sentence names nothing ("I don't know: the provided documents do not
 * cover this."): it changes nothing. Upgrades `related` / `unrelated` chunks to `answers`, never
 * downgrades.
 */
export function refusalNamedContexts(
  answer: string,
  refusalSentence: string,
  reading: QuestionReading,
  contexts: readonly JudgedContext[],
  units: readonly EvidenceUnit[],
): JudgedContext[] {
  const named = namedTopic(answer, refusalSentence, units);
  if (named === null || ![...named.topic.keys()].some((word) => reading.analysis.stemSet.has(word))) return [...contexts];
  // The question decides what kind of value answers it ("how much notice": a figure).
  const asNamed: QuestionReading = { ...named, parts: [named.topic], kind: reading.kind, howOften: reading.howOften, asked: reading.asked };
  // One context per chunk of the evidence: the chunks to read are the contexts'.
  const coverage = new Map(contexts.map((context) => [context.chunkId, chunkCoverage(asNamed, units.filter((unit) => unit.passageId === context.chunkId)).best]));
  const top = Math.max(0, ...coverage.values());
  if (top < CONTEXT_THRESHOLDS.answers) return [...contexts];
  const words = [...named.topic.keys()].join(', ');
  return contexts.map((context) => {
    if (context.verdict === 'answers' || coverage.get(context.chunkId) !== top) return context;
    return { ...context, verdict: 'answers', note: `the refusal names what a sentence of it holds (${Math.round(100 * top)}% of: ${words})` };
  });
}

/** A refusal's topic needs this many words before it is read (see {@link refusalNamedContexts}). */
export const NAMED_TOPIC_MIN_WORDS = 3;

/**
 * Words of refusals themselves, not of what they looked for ("Sorry, I couldn't find any guidance
 * on …"), beyond those `readQuestion` already leaves out of every topic ("find", "anything",
 * "know", and the words for documents: "policy", "rules", "guidance").
 */
const REFUSAL_WORDS: ReadonlySet<string> = new Set(
  [
    'sorry', 'unfortunately', 'afraid', 'information', 'detail', 'details', 'cover', 'covers', 'covered', 'covering',
    'mention', 'mentions', 'mentioned', 'say', 'says', 'said', 'sure', 'able', 'unable', 'seem', 'seems', 'see', 'look', 'looked',
    'provided', 'help', 'share', 'advise', 'nothing', 'handbook', 'documents', 'document', 'docs',
  ].map(stem),
);

/** A sentence that refuses for a reason (confidentiality), which names why rather than what is missing. */
const REFUSES_FOR_A_REASON =
  /\b(?:confidential|private|personal)\b|\b(?:can'?t|cannot|won'?t|not able to|unable to) (?:share|tell you|give out|disclose|pass on)\b/i;

/** The topic the refusal's sentences name, read as a question is (`readQuestion`), or `null` when they name too little. */
function namedTopic(answer: string, refusalSentence: string, units: readonly EvidenceUnit[]): QuestionReading | null {
  const sentences = answer.split(/(?<=[.!?;:])\s+/).filter((sentence) => isRefusal(sentence, refusalSentence) && !REFUSES_FOR_A_REASON.test(sentence));
  if (sentences.length === 0) return null;
  const reading = readQuestion(sentences.join(' '), units);
  const topic = new Map([...reading.topic].filter(([word]) => !REFUSAL_WORDS.has(word)));
  return topic.size >= NAMED_TOPIC_MIN_WORDS ? { ...reading, topic } : null;
}
