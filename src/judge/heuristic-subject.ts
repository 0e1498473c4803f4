import { analyze } from './heuristic-analysis.js';
import { hasStem, tokenize } from './heuristic-tokens.js';
import { synonymStems } from './heuristic-synonyms.js';

/**
 * Whose figure an answer gives (v15; METHODOLOGY.md, "Changes in v15"). A faithful quote of a
 * neighbouring section that holds a figure of the asked kind passed as an answer: "Claims approved
 * by your manager by the 10th of the month are paid with that month's salary." for "What day of
 * the month do we get paid?". What the sentence is about is its opening noun phrase ("Claims"):
 * the question does not name it, and the section heading of the chunk the sentence comes from
 * ("Submitting Expense Claims") names it and shares no word with the question. The answer gives
 * another subject's figure.
 */

/** Words that may open a noun phrase without being what it is about. */
const DETERMINERS = new Set(['the', 'a', 'an', 'your', 'our', 'their', 'its', 'any', 'all', 'each', 'every', 'this', 'these', 'that', 'those']);

/** The most words an opening noun phrase is read for ("First aid kits", "Income protection"). */
const SUBJECT_WORDS = 3;

/** A claim's opening noun phrase: its content stems and its words as written. */
export interface OpeningSubject {
  stems: string[];
  written: string[];
}

/**
 * The opening noun phrase of a claim: its first content words after a determiner, up to the first
 * function word, figure or punctuation; `null` when the claim opens with a function word ("You",
 * "As", "If", "Yes") or a figure.
 *
 * @example
 * openingSubject("Claims approved by your manager are paid with that month's salary.") // { stems: ['claim', 'approv'], written: ['Claims', 'approved'] }
 * openingSubject("You're enrolled from your first day.") // null
 */
export function openingSubject(text: string): OpeningSubject | null {
  const tokens = tokenize(text);
  let index = 0;
  while (tokens[index]?.kind === 'word' && DETERMINERS.has(tokens[index]!.lower)) index += 1;
  const subject: OpeningSubject = { stems: [], written: [] };
  for (; index < tokens.length && subject.written.length < SUBJECT_WORDS; index += 1) {
    const token = tokens[index]!;
    if (token.kind !== 'word') break;
    const content = analyze(token.text).stems;
    if (content.length === 0) break;
    subject.stems.push(...content);
    subject.written.push(token.text);
  }
  return subject.stems.length === 0 ? null : subject;
}

/** A claim as the rule reads it: its text and the chunk it rests on (`null`: none). */
export interface GroundedClaim {
  text: string;
  evidenceChunkId: string | null;
}

/**
 * Whether an answer is about another section's subject: some claim opens with a noun phrase, and
 * every claim that does rests on a chunk whose section heading names that phrase (a word of it) and
 * shares no word with the question, while neither the phrase's words nor their synonyms are in the
 * question. `sections`: the content stems of each retrieved chunk's section heading, by chunk id.
 *
 * @example
 * const sections = new Map([['claims', new Set(['submit', 'expens', 'claim'])], ['pay-day', new Set(['pai', 'dai'])]]);
 * aboutAnotherSection(new Set(['dai', 'month', 'get', 'paid']), [{ text: 'Claims approved by the 10th are paid with that month's salary', evidenceChunkId: 'claims' }], sections) // true
 * aboutAnotherSection(new Set(['dai', 'month', 'get', 'paid']), [{ text: 'Salaries are paid on the 25th', evidenceChunkId: 'pay-day' }], sections) // false
 */
export function aboutAnotherSection(questionStems: ReadonlySet<string>, claims: readonly GroundedClaim[], sections: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  const inQuestion = (stem: string) => hasStem(questionStems, stem);
  let subjects = 0;
  for (const claim of claims) {
    const subject = openingSubject(claim.text);
    if (subject === null) continue;
    subjects += 1;
    if (subject.stems.some(inQuestion) || subject.written.some((word) => synonymStems(word).some(inQuestion))) return false;
    const section = claim.evidenceChunkId === null ? undefined : sections.get(claim.evidenceChunkId);
    if (section === undefined || [...section].some(inQuestion) || !subject.stems.some((stem) => hasStem(section, stem))) return false;
  }
  return subjects > 0;
}
