import { passageParts } from '../contract/evidence.js';
import { holdsRedactionPlaceholder, withoutRedactionPlaceholders } from '../contract/redaction.js';
import { acronymTable, spellOutAcronyms } from '../text/acronyms.js';
import { COMPARING_WORDS, DAY_GROUPS, DOCUMENT_WORDS } from '../text/specifics.js';
import { questionTerms } from '../text/question-terms.js';
import { canNameAThing } from '../text/wordnet.js';
import { adjacentPairs, stem } from '../text/text.js';
import { askedFigure, type AskedFigure } from './heuristic-asked.js';
import { analyze, withoutQuantityWord, type Analysis } from './heuristic-analysis.js';
import { relate } from './heuristic-quantities.js';
import { hasStem } from './heuristic-tokens.js';
import { hasSynonym } from './heuristic-synonyms.js';
import { joinPhrasalVerbs, writtenApart } from '../text/compounds.js';
import { foundAsBound } from './heuristic-word-classes.js';
import { heldFreely, heldOnlyInTerm, termWordStems } from './heuristic-collocations.js';
import { expandCasual } from '../text/casual.js';
import type { EvidenceUnit } from './heuristic-units.js';
import type { ContextVerdict, EvidencePassage, JudgedContext } from './types.js';

/**
 * The offline judge's reading of the question: what it is about (its topic words, weighted by how
 * specific they are to this evidence) and what kind of answer it asks for. The context verdicts,
 * the answer-relevance verdict and the personal-data check all start from it (METHODOLOGY.md,
 * "The offline heuristic judge").
 */

/** What kind of answer the question asks for. */
export type AnswerKind = 'quantity' | 'time' | 'yes_no' | 'open';

export interface QuestionReading {
  /** What figure a quantity question asks for (v14; `heuristic-asked.ts`). */
  asked: AskedFigure;
  analysis: Analysis;
  /** Topic stems with their weights (see {@link TOPIC_WEIGHTS}). */
  topic: Map<string, number>;
  kind: AnswerKind;
  /** The question's parts when it asks several things ("…, and can I …?"), each its own reading of topic stems. */
  parts: Map<string, number>[];
  /** Stem pairs of content words side by side in the question that name a thing ("second job", "free breakfast"; no verb and its object). */
  phrases: [string, string][];
  /** Asks "how often" (v78): a frequency in words ("every month", "weekly") is the kind of value asked for. */
  howOften: boolean;
  /** The subject of a verb after it ("does scanning cost anything": `scan`; v80): what the question is about. */
  subjects: string[];
  /** The stem of every word of the question, stopwords too ("off" of "days off"): the partner words of a two-word term it uses (v111). */
  wordStems: ReadonlySet<string>;
}

/** A frequency in words: "every month", "once a year", "twice a week", "weekly" (v78). */
export const FREQUENCY = /\b(?:(?:every|each|once a|twice a|once per|per)\s+(?:\w+\s+)?(?:minute|hour|day|night|week|fortnight|month|quarter|year)s?|hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|annually|yearly)\b/i;

/**
 * Weights of a question's topic words. A word no evidence passage contains is what an unanswerable
 * question is usually about ("Bitcoin", "sabbatical", "pet insurance"): it counts more, so
 * passages that share only the question's common words do not pass for answers. A word the
 * term-coverage gate reads as generic ("stuff", "loads") weighs as one the evidence holds (v100).
 */
export const TOPIC_WEIGHTS = { inEvidence: 1, nowhereInEvidence: 2 } as const;

/** Words of a question that say how it is asked, not what it is about. */
const QUESTION_FORM = new Set([
  'us', 'ask', 'want', 'need', 'know', 'tell', 'like', 'still', 'anymor', 'just', 'right', 'someon', 'anyon', 'anyth', 'someth', 'thing', 'actual', 'realli', 'pleas', 'ok', 'okay', 'sure', 'wonder', 'think', 'go', 'now', 'current', 'moment', 'mean', 'alreadi', 'ever',
  // When the asker is asking, not what about (v49): "I'm sick today, by when do I need to tell my manager?"
  'todai', 'tomorrow', 'yesterdai', 'tonight',
  // Words for the documents and for comparing (v65): "what's your returns policy?", "the difference between…".
  ...[...DOCUMENT_WORDS, ...COMPARING_WORDS].map(stem),
  // How it is asked, not what about (v72): "what happens if…", "where do I find…", adverb
  // particles ("put it away"; not "back": "when do I get it back?" asks about a repayment), and
  // the names of currencies ("how many points per pound": the answer gives "£1", not the word).
  ...['away', 'around', 'along', 'forward', 'happen', 'find', 'found', 'pound', 'quid', 'dollar', 'euro', 'pence', 'penny'].map(stem),
  // Indefinite words, standing for what the question does not name (v75): "is there somewhere to charge my car?".
  ...['somewhere', 'anywhere', 'everywhere', 'somebody', 'anybody', 'everyone', 'everybody'].map(stem),
]);

/**
 * Words that may only say how a question is asked (v77): a bound, which a passage may state as its
 * figure alone ("is there a mileage limit?": "200 miles per day"), a thing's age ("how much for
 * a new one?": "a replacement bin costs £25"), and a number asked for (v79: "what's your phone
 * number?": "by phone on 0161 496 0500"). Where no passage holds the word it is how the
 * question is asked; where one does ("the hotel limits per night", "new joiners") it is a topic
 * word as before.
 */
const FORM_UNLESS_HELD: ReadonlySet<string> = new Set(['limit', 'cap', 'new', 'old', 'number'].map(stem));

/** "got" before a past participle is the passive's auxiliary ("my bin got nicked", "I got paid late"), no topic word (v77). */
const GOT_PASSIVE = /\b(?:got|get|gets|getting)\s+(?=(?:\p{L}{2,}ed|stolen|broken|taken|given|paid|lost|hurt|sent|left|cut|caught|stuck|told)\b)/giu;

/**
 * The question without the words that only say what kind of value is asked for: "how long" and
 * the like (`withoutQuantityWord`), and "what time", "which day" (v75: "what time does breakfast
 * finish?" is not about time as a topic; the answer "8am to 11am" holds no such word); and
 * without a passive's "got" (v77).
 */
function withoutAskedWords(question: string): string {
  return withoutQuantityWord(question).replace(GOT_PASSIVE, '').replace(/\b(what|which|whats|what's) (?:time|times|day|date)\b/gi, '$1');
}

/**
 * Whether stems hold the word a policy uses for this day of the week (v75): "weekends" for
 * "Saturday", "weekdays" for "Monday" (`DAY_GROUPS`). `word`: the day as the question writes it.
 */
function holdsDayGroup(word: string | undefined, stems: ReadonlySet<string>): boolean {
  if (word === undefined) return false;
  return (DAY_GROUPS.get(word.toLowerCase()) ?? []).some((group) => hasStem(stems, stem(group)));
}

/**
 * Whether a text (with its stems) holds a word of the question as written or in the forms the
 * judge reads it by: the stem itself, the closed compound written apart ("wifi": "Wi-Fi", v75),
 * a weekday by its group ("Saturday": "weekends", v75). `word`: the question's word as written.
 */
export function holdsAsWritten(stems: ReadonlySet<string>, text: string, wordStem: string, word: string | undefined): boolean {
  return hasStem(stems, wordStem) || writtenApart(word, text) || holdsDayGroup(word, stems);
}

const QUANTITY_QUESTION =
  /\b(?:how (?:long|much|many|often|far|soon|old|quickly|fast|big|large|high|low)|what(?:'s| is| are| was| were)? (?:the |my |our |a )?(?:[\p{L}-]+ ){0,2}(?:percentage|rate|limit|cap|maximum|minimum|most|least|amount|allowance|(?<!(?:phone|contact|account|reference|telephone|mobile|order|registration|tracking|case|policy|membership) )number|length|cost|price|value|deadline|budget|threshold|fee|salary|notice)s?|by how much|what percentage)\b/iu;
const TIME_QUESTION = /\b(?:what (?:time|day|date|month|year)|by what (?:time|date|day)|which (?:day|date|month))\b/i;
/**
 * "When" asks for a time where a sentence starts with it ("when do I get paid", "so when is it
 * due") or a question is asked about it ("can you tell me when the office opens"); after another
 * question word it states a condition ("what happens to my plan when I cancel") (v81).
 */
const WHEN_ASKED = /(?:^|[.?!]\s+)(?:(?:so|and|but|ok|okay|also|then|hi|hey|right|um)[, ]+)*(?:(?:until|by|since) )?when\b|\b(?:tell me|let me know|know|find out|say|ask|wondering|check|remind me)\b[^.?!]*?\bwhen\b/i;
const YES_NO_QUESTION = /^(?:(?:so|and|but|ok|okay|also|then)[, ]+)?(?:can|could|do|does|did|is|are|am|was|were|will|would|should|shall|must|may|might|have|has|had)\b/i;

/**
 * Read a question against the evidence passages (their stems decide which topic words no passage
 * holds).
 *
 * @example
 * readQuestion('Can I have part of my salary paid in Bitcoin?', units).topic // Map { 'part' => 1, 'salari' => 1, 'paid' => 1, 'bitcoin' => 2 }
 */
export function readQuestion(asked: string, units: readonly EvidenceUnit[]): QuestionReading {
  // A phrasal verb the evidence writes as one word is read as that word ("broke down": "breakdown", v77).
  const question = joinPhrasalVerbs(asked, (wordStem) => units.some((unit) => unit.passageStems.has(wordStem)));
  const analysis = analyze(withoutAskedWords(question));
  // Asked of each stem several times (the topic, each part, the phrases): read once per stem.
  const held = new Map<string, boolean>();
  const inEvidence = (stem: string) => {
    let found = held.get(stem);
    if (found === undefined) {
      found = units.some(
        (unit) =>
          holdsAsWritten(unit.passageStems, `${unit.headingText}\n${unit.text}`, stem, analysis.written.get(stem)) ||
          hasSynonym(unit.passageStems, stem, analysis.written, unit.passageStems) ||
          foundAsBound(stem, unit.text),
      );
      held.set(stem, found);
    }
    return found;
  };
  // A verb after the question's subject ("when does breakfast finish?") is how a time or a
  // state is asked for: the evidence need not hold it, so its absence does not weigh double (v75).
  // Its subject, the topic word before it, is what the question is about (v80).
  const terms = questionTerms(question);
  const verbsAfterSubject = new Set(terms.filter((term) => term.verbAfterSubject).map((term) => term.stem));
  const subjects = terms.flatMap((term, index) => (term.verbAfterSubject && index > 0 && terms[index - 1]!.kind === 'topic' ? [terms[index - 1]!.stem] : []));
  // An idiom's noun names no topic ("every single year", "get in trouble", "on top of me"; v84).
  const idioms = new Set(terms.filter((term) => term.idiom).map((term) => term.stem));
  // A word the term-coverage gate reads as generic ("gone", "loads", "stuff", "suddenly") is no
  // sign of what an unanswerable question is about, wherever the evidence lacks it: it weighs as
  // a word the evidence holds, not double (v100: a long casual question's fillers had left the
  // chunk it quotes "unrelated").
  const generic = new Set(terms.filter((term) => term.kind === 'generic').map((term) => term.stem));
  const weigh = (stems: readonly string[]) => {
    const topic = new Map<string, number>();
    for (const stem of stems) {
      if (QUESTION_FORM.has(stem) || idioms.has(stem) || /^\d/.test(stem)) continue;
      if (FORM_UNLESS_HELD.has(stem) && !inEvidence(stem)) continue;
      topic.set(stem, inEvidence(stem) || verbsAfterSubject.has(stem) || generic.has(stem) ? TOPIC_WEIGHTS.inEvidence : TOPIC_WEIGHTS.nowhereInEvidence);
    }
    return topic;
  };
  const topic = weigh(analysis.stems);
  // A part that refers back ("…and how is it calculated?") is about what the part before it names (v8).
  const parts: Map<string, number>[] = [];
  for (const part of questionParts(question)) {
    const own = weigh(analyze(withoutAskedWords(part)).stems);
    const previous = parts.at(-1);
    if (previous && REFERS_BACK.test(part)) for (const [stem, weight] of previous) if (!own.has(stem)) own.set(stem, weight);
    if (own.size > 0) parts.push(own);
  }
  // A word that only says how the question is asked is no half of a phrase ("phone number", v79).
  const phrases = nounPhrases(asked).filter((pair) => !pair.some((stem) => FORM_UNLESS_HELD.has(stem) && !inEvidence(stem)));
  // As written and as read ("xmas" is read "christmas": the partner of "day" in "Christmas Day").
  const wordStems = new Set([...termWordStems(expandCasual(question)), ...analysis.stemSet]);
  return { asked: askedFigure(question), analysis, topic, kind: answerKind(question), parts: parts.length > 1 ? parts : [topic], phrases, howOften: /\bhow often\b/i.test(question), subjects, wordStems };
}

/**
 * Content words side by side in the question, as stem pairs, without a verb and its object ("do
 * you take cash?": "accept cash" answers it) and ending in a word that can name a thing ("can I
 * get glasses paid for?": `canNameAThing`): a phrase that names a thing (v67; the head since v69).
 */
function nounPhrases(question: string): [string, string][] {
  // Verbs after a subject or modal, and light and generic words ("take", "go"): no part of a name.
  const verbs = new Set(questionTerms(question).filter((term) => term.verbLike || term.verbAfterSubject || term.kind === 'generic').map((term) => term.stem));
  return adjacentPairs(withoutAskedWords(question), 0, (_, head) => canNameAThing(head)).filter(([first, second]) => !verbs.has(first) && !verbs.has(second));
}

/** Words that open a question of its own (after "and" inside a sentence: v8; a sentence typed without its "?": v101). */
const QUESTION_OPENERS = 'can|could|do|does|did|is|are|will|would|should|must|may|how|what|when|who|where|which';
/** A sentence that opens as a question does, after an optional "and", "but", "also" (v101). */
const ASKS = new RegExp(`^(?:(?:and|but|also|oh|plus)[, ]+)?(?:${QUESTION_OPENERS})\\b`, 'i');
/** Whether a sentence asks something: it ends with "?", or opens as a question does (v101). */
const asksSomething = (sentence: string) => /\?\s*$/.test(sentence) || ASKS.test(sentence);
/** ", and" before a question of its own ("…, and can I just send a message?"), or one asking "if", "for", "about". */
const AND_ASKS = new RegExp(`,?\\s+and\\s+(?=(?:${QUESTION_OPENERS}|if|for|about)\\b)`, 'i');

/** A pronoun that refers to something named earlier in the question. */
const REFERS_BACK = /\b(?:it|its|they|them|their|this|these|those)\b/i;

function answerKind(question: string): AnswerKind {
  const text = question.trim();
  if (QUANTITY_QUESTION.test(text)) return 'quantity';
  if (TIME_QUESTION.test(text) || WHEN_ASKED.test(text)) return 'time';
  // The last sentence holds the question ("I've been off sick for 10 days. Do I need a note?").
  const sentences = text.split(/(?<=[.?!])\s+/).filter((sentence) => sentence.trim() !== '');
  const last = sentences.filter((sentence) => sentence.trim().endsWith('?')).at(-1) ?? sentences.at(-1) ?? text;
  if (YES_NO_QUESTION.test(last.trim())) return 'yes_no';
  return 'open';
}

/**
 * The separate things a question asks: its question sentences, and within one, clauses joined by
 * "and" where the second starts a question of its own ("by what time…, and can I just send a
 * message?"). "…, or …" joins alternatives of one question, not two questions (v16).
 */
export function questionParts(question: string): string[] {
  // A question typed without its "?" after one typed with it ("…how many characters?? and can i
  // use the same one as my gmail") is asked all the same (v101).
  const sentences = question.split(/(?<=\?)\s+/).filter(asksSomething);
  const asked = sentences.length > 0 ? sentences : [question];
  const parts: string[] = [];
  for (const sentence of asked) {
    const split = sentence.split(AND_ASKS);
    parts.push(...split);
  }
  // Leading statements ("I'm a grade 3 and have been here 3 years.") are context, not something asked.
  return parts;
}

/**
 * The question as the judge reads what it asks, from a redacted question (v103): a sentence that
 * gives a masked personal detail and asks nothing ("call me on [phone:…]", "my email is
 * [email:…]", "thanks, Jo - [phone:…]") says who is asking, not what, so it is left out unless
 * nothing else is left; the placeholders of the sentences kept are taken out (v102). A question
 * without a placeholder is returned as it is.
 *
 * @example
 * withoutPersonalDetails('What is the mileage rate? My email is [email:3fa2c1d9].') // 'What is the mileage rate?'
 */
export function withoutPersonalDetails(question: string): string {
  if (!holdsRedactionPlaceholder(question)) return question;
  const sentences = question.split(/(?<=[?!]|\.(?=\s+[A-Z]))\s+/);
  const kept = sentences.filter((sentence) => !holdsRedactionPlaceholder(sentence) || asksSomething(sentence.trim()));
  return withoutRedactionPlaceholders(kept.length > 0 ? kept.join(' ') : question);
}

/** Weighted share of `topic` found in `has`. */
export function topicCoverage(topic: ReadonlyMap<string, number>, has: (stem: string) => number): number {
  let total = 0;
  let found = 0;
  for (const [stem, weight] of topic) {
    total += weight;
    found += weight * has(stem);
  }
  return total === 0 ? 1 : found / total;
}

/**
 * How much of the question a unit covers: its own words (or, given how the question wrote them,
 * their synonyms) fully, its title and section words half. Given the question's words
 * (`asked`, v111), a word the unit writes only inside a two-word term whose other word the
 * question does not use ("holiday" in "bank holiday") is not held (`heldOnlyInTerm`).
 */
export function unitCoverage(topic: ReadonlyMap<string, number>, unit: EvidenceUnit, written?: ReadonlyMap<string, string>, asked?: ReadonlySet<string>): number {
  return topicCoverage(topic, (stem) => unitCredit(stem, unit, written, asked));
}

/** The credit {@link unitCoverage} gives one stem of the question: 1, `HEADING_WEIGHT`, `PREFIX_WEIGHT` or 0. */
export function unitCredit(stem: string, unit: EvidenceUnit, written?: ReadonlyMap<string, string>, asked?: ReadonlySet<string>): number {
  const inTerm = (text: string) => asked !== undefined && heldOnlyInTerm(text, stem, asked);
  if ((holdsAsWritten(unit.own, unit.text, stem, written?.get(stem)) && !inTerm(unit.text)) || (written !== undefined && hasSynonym(unit.own, stem, written, unit.passageStems)) || foundAsBound(stem, unit.text)) return 1;
  if ((asked === undefined ? hasStem(unit.heading, stem) : heldFreely(unit.heading, unit.headingText, stem, asked)) || writtenApart(written?.get(stem), unit.headingText)) return HEADING_WEIGHT;
  return sharesPrefix(unit.own, stem) && !hasStem(unit.own, stem) ? PREFIX_WEIGHT : 0;
}

/**
 * A part whose whole topic is two words side by side in the question ("a second job", "free
 * breakfast"), of which the answer (with the sentences it rests on) holds one and neither the
 * other nor a synonym of it: it uses that word for another thing ("unsuccessful job
 * applications", "free access to the course library") (v67). Only a two-word topic: with more
 * words, a missing one is as often a paraphrase as another thing (tried on every pair of a longer
 * topic: correct answers judged off topic on every dev file). Read alike by answer relevance (the
 * answer and its sentences) and, since v113, by the context verdicts (a sentence of a chunk: the
 * Christmas-shutdown rule's "staff" does not answer "staff discount?").
 */
export function halfOfPhrase(part: ReadonlyMap<string, number>, phrases: readonly (readonly [string, string])[], held: (stem: string) => boolean): boolean {
  if (part.size !== 2) return false;
  const [first, second] = [...part.keys()] as [string, string];
  if (!phrases.some(([a, b]) => (a === first && b === second) || (a === second && b === first))) return false;
  return held(first) !== held(second);
}

/** A stem sharing its first five letters with a unit's stem ("motorbik" / "motorcycl") counts this much. */
const PREFIX_WEIGHT = 0.5;

function sharesPrefix(stems: ReadonlySet<string>, stem: string): boolean {
  if (stem.length < 6 || /\d/.test(stem)) return false;
  const prefix = stem.slice(0, 5);
  for (const other of stems) if (other.length >= 6 && other.startsWith(prefix)) return true;
  return false;
}

const HEADING_WEIGHT = 0.5;

/**
 * Thresholds of the context verdicts: a chunk `answers` when one of its sentences covers at least
 * `answers` of the question's topic (weighted) and holds the kind of figure a "how many / how much /
 * when" question asks for; it is `related` when one of its sentences covers at least `related`,
 * figure or not. (Sentence-level, because on SciFact's BM25 hard negatives, abstracts that share
 * the claim's words here and there, whole-passage coverage told them apart less well: balanced
 * accuracy 0.56 against 0.57, train split.)
 */
export const CONTEXT_THRESHOLDS = { answers: 0.5, related: 0.4 } as const;

/** Whether a unit holds the kind of value the question asks for ("how often": a figure, or a frequency in words, v78). */
export function unitHoldsKind(kind: AnswerKind, unit: EvidenceUnit, howOften = false): boolean {
  if (kind === 'quantity') return unit.quantities.some((entry) => entry.quantity.kind === 'number') || (howOften && FREQUENCY.test(unit.text));
  if (kind === 'time') return unit.quantities.length > 0;
  return true;
}

/**
 * One verdict per chunk passage, in evidence order (reference passages get none: they are not
 * what retrieval returned).
 */
export function judgeContexts(reading: QuestionReading, evidence: readonly EvidencePassage[], units: readonly EvidenceUnit[]): JudgedContext[] {
  return evidence
    .filter((passage) => passage.kind === 'chunk')
    .map((passage) => {
      const { best, near } = chunkCoverage(reading, units.filter((unit) => unit.passageId === passage.id));
      const verdict: ContextVerdict = best >= CONTEXT_THRESHOLDS.answers ? 'answers' : near >= CONTEXT_THRESHOLDS.related ? 'related' : 'unrelated';
      const whole = near;
      const title = passageParts(passage).title;
      return { chunkId: passage.id, verdict, note: `${verdict === 'answers' ? 'a sentence' : 'the passage'} covers ${Math.round(100 * (verdict === 'answers' ? best : whole))}% of the question's topic${title ? ` (${title})` : ''}` };
    });
}

/**
 * How much of the question one chunk's sentences cover (`own`: the chunk's units): `best`, the
 * most any sentence holding the kind of value asked for covers (what `answers` needs), and
 * `near`, the most any of its sentences covers (what `related` needs). Each of the question's
 * parts is tried, as is the whole topic.
 */
export function chunkCoverage(reading: QuestionReading, own: readonly EvidenceUnit[]): { best: number; near: number } {
  // A table's lead-in ("Hotels must not exceed these caps:") holds the figures of its rows (v19).
  const tableHoldsKind = own.some((unit) => unit.row !== null && unitHoldsKind(reading.kind, unit, reading.howOften));
  const fitting = own.filter((unit) => unitHoldsKind(reading.kind, unit, reading.howOften) || (tableHoldsKind && unit.row === null && /:\s*$/.test(unit.text)));
  // A chunk answers the question when it answers one of the things the question asks.
  // A sentence holding one word of a two-word phrase that is the whole topic ("staff" of "staff
  // discount?") speaks of another thing: at most related (v113, `halfOfPhrase`).
  const answering = (topic: ReadonlyMap<string, number>, unit: EvidenceUnit) => {
    const coverage = unitCoverage(topic, unit, reading.analysis.written, reading.wordStems);
    const holds = (stem: string) => unitCredit(stem, unit, reading.analysis.written, reading.wordStems) > 0;
    return coverage >= CONTEXT_THRESHOLDS.answers && halfOfPhrase(topic, reading.phrases, holds) ? Math.min(coverage, CONTEXT_THRESHOLDS.related) : coverage;
  };
  const topics = [reading.topic, ...reading.parts];
  const best = Math.max(0, ...topics.flatMap((topic) => fitting.map((unit) => answering(topic, unit))));
  const near = Math.max(0, ...topics.flatMap((topic) => own.map((unit) => unitCoverage(topic, unit, reading.analysis.written, reading.wordStems))));
  return { best, near };
}

/**
 * Chunks that state the rule for a figure the question names (v11): a chunk `answers` when one of
 * its sentences gives a figure that the question's own figure agrees with (the same amount, or a
 * condition range holding it: "£6,000" in "training that costs more than £5,000 needs sign-off",
 * "£70" in "any gift worth more than £50 must be recorded"; a limit, "up to £2,500", only when
 * it is that figure) and that figure's own words (its context) share a word with the question's
 * topic. That is the case the question's words alone miss: a person asking about their £6,000
 * programme words it unlike the rule for training over £5,000. Counts ("two tickets") and dates
 * are left out: a count pins no rule, and a date is read as a bound, which holds too much. Applied
 * after answer relevance is read, which keeps to the word-coverage verdicts (its relative bar is
 * set by the best sentence's coverage, which here may be low). Upgrades, never downgrades.
 *
 * @example
 * figureAnchoredContexts(readQuestion('My department wants to fund a £6,000 course for me. What sign-off do I need?', units), contexts, units)
 * // the over-£5,000 training chunk: { verdict: 'answers', note: 'a sentence states the rule for the question\'s £6,000 (more than £5,000)' }
 */
export function figureAnchoredContexts(reading: QuestionReading, contexts: readonly JudgedContext[], units: readonly EvidenceUnit[]): JudgedContext[] {
  const asked = reading.analysis.quantities.filter(({ quantity }) => quantity.kind === 'number' && quantity.dimension !== 'count' && !quantity.dimension.startsWith('label:') && quantity.low === quantity.high);
  if (asked.length === 0) return [...contexts];
  return contexts.map((context) => {
    if (context.verdict === 'answers') return context;
    for (const unit of units) {
      if (unit.passageId !== context.chunkId) continue;
      for (const { quantity: question } of asked) {
        const stated = unit.quantities.find(({ quantity, context: words }) => relate(question, quantity) === 'agree' && [...words].some((stem) => reading.topic.has(stem)));
        if (stated) return { ...context, verdict: 'answers', note: `a sentence states the rule for the question's ${question.text} (${stated.quantity.text})` };
      }
    }
    return context;
  });
}

/**
 * Chunks that hold the answer, found from the reference answer of an offline eval: a chunk whose
 * sentence states one of its claims (see `referenceGrounds` in `heuristic-judge.ts`) holds what the
 * question asks, however differently the question is worded, as a context-recall check reads it;
 * a refusal is then right only when no retrieved chunk states the reference. `grounds` maps chunk
 * ids to the note to give. Upgrades `related` / `unrelated` chunks to `answers`, never downgrades.
 * (Grounding chunks in the answer's own verified claims was tried and dropped: it turned the claim
 * rules' misses into "correct" outcomes, and HaluEval's hallucinated answers won 3.4% of pairs
 * instead of 2.0%.)
 */
export function groundedContexts(contexts: readonly JudgedContext[], grounds: ReadonlyMap<string, string>): JudgedContext[] {
  return contexts.map((context) => {
    const why = grounds.get(context.chunkId);
    if (context.verdict === 'answers' || why === undefined) return context;
    return { ...context, verdict: 'answers', note: why };
  });
}

/**
 * The question with each acronym the evidence does not write replaced by the words the evidence
 * spells it out with (`acronymTable` over its section headings and text: "SPL" → "shared parental
 * leave", "2FA" → "two factor authentication"), as retrieval and the offline answerer read it.
 */
export function withAcronymsSpelledOut(question: string, units: readonly EvidenceUnit[]): string {
  return spellOutAcronyms(question, {
    written: (keys) => new Set(keys.filter((key) => units.some((unit) => hasStem(unit.passageStems, key)))),
    // The section heading (the heading text is "Title. Section"), as retrieval reads it: a document's title is not read.
    spellings: () => acronymTable(units.map((unit) => ({ heading: unit.headingText.split(/\.\s+/).at(-1) ?? '', text: unit.text }))),
  });
}
