import { adjacentPairsInClauses, contentStems, STOPWORDS, stem, words } from '../../text/text.js';
import { canNameAThing } from '../../text/wordnet.js';
import type { SourceUnit } from './prompt-sources.js';
import { holds, type WeightedQuestion, type WeightedTerm } from './question-weights.js';

/**
 * Whether the picked answer is about what the question names, read from how the question's words
 * stand in it: together, apart, or in the same frame around another word. Each check returns true
 * when the answer uses the question's words for another thing, and the answerer then refuses.
 */

/** Stems of words for units of time that name what a time answers ("hours", "times", "days"). */
const TIME_HEADS: ReadonlySet<string> = new Set(['hour', 'time', 'day', 'date']);
/** A clock time, a weekday or a month-day date in a sentence. */
const TIMES = /\b(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}|(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}\s+(?:january|february|march|april|may|june|july|august|september|october|november|december))\b/i;

/** How far apart (in content words) two words of a sentence may stand and still be read together. */
const TOGETHER_WINDOW = 3;

/**
 * Whether the answer holds the words of one of the question's phrases ("free lunch", "advance on
 * my salary") only apart (in different sentences, or far apart in one: "lunch-and-learn
 * sessions … free access") and none of its phrases together: it uses the question's words for
 * other things, so it does not answer what is asked.
 */
export function wordsApart(question: string, weighted: WeightedQuestion, picked: readonly SourceUnit[]): boolean {
  // Only a question whose whole topic is the phrase (no other topic word, in the asking clause or
  // the scenario before it): other topic words would say which thing it means. A phrase names a
  // thing, so a verb and its object ("can I return earrings?") are none (2026-12-05), and nor is
  // the measure a "how many" question counts in and what it measures ("how many days holiday").
  const asked = new Map(weighted.terms.filter((term) => term.kind === 'topic').map((term) => [term.stem, term]));
  // Content words next to each other in the question, at most two stopwords between ("advance on my salary").
  // Its last word must be able to name a thing ("password expires" says something of the password).
  // Not across a clause's end: "my nan died, how much time off do i get" names no "died time" (2026-12-07).
  const phrases = adjacentPairsInClauses(question, 2, (_, head) => canNameAThing(head))
    .filter(([first, second]) => asked.size === 2 && asked.has(first) && asked.has(second) && ![first, second].some((stem) => asked.get(stem)!.verbLike || asked.get(stem)!.verbAfterSubject || asked.get(stem)!.counted))
    .map(([first, second]) => [asked.get(first)!, asked.get(second)!] as const);
  if (phrases.length === 0) return false;
  // A table row states one thing, whatever its column headers put between the words.
  if (picked.some((unit) => unit.kind === 'row' && phrases.some(([first, second]) => holds(unit.stems, first) && holds(unit.stems, second)))) return false;
  // A heading names what its sentences are about: "Cycle to Work Scheme" over "you can get a bicycle …".
  const headings = [...new Set(picked.flatMap((unit) => [unit.document.title, unit.document.section]))];
  // Figures are left out of the distance: "need a £1 coin" holds the coin as near as "need a coin" (2026-12-05).
  const sequences = [...picked.map((unit) => unit.text), ...headings].map((text) => contentStems(text).filter((item) => !/^\d/.test(item)));
  const together = ([first, second]: readonly [WeightedTerm, WeightedTerm]) => sequences.some((sequence) => {
    const at = (term: WeightedTerm) => sequence.flatMap((item, index) => (term.matches.has(item) ? [index] : []));
    const firstAt = at(first);
    return at(second).some((index) => firstAt.some((other) => Math.abs(other - index) <= TOGETHER_WINDOW));
  });
  if (phrases.some(together)) return false;
  // A section is a part of what its document's title names: the phrase's first word in the title and
  // its head in the section ("Sickness Absence" › "Fit Notes" for "sick note") name one thing.
  const titled = ([first, second]: readonly [WeightedTerm, WeightedTerm]) =>
    picked.some((unit) => holds(new Set(contentStems(unit.document.title)), first) && holds(new Set(contentStems(unit.document.section)), second));
  if (phrases.some(titled)) return false;
  // "opening hours", "delivery days": a phrase whose second word is a unit of time is answered by
  // a unit holding its first word and the times themselves ("open Monday to Friday 8am to 8pm").
  const timed = ([first, second]: readonly [WeightedTerm, WeightedTerm]) =>
    TIME_HEADS.has(second.stem) && picked.some((unit) => holds(unit.stems, first) && TIMES.test(unit.text));
  if (phrases.some(timed)) return false;
  const inAnswer = (term: WeightedTerm) => picked.some((unit) => holds(unit.stems, term));
  return phrases.some(([first, second]) => inAnswer(first) && inAnswer(second));
}

/**
 * Whether the answer names a sibling of what is asked: the question's three words in a row ("private
 * dental insurance") stand in the answer with another middle word ("private medical insurance"),
 * and the question's own middle word is in no picked unit. The frame is the same, the thing is not.
 */
export function namesSibling(question: string, weighted: WeightedQuestion, picked: readonly SourceUnit[]): boolean {
  const topic = new Map(weighted.terms.filter((term) => term.kind === 'topic').map((term) => [term.stem, term]));
  const tokens = words(question);
  const sequences = picked.map((unit) => contentStems(unit.text));
  for (let index = 0; index + 2 < tokens.length; index++) {
    const triple = tokens.slice(index, index + 3);
    if (triple.some((word) => STOPWORDS.has(word) || /^\d/.test(word))) continue;
    const [first, middle, last] = triple.map((word) => topic.get(stem(word)));
    if (!first || !middle || !last) continue;
    if (picked.some((unit) => holds(unit.stems, middle))) continue;
    const sibling = sequences.some((sequence) => sequence.some((item, at) => at + 2 < sequence.length && first.matches.has(item) && last.matches.has(sequence[at + 2]!) && !middle.matches.has(sequence[at + 1]!)));
    if (sibling) return true;
  }
  return false;
}
