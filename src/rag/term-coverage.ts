import { questionTerms, type QuestionTerm } from '../text/question-terms.js';
import { compoundSplits } from '../text/compounds.js';
import { ALSO_WRITTEN_AS, DOCUMENT_WORDS, IRREGULAR_STEMS } from '../text/specifics.js';
import { stem } from '../text/text.js';
import { irregularBases } from '../text/wordnet.js';
import type { TermCoverageSummary } from '../contract/trace.js';
import type { GroundcheckIndex } from './store.js';

/**
 * The question's words as retrieval and its gate read them: `questionTerms` with sentences typed
 * in lower case split too ("my sons laptop died. can he borrow my work laptop?": only the second
 * sentence asks). The offline answerer reads the question without that split (METHODOLOGY.md,
 * "The relevance gate": splitting there too made it answer from the wrong sentence).
 */
export function gateTerms(question: string): QuestionTerm[] {
  return questionTerms(question, { typedSentences: true });
}

/**
 * Words of the question that are close in meaning to some word of the corpus, for the words that
 * occur nowhere in it ("flu" and "illness"). Given the question's uncovered words, resolve to the
 * ones it found a close match for. The offline default has none: only word forms are compared.
 */
export type MeaningMatcher = (words: readonly string[], index: GroundcheckIndex) => Promise<ReadonlySet<string>>;

export interface TermCoverageOptions {
  /** Check the question's topic words against the corpus vocabulary before answering. [enabled=true] */
  enabled?: boolean;
  /** Rescues uncovered words that mean something the corpus talks about. [closeInMeaning=none] */
  closeInMeaning?: MeaningMatcher;
}

/**
 * The term-coverage half of the relevance gate: which topic words of the question's asking clause
 * (see `questionTerms`) occur nowhere in the corpus, in no close form ("monthly" for "month") and, when a {@link MeaningMatcher} is given, in nothing close in meaning.
 * A question about something the corpus never names ("Can I be paid in bitcoin?") cannot be
 * answered from it, however well its other words ("paid", "salary") match; the similarity gate
 * cannot see that, because those other words make the pay-day chunk look relevant.
 *
 * Read from the index's full-text vocabulary, so it is always current with the corpus and costs a
 * few point lookups per question.
 *
 * @example
 * await checkTermCoverage(index, 'Can I get paid in bitcoin?') // { checkedTerms: 1, uncoveredTerms: ['bitcoin'] }
 */
export async function checkTermCoverage(index: GroundcheckIndex, question: string, options: TermCoverageOptions = {}): Promise<TermCoverageSummary> {
  return coverageOfTerms(index, gateTerms(question), options);
}

/**
 * {@link checkTermCoverage} over a question already read by `questionTerms`, so retrieval reads
 * each question once for its gate and its search ({@link withCloseForms}).
 */
export async function coverageOfTerms(index: GroundcheckIndex, terms: readonly QuestionTerm[], options: TermCoverageOptions = {}): Promise<TermCoverageSummary> {
  // The words the gate looks up: the asking clause's topic words, less verbs, words said of something and words of the question's form.
  const topic = terms.filter((term) => term.kind === 'topic' && term.asking && !term.verbLike && !term.verbAfterSubject && !term.formWord && !term.predicative);
  if (topic.length === 0) return { checkedTerms: 0, uncoveredTerms: [] };
  // An irregular form the stemmer leaves apart ("went", "goes") is also looked up as its base form.
  // So is a noun's other name in documents ("fine": "penalty", "charge"; `ALSO_WRITTEN_AS`).
  // WordNet's exception lists give the base of any other irregular form ("found": "find"; 2026-12-05).
  const lookedUp = topic.map((term) => [term.stem, IRREGULAR_STEMS.get(term.word), ...irregularBases(term.word).map(stem), ...(ALSO_WRITTEN_AS.get(term.word) ?? [])].filter((form): form is string => form !== undefined));
  const frequencies = index.corpusStatistics().documentFrequencies(lookedUp.flat());
  let uncovered = topic
    .filter((term, at) => !lookedUp[at]!.some((form) => frequencies.has(form)) && closeForms(index, term.stem).length === 0 && splitCompound(index, term.word) === null)
    .map((term) => term.word);
  if (uncovered.length > 0 && options.closeInMeaning) {
    const rescued = await options.closeInMeaning(uncovered, index);
    uncovered = uncovered.filter((word) => !rescued.has(word));
  }
  return { checkedTerms: topic.length, uncoveredTerms: uncovered };
}

/**
 * The corpus stems that are the same word as `stem` in another form: equal up to its fifth letter
 * and at most two letters longer or shorter ("month"/"monthli", "motorbik"/"motorcycl").
 * Deliberately narrow: "membership" is not "member", "party" is not "part", "shower" is not "show".
 * None for a stem of fewer than five letters.
 */
function closeForms(index: GroundcheckIndex, stem: string): string[] {
  if (stem.length < 5) return [];
  return index.vocabularyWithPrefix(stem.slice(0, 5)).filter((term) => Math.abs(term.length - stem.length) <= 2);
}

/**
 * Whether two stems sharing their first five letters are one word in two forms, as searching
 * reads them: one is the other with an ending ("month"/"monthli", "complain"/"complaint",
 * "prepai"/"prepay": Porter's final "y" or "i"), or both go on with a part of three letters or
 * more ("motorbik"/"motorcycl": the second halves of a compound). Not two words that part at
 * their last letters ("matern"/"materi", "carriag"/"carrier"): searching "maternity" as
 * "material" sent "How much maternity pay do I get?" to a rule on offensive material
 * (2026-12-07). The gate's check keeps the wider reading (a word it lets through in that way is
 * then searched as written).
 */
export function sameWordOrCompound(a: string, b: string): boolean {
  const plain = (word: string) => word.replace(/y$/, 'i');
  const [x, y] = [plain(a), plain(b)];
  let shared = 0;
  while (shared < x.length && shared < y.length && x[shared] === y[shared]) shared += 1;
  const restA = x.length - shared;
  const restB = y.length - shared;
  return restA === 0 || restB === 0 || (restA >= 3 && restB >= 3);
}

/**
 * The two words a closed compound is written as in the corpus, when it is written apart there:
 * "checkout" for "check-out", "wifi" for "Wi-Fi", "carpark" for "car park" (2026-12-05). Only a
 * split (`compoundSplits`: two letters or more, or the prefix "e") whose two halves stand side by
 * side in some chunk counts, so "suitcase" is no "suit case" unless the corpus says so. `null` when there is none.
 */
export function splitCompound(index: GroundcheckIndex, word: string): [string, string] | null {
  if (!/^[a-z]+$/.test(word)) return null;
  const splits = compoundSplits(word);
  if (splits.length === 0) return null;
  const known = index.corpusStatistics().documentFrequencies(splits.flat().map((part) => stem(part)));
  for (const [first, second] of splits) {
    if (known.has(stem(first)) && known.has(stem(second)) && index.holdsPhrase([first, second])) return [first, second];
  }
  return null;
}

/**
 * The question with, after it, the corpus's close form of each of the asking clause's topic words
 * (those the gate looks up, and its verbs) that the corpus vocabulary lacks but holds in a close
 * form (as {@link checkTermCoverage} reads them: "complain" for "Complaints"), so that searching
 * finds what the gate let through (2026-12-05). Before, "how do I complain?" passed the
 * term-coverage gate on "complaint", but neither the full-text search (the Porter stems differ)
 * nor the hashed embedder (a word the corpus lacks weighs nothing) found a chunk, and the question
 * was refused for similarity. Of several close forms, the one in most chunks; words of fewer than
 * five letters are left as they are. `terms`: the question read by `questionTerms`, when the
 * caller has it.
 */
export function withCloseForms(index: GroundcheckIndex, text: string, terms: readonly QuestionTerm[] = gateTerms(text)): string {
  // The gate's words and the asking clause's verbs ("how do I complain?": the verb is the topic).
  const asked = terms.filter(namesAskedTopic);
  const stems = [...new Set(asked.map((term) => term.stem).filter((wordStem) => /^[a-z]+$/.test(wordStem)))];
  if (stems.length === 0) return text;
  const statistics = index.corpusStatistics();
  const known = statistics.documentFrequencies(stems);
  const added: string[] = [];
  for (const wordStem of stems) {
    if (known.has(wordStem)) continue;
    // A noun the documents call otherwise is searched as they call it ("fine": "penalty").
    const word = asked.find((term) => term.stem === wordStem)!.word;
    const otherNames = (ALSO_WRITTEN_AS.get(word) ?? []).filter((other) => statistics.documentFrequencies([other]).has(other));
    if (otherNames.length > 0) {
      added.push(...otherNames);
      continue;
    }
    const forms = closeForms(index, wordStem).filter((term) => /^[a-z]+$/.test(term) && sameWordOrCompound(wordStem, term));
    if (forms.length === 0) {
      // A compound the corpus writes apart ("checkout": "check-out") is searched as its two words.
      const parts = splitCompound(index, word);
      if (parts !== null) added.push(...parts);
      continue;
    }
    const found = statistics.documentFrequencies(forms);
    added.push(forms.reduce((best, form) => ((found.get(form) ?? 0) > (found.get(best) ?? 0) ? form : best)));
  }
  return added.length === 0 ? text : `${text} ${added.join(' ')}`;
}

const DOCUMENT_WORD = new RegExp(`\\b(?:${DOCUMENT_WORDS.join('|')})\\b`, 'gi');

/**
 * The search text without words for the documents themselves ("policy", "rules", "procedure",
 * "process", "guidelines"), when the question names a topic besides them: "What's the sick pay
 * policy?" is searched as "What's the sick pay?". Document titles carry those words ("Leave
 * Policy"), so both the full-text search and the hashed embedder ranked every chunk of the leave
 * policy above the one on company sick pay. A question about the documents alone ("what policies
 * are there?") keeps them. The gate already skips these words (`QuestionTerm.formWord`).
 */
export function withoutDocumentWords(text: string, terms: readonly QuestionTerm[]): string {
  if (!terms.some(namesAskedTopic)) return text;
  return text.replace(DOCUMENT_WORD, ' ').replace(/ {2,}/g, ' ').trim();
}

/** A topic word of the asking clause that is not a word of the question's form (what `withCloseForms` searches for). */
function namesAskedTopic(term: QuestionTerm): boolean {
  return term.kind === 'topic' && term.asking && !term.formWord;
}
