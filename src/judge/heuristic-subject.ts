import { analyze } from './heuristic-analysis.js';
import { hasStem, tokenize, type Token } from './heuristic-tokens.js';
import { STOPWORDS } from '../text/text.js';
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

/** The most tokens an aside in brackets after the opening phrase is read for. */
const MAX_ASIDE_TOKENS = 12;

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
  if (subject.stems.length === 0) return null;
  // An aside in brackets right after the phrase names the same thing (v73): "Garden waste (green
  // bin) is collected…" is about the green bin too.
  if (tokens[index]?.text === '(') {
    const close = tokens.findIndex((token, at) => at > index && (token.text === ')' || token.text === '('));
    if (close > index + 1 && close - index <= MAX_ASIDE_TOKENS && tokens[close]!.text === ')') {
      for (const token of tokens.slice(index + 1, close)) {
        const content = token.kind === 'word' ? analyze(token.text).stems : [];
        if (content.length === 0) continue;
        subject.stems.push(...content);
        subject.written.push(token.text);
      }
    }
  }
  return subject;
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

/**
 * Another kind of the asked thing (v19): the question asks for "the hotel limit" and the answer
 * gives "the meal limit". Two content words in a row, the second the same in question and answer
 * (the head: "limit", "insurance", "leave"), the first different (the modifier: "hotel" / "meal",
 * "dental" / "medical", "parental" / "annual"). It counts only when the answer never uses the
 * question's modifier (nor a synonym of it), the question never uses the answer's, and each
 * modifier names a section of its own among the retrieved chunks: it is in the title or section
 * heading of a chunk whose heading does not hold the other ("Meal Allowances" and "Hotel Nightly
 * Caps"), the answer's in that of a chunk its claims rest on (`resting`). The documents then hold
 * both kinds apart, and the answer gave the other one. "nightly"
 * is no other kind (it is in "Hotel Nightly Caps"); "fit note" for "doctor's note" is the
 * document's word for the same thing (no heading names "doctor"). Returns the two phrases, or `null`.
 *
 * @example
 * swappedModifier('hotel limit per night for New York?', 'The meal limit is £65 per night.', [new Set(['meal', 'allow']), new Set(['hotel', 'nightli', 'cap'])])
 * // { asked: 'hotel limit', given: 'meal limit' } (the claim resting on the meal chunk)
 */
export function swappedModifier(
  question: string,
  answer: string,
  headings: readonly ReadonlySet<string>[],
  resting: readonly ReadonlySet<string>[] = headings,
): { asked: string; given: string } | null {
  const asked = contentPairs(question);
  const given = contentPairs(answer);
  if (asked.length === 0 || given.length === 0) return null;
  const questionStems = analyze(question).stemSet;
  const answerStems = analyze(answer).stemSet;
  const same = (stems: ReadonlySet<string>, pair: ContentPair) => hasStem(stems, pair.modifier) || synonymStems(pair.modifierWord).some((other) => stems.has(other));
  for (const wanted of asked) {
    if (same(answerStems, wanted)) continue;
    for (const offered of given) {
      if (offered.head !== wanted.head || offered.modifier === wanted.modifier || same(questionStems, offered)) continue;
      const namesSection = (among: readonly ReadonlySet<string>[], one: ContentPair, other: ContentPair) => among.some((heading) => hasStem(heading, one.modifier) && !hasStem(heading, other.modifier));
      if (namesSection(resting, offered, wanted) && namesSection(headings, wanted, offered)) return { asked: `${wanted.modifierWord} ${wanted.headWord}`, given: `${offered.modifierWord} ${offered.headWord}` };
    }
  }
  return null;
}

interface ContentPair {
  modifier: string;
  head: string;
  modifierWord: string;
  headWord: string;
}

/** Two content words written next to each other, no stopword or punctuation between them ("hotel limit", "dental insurance"). */
function contentPairs(text: string): ContentPair[] {
  const tokens = tokenize(text);
  const pairs: ContentPair[] = [];
  for (let index = 0; index + 1 < tokens.length; index++) {
    const [first, second] = [tokens[index]!, tokens[index + 1]!];
    if (!isContentWord(first) || !isContentWord(second)) continue;
    pairs.push({ modifier: first.stem, head: second.stem, modifierWord: first.text.toLowerCase(), headWord: second.text.toLowerCase() });
  }
  return pairs;
}

const isContentWord = (token: Token) => token.kind === 'word' && !STOPWORDS.has(token.lower) && token.lower.length > 1 && !/\d/.test(token.text);
