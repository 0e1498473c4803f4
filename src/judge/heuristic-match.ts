import { hasVerb } from './claims.js';
import { escapeRegExp, stem } from '../text/text.js';
import { loadWordNet } from '../text/wordnet.js';
import { identifierConflict, identifiersOf } from './heuristic-identifiers.js';
import { SUPERSEDED_MARKER, analyze, analyzeClaim, figureKind, type Analysis, type QuantityInContext, type RowFieldWords, type Segment } from './heuristic-analysis.js';
import { MONEY_DIMENSIONS, isUnitWord, relate, type Quantity, type Relation } from './heuristic-quantities.js';
import type { EvidenceUnit } from './heuristic-units.js';
import { readTableRow } from './table-row.js';
import type { JudgedClaim } from './types.js';
import { hasStem } from './heuristic-tokens.js';
import { spelledOut } from './heuristic-acronyms.js';
import { hasPhraseSynonym, hasSynonym, isSplitCompound, phraseSynonyms } from './heuristic-synonyms.js';
import { foundAsBound, foundByClass } from './heuristic-word-classes.js';
import { givenDetails, restatedCondition } from './heuristic-given.js';
import { BOTH_WAYS, clauseBefore, claimedComparisons, workedFigures, workedFrom, type AnswerWorking, type WorkedFigures } from './heuristic-arithmetic.js';

/**
 * The heuristic verdict for one claim (the rules are in METHODOLOGY.md):
 * - *verified* when some evidence unit covers ≥ {@link VERIFY_COVERAGE} of its content stems
 *   (title and section words count), holds every name in it, agrees on every figure and has the
 *   same polarity;
 * - otherwise *contradicted* when the best-matching unit(s) cover ≥ {@link SUBJECT_COVERAGE} of its
 *   subject but disagree on a figure or on negation;
 * - otherwise *absent*.
 */
export const VERIFY_COVERAGE = 0.8;
export const SUBJECT_COVERAGE = 0.6;
/**
 * The coverage a claim that states figures needs, when every figure agrees with the unit's figure
 * for the same thing: the figures pin the claim to the sentence, so one word in four may be the
 * answer's own ("you can *spend* up to £75 a head" for "limited to £75 per head"). Prose only: in
 * a table row the word a claim lacks is usually the row's label, the very thing the figure is for
 * ("the motorcycle rate is 45p" against the car row).
 */
export const FIGURE_VERIFY_COVERAGE = 0.75;
/**
 * A bare answer ("Delhi", "16 weeks", "President Richard Nixon") — a fragment of at most this many
 * words with no verb, and not a table row — is a claim about the question: "the answer to
 * <question> is Delhi".
 */
export const BARE_CLAIM_WORDS = 6;
/**
 * A claim with at least this many content stems usually merges several facts (typical of written
 * answers); it may be verified by a sentence together with its neighbours. A shorter claim states
 * one fact, which one sentence (or a sentence and the one referring back to it) must state.
 */
export const NEIGHBOURHOOD_MIN_STEMS = 8;
/**
 * Light words: adverbs and indefinite words that carry no fact of their own in a claim ("it is
 * currently £30", "anything more needs approval", "plus"), as Porter stems.
 */
const LIGHT_STEMS: ReadonlySet<string> = new Set([
  'current', 'now', 'todai', 'still', 'alreadi', 'ever', 'everi', 'anyth', 'someth', 'everyth', 'anyon', 'someon', 'plu', 'like', 'toward', 'sinc',
  'beforehand', 'just', 'realli', 'actual', 'also', 'simpli', 'exactli', 'alright', 'ok', 'okai', 'sure', 'thing', 'lot', 'bit',
  // Focus adverbs (v16): "even if nobody calls you out", "don't forward it either".
  'even', 'either', 'too',
  // A figure's value (v37): "3 days' worth", "a bike worth up to £2,500"; the figure is compared anyway.
  'worth',
  // Hedges (v38): "Possibly, through income protection" states what "through income protection" does.
  'possibl', 'probabl', 'mayb', 'perhap',
  // Verbs of not doing (v38, `AVOIDING`): their negation is compared; the verb states nothing else.
  'avoid', 'skip',
  // "mid-November" (v43): the date is compared as a date, "mid" adds nothing to check.
  'mid',
  // The speaker's attitude (v48): "Unfortunately yes - at £1,200 it's above the threshold".
  'unfortun', 'fortun', 'luckili', 'sadli', 'thankfulli', 'happili', 'annoyingli', 'honestli',
  // The light verb "do" as a participle (v84): "it has to be done by 31 March" states what "complete it by 31 March" does.
  'done',
  // "Together you can share up to 50 weeks" (v84): what "share … between them" says; the figure is compared anyway.
  'togeth',
  // Chat spellings of yes and no (v92): "And nope, …", "Yep, …" state what "no" and "yes" do.
  'nope', 'yep', 'yup', 'yeah',
  // Indefinite and discourse words (v107): "Whatever you still owe on the bike comes out of your final pay".
  'whatev', 'whichev', 'anywai', 'obvious', 'certainli',
]);

const EMPTY: ReadonlySet<string> = new Set();

/**
 * Whether a clause states nothing to check: no figure, and no word but light ones ("Probably yes.",
 * "Maybe.", "Yes, probably."), like a bare "Yes." (v58). Such a clause was verified by whichever
 * sentence came first, every one of its words being "found".
 */
export function statesNothing(claim: Analysis): boolean {
  return claim.quantities.length === 0 && claim.stems.every((stem) => LIGHT_STEMS.has(stem));
}

/**
 * Fixed expressions that join or frame what a claim states and state nothing themselves (v45):
 * "as long as" (if), "so far", "bear in mind", "of course", "in fact", "I'm afraid". Their
 * content words ("long", "far", "mind") are no words of the claim to look for: "as long as you opt
 * out within a month" states the condition, not a length. Not "on top of" or "as well": they say
 * that something is in addition, which a claim can get wrong ("given on top of your annual leave").
 */
const DISCOURSE_PHRASES: readonly RegExp[] = [
  /\bas (long|far) as\b/gi,
  /\bso (far)\b/gi,
  /\b(bear|keep) in (mind)\b/gi,
  /\bof (course)\b/gi,
  /\bin (fact)\b/gi,
  /\bby the (way)\b/gi,
  /\bin any (case)\b/gi,
  /\bto be (honest)\b/gi,
  /\b(?:i'm|i am) (afraid)\b/gi,
  // "on this one" (v92): the thing the question asks about, by pronoun.
  /\b(?:on|for|with) (?:this|that) (one)\b(?!\s+(?:of|day|week|month|year|time)\b)/gi,
  // "Afraid not." / "Afraid so." (v92): "I'm afraid" without its subject.
  /(?:^|[.!?;,]\s*|\b(?:and|but|so)\s+)(afraid)\s+(?:not|so)\b/gi,
  /\b(mind) you\b/gi,
  // "one" standing for a thing already named (v105): "your gmail one", "a work one", "put another
  // one in", "do one now", "this one's paid for". Not a count: not after "only", "just", "at least",
  // "than", "exactly", a figure or a unit word ("day one", "week one"), and not before a noun.
  /(?<!\b(?:only|just|least|than|exactly|max|maximum|most|no|number|day|week|month|year|grade|level|step|stage|phase|page|option|room|floor|tier|of|to|under|over|about|around|\d+)\s+(?:\S+\s+)?)\b(?<=\b(?:a|an|another|the|this|that|your|my|his|her|their|our|its|which|each|any|new|old|\p{L}+)\s+)(one)(?=\s*$|\s*[.,;:!?)]|['’]s\b|\s+(?:now|yourself|myself|yet|too|instead|again|then|in|for|from|at|with|on|off|up|out|back|this|that|if|when|so|and|but|or|is|was|will|would|should|can|could|has|had|goes|comes|counts|works)\b)/giu,
  // "That makes 52 weeks in total": the figure is compared; "makes" only sums up (v47).
  /\b(?:that|which|this|it) (makes)\b/gi,
];

/** Stems of the claim's words that only make up a discourse expression ({@link DISCOURSE_PHRASES}). */
export function discourseStems(text: string): string[] {
  const stems: string[] = [];
  for (const pattern of DISCOURSE_PHRASES) {
    for (const match of text.matchAll(pattern)) for (const word of match.slice(1)) if (word) stems.push(stem(word.toLowerCase()));
  }
  return stems;
}

/** Units scoring within this of the best all count as the best match when looking for a contradiction. */
const TIE_MARGIN = 0.05;
/** A pair of sentences must match clearly better than one sentence to be preferred. */
const PAIR_PENALTY = 0.9;

type FigureRelation = 'agree' | 'disagree' | 'unsupported' | 'missing';

interface FigureComparison {
  relation: FigureRelation;
  claim: string;
  evidence: string;
  /** Agreeing because the answer worked it out from the question's figures (v13), not because the unit states it. */
  worked?: true;
  /** The evidence figure it disagrees with. */
  stated?: Quantity;
}

interface Assessment {
  unit: EvidenceUnit;
  /** How well the unit matches the claim's subject: sentence words count fully, heading words half. */
  score: number;
  coverage: number;
  missing: string[];
  missingNames: string[];
  polarity: string | null;
  figures: FigureComparison[];
  subjectCovered: boolean;
  aboutQuestion: boolean;
  /** For a bare answer: its words appear together in one sentence (see {@link appearsAsPhrase}). */
  asPhrase: boolean;
  /** Whether the unit with its neighbouring sentences verifies the claim (names still in the unit itself). */
  neighbourhoodVerifies: boolean;
  /** …through the rows of the unit's table, the claim stating several of them (v107, {@link rowsVerify}). */
  rowsVerified: boolean;
  /** Claim and unit are table rows and a column they share holds a different cell. */
  rowMismatch: boolean;
  /** …and they are the same row (same label): the claim misstates that row. */
  rowConflict: string | null;
  /** Claim stems the unit holds only through a WordNet synonym (v16). */
  bySynonym: readonly string[];
}

/**
 * A claim whose subject is a pronoun for what was asked ("It went up to £30 in October", "No, it's
 * 20 weeks now", "That's £8 a day"): the pronoun stands for the question's topic.
 */
export const PRONOUN_SUBJECT = /^(?:(?:yes|no|not any ?more|nope|yep)\b[\s,.:;!-]*)?(?:it|that|this)(?:'s|\s)/i;

/**
 * A claim that opens with its figure, with no subject ("At most 22.5 hours, which is 3 days'
 * worth.", "Up to £300, with receipts."): an answer's fragment, whose figure is what was asked,
 * like a pronoun subject's (v37).
 */
const FIGURE_FIRST = /^(?:(?:yes|no)\b[\s,.:;!-]*)?(?:(?:at (?:most|least)|up to|about|around|roughly|only|just|exactly|no (?:more|less|fewer) than|(?:more|less|fewer) than|over|under)\s+)?(?:[£$€]\s?)?\d/i;

/**
 * The claim's figures with their context. A bare answer's figure ("16 weeks") is about what the
 * question asks, and so is the figure of a claim whose subject is a pronoun for it: the question's
 * words are its context too (v9). When such a claim has words of its own for the figure ("It can
 * be extended once by up to 4 weeks"), those decide which evidence figure it means and the
 * question's weigh half (`asked`, v34): the question ("How long does a PIP normally last?") is
 * about another figure of the same sentence ("usually lasts 8 weeks").
 */
function figuresAboutQuestion(text: string, claim: Analysis, questionStems: readonly string[], bare: boolean): readonly QuantityInContext[] {
  if (!bare && !PRONOUN_SUBJECT.test(text.trim()) && !FIGURE_FIRST.test(text.trim())) return claim.quantities;
  // A bare answer's figure with words of its own ("then 13 weeks unpaid" in a list) is matched by
  // them first, the question's words at half weight, like a claim about "it" (v47).
  return claim.quantities.map(({ quantity, context }) =>
    context.size === 0 ? { quantity, context: new Set(questionStems), fromQuestion: true as const } : { quantity, context, asked: new Set(questionStems.filter((stem) => !context.has(stem))) },
  );
}

/**
 * A bare answer: a short fragment with no verb (`BARE_CLAIM_WORDS`), not a table row, read as "the
 * answer to the question is …". An instruction is not one (v53): "Ring your line manager by
 * 09:30", "Email privacy@… within 1 hour" open with a verb in its base form followed by its object,
 * and state what to do, as a sentence does.
 */
function isBareAnswer(text: string, questionStems: readonly string[]): boolean {
  return (
    questionStems.length > 0 &&
    text.trim().split(/\s+/).length <= BARE_CLAIM_WORDS &&
    !hasVerb(text) &&
    !STATEMENT.test(text) &&
    !hasPluralSubjectVerb(text) &&
    !isInstruction(text) &&
    readTableRow(text) === null
  );
}

/**
 * A plural subject and a verb after it that is only a verb ("all rentals include 24-hour breakdown
 * cover", v77): a statement, as `hasVerb`'s third-person forms ("includes") are. WordNet says which
 * words are verbs and never nouns, so "weekly rentals cover" (a noun too) is not read as one.
 */
function hasPluralSubjectVerb(text: string): boolean {
  const wordNet = loadWordNet();
  for (const match of text.matchAll(/\b\p{L}{3,}s\s+(\p{L}{3,})\b/gu)) {
    const word = match[1]!.toLowerCase();
    if (wordNet.lemmas(word, 'verb').includes(word) && wordNet.lemmas(word, 'noun').length === 0) return true;
  }
  return false;
}

/**
 * A short sentence whose verb is not in `hasVerb`'s list (v70): a subject pronoun and the word
 * after it ("we reply within 10 working days"), or a word in -s before a figure ("towel hire costs
 * £2 at reception"), or a plural subject's verb of price before one ("extra miles cost 25p per
 * mile", v77). It states something, as a sentence does: it is no bare answer to the question.
 */
const STATEMENT = /(?:^|[\s,;:(])(?:we|you|they|he|she|i)\s+(?!and\b|or\b)\p{L}{3,}\b|\b\p{L}{3,}s\s+(?:[£$€]\s?\d|\d)|\b(?:cost|charge|pay|earn)\s+(?:(?:up to|at least|only|just|about|around)\s+)?(?:[£$€]\s?\d|\d)/iu;

const OBJECT_START = /^(?:it|them|him|her|us|me|your|the|a|an|this|that|these|those|their|his|our|[\w.+-]+@[\w.-]+|\p{Lu}{2,})\b/u;

function isInstruction(text: string): boolean {
  const words = text.trim().replace(/^(?:(?:yes|no|just|please|so|then)[,!]?\s+)+/i, '').split(/\s+/);
  const [first, second] = [words[0]?.toLowerCase().replace(/[^a-z]/g, '') ?? '', words[1] ?? ''];
  if (first === '' || second === '' || !OBJECT_START.test(second)) return false;
  return loadWordNet().lemmas(first, 'verb').includes(first);
}

export interface JudgeClaimOptions {
  /**
   * Days of the week the asker named outside the clause that asks ("off sick since Monday … can I
   * self-certify?"), as stems: their calendar, which no sentence need name (v94). Not a day the
   * asking clause names ("Do we get a free lunch on Fridays?": the day is what is asked about).
   */
  askersDays?: ReadonlySet<string>;
  /** The whole answer, for arithmetic worked over several of its sentences (v114). */
  answer?: AnswerWorking;
}

/**
 * Judge one claim against the evidence units, with the question as context for bare answers and for
 * claims about "it".
 *
 * @example
 * judgeClaim('Parental leave is 16 weeks', analyze('Parental leave is 16 weeks'), units, analyze(question))
 * // { verdict: 'contradicted', evidenceChunkId: 'leave-policy#parental-leave', note: '… says 20 weeks, not 16 weeks' }
 */
export function judgeClaim(text: string, claim: Analysis, units: readonly EvidenceUnit[], question: Analysis | null, options: JudgeClaimOptions = {}): JudgedClaim {
  const questionStems = question ? question.stems.filter((stem) => !claim.stemSet.has(stem)) : [];
  // A table row ("Stage: Calibration; Deadline: February") names its own subject in its label.
  const bare = isBareAnswer(text, questionStems);
  // "£80 is under the £50 limit": the claim's own comparison of two of its figures is false, whatever
  // sentences state each figure (v108). When it holds ("£80 is over the £50 you can give without
  // approval"), the bound is the rules' figure, and also agrees as the number it names ("up to £50").
  const comparisons = claimedComparisons(text, claim.quantities.map((entry) => entry.quantity));
  const falseComparison = comparisons.find((comparison) => !comparison.holds);
  const bounds = new Set<Quantity>(comparisons.map((comparison) => comparison.bound));
  const figures = figuresAboutQuestion(text, claim, questionStems, bare)
    .map((entry) => (bounds.has(entry.quantity) ? { ...entry, named: namedFigure(entry.quantity) } : entry))
    // A figure stated in the past tense ("it was £20 until 30 September 2025") may rest on one no longer in force (v110).
    .map((entry) => (statedInPast(text, entry.quantity) ? { ...entry, past: true as const } : entry));

  const given = question && !bare ? question.stemSet : EMPTY;
  const worked = workedFigures(question, units, text, comparisons, options.answer ?? null);
  // A condition restating the asker's situation ("If you think it's unfair, …") is not looked for (v16).
  const condition = new Set([...(bare || claim.row !== null ? [] : restatedCondition(text, given, (stem) => LIGHT_STEMS.has(stem))), ...discourseStems(text)]);
  const phrases = phraseSynonyms(text, claim.written);
  const names = bare ? nameParts(text) : null;
  const onlyWhen = onlyWhenStems(text);
  const verbs = workingVerbs(text, claim);
  const assessments = units.map((unit) => assess(claim, figures, unit, questionStems, bare, given, worked, condition, phrases, names, options.askersDays ?? EMPTY, onlyWhen, verbs));
  if (falseComparison) {
    const { figure, bound } = falseComparison;
    const stating = assessments
      .flatMap((assessment) => assessment.figures.filter((entry) => entry.relation === 'agree' && entry.claim === bound.text).map((entry) => ({ assessment, entry })))
      .sort((a, b) => b.assessment.score - a.assessment.score)[0];
    const where = stating ? ` (${stating.assessment.unit.passageId} states ${stating.entry.evidence})` : '';
    return { text, verdict: 'contradicted', evidenceChunkId: stating?.assessment.unit.passageId ?? null, note: `${figure.text} is not ${bound.text}${where}` };
  }
  // An address or phone number must be in the unit exactly, like a name (its parts as words are not enough).
  const claimedIds = identifiersOf(text);
  const holdsIds = (unit: EvidenceUnit) => claimedIds.every((identifier) => identifiersOf(unit.text).some((other) => other.kind === identifier.kind && other.value === identifier.value));
  // A relation noun ("Bob Barker's wife", v39), a word of proportion ("half", v44) and a word of certainty ("automatically", v87) must be found.
  const mustFind = new Set([...relationalStems(text), ...proportionStems(text), ...certaintyStems(text)]);
  const verifying = assessments
    .filter((assessment) => verifies(assessment, bare) && holdsIds(assessment.unit) && (assessment.rowsVerified || otherRowLabel(assessment, assessments, text, claim) === null) && !assessment.missing.some((stem) => mustFind.has(stem)))
    .sort((a, b) => b.score - a.score);
  // A claim stating several rows names the rows it states (v107): the one-row checks do not apply.
  const oneRow = verifying.length > 0 && !verifying[0]!.rowsVerified;
  const askedRow = oneRow && question !== null ? rowTheQuestionNames(verifying[0]!, assessments, claim, question) : null;
  if (askedRow) return { text, verdict: 'absent', evidenceChunkId: null, note: askedRow };
  const ambiguous = oneRow ? ambiguousRow(verifying[0]!, assessments) : null;
  if (ambiguous) return { text, verdict: 'absent', evidenceChunkId: null, note: ambiguous };
  // A claim about every case ("every course needs written approval", "all passwords must be changed
  // every 90 days") is not stated by a sentence about some cases ("Training costing £1,000 or more
  // needs written approval", "Privileged accounts … are rotated every 90 days") (v55).
  // The sentence's own condition, stated in the claim too ("Every course costing £1,000 or more …"),
  // makes the claim's "every" one over the same cases.
  const sameCases = (unit: EvidenceUnit) => unit.quantities.length > 0 && unit.quantities.every((stated) => claim.quantities.some((claimed) => relate(claimed.quantity, stated.quantity) === 'agree'));
  const everyCase = verifying.length > 0 ? claimsEveryCase(text) : null;
  // A claim verified by a sentence with its neighbours (two sentences joined) is read against them all (v92).
  const saysEveryCase = (assessment: Assessment) => {
    const said = assessment.neighbourhoodVerifies ? assessment.unit.neighbourhood.text : assessment.unit.text;
    return claimsEveryCase(said) !== null || ANY_CASE.test(said) || EVERY_PLACE.test(said) || sameCases(assessment.unit) || namesWholeGroup(text, said);
  };
  if (everyCase !== null && !verifying.some(saysEveryCase)) {
    return { text, verdict: 'absent', evidenceChunkId: null, note: `the claim speaks of every case ("${everyCase}"); ${verifying[0]!.unit.passageId} states it for some` };
  }
  if (verifying.length > 0) {
    const best = verifying[0]!;
    const where = best.unit.passageId;
    if (UNBOUNDED.test(text) && foundAsBound('maximum', best.unit.neighbourhood.text) && !UNBOUNDED.test(best.unit.neighbourhood.text)) {
      return { text, verdict: 'contradicted', evidenceChunkId: where, note: `${where} states a limit, the claim says there is none` };
    }
    const agreed = best.figures.map((figure) => figure.claim);
    const note = bare
      ? `the answer appears in ${where}, which is about the question`
      : `supported by ${where}${agreed.length > 0 ? ` (${agreed.join(', ')} ${agreed.length === 1 ? 'agrees' : 'agree'})` : ''}`;
    return { text, verdict: 'verified', evidenceChunkId: where, note };
  }

  // Another e-mail address or phone number than the one the passage gives for the same thing.
  const conflict = identifierConflict(text, units);
  if (conflict) return { text, verdict: 'contradicted', evidenceChunkId: conflict.unit.passageId, note: `${conflict.unit.passageId} ${conflict.note}` };
  const best = Math.max(0, ...assessments.map((assessment) => assessment.score));
  if (best === 0) return { text, verdict: 'absent', evidenceChunkId: null, note: 'no evidence sentence shares its words' };
  // A contradiction must be unambiguous: every sentence that matches the claim best contradicts it.
  // (Table rows and parallel sentences match almost equally; one of them disagreeing while another
  // fits is not a contradiction.)
  // The same row of a table, when one contends, is the one to name.
  const contenders = assessments
    .filter((assessment) => assessment.score >= best - TIE_MARGIN)
    .sort((a, b) => Number(b.rowConflict !== null) - Number(a.rowConflict !== null) || b.score - a.score);
  const contradictions = contenders.map(contradiction);
  if (contradictions.every((note) => note !== null)) {
    const statedElsewhere = figuresStatedElsewhere(contenders[0]!, assessments);
    if (!statedElsewhere) return { text, verdict: 'contradicted', evidenceChunkId: contenders[0]!.unit.passageId, note: contradictions[0]! };
    return { text, verdict: 'absent', evidenceChunkId: null, note: `${statedElsewhere}, but no evidence sentence states the whole claim` };
  }
  const anywhere = (stem: string) => assessments.some((assessment) => assessment.unit.own.has(stem) || assessment.unit.heading.has(stem));
  return { text, verdict: 'absent', evidenceChunkId: null, note: absentNote(contenders[0]!, claim, bare, anywhere) };
}

/**
 * Words that state a result of arithmetic: "comes to", "makes", "gives you £15", "adds up to",
 * "works out at", and the journey a distance is counted over ("each way", "round trip") (v114).
 */
const WORKING_VERB = new RegExp(String.raw`\b(?:comes?|came|coming)\s+(?:to|out\s+at)\b|\bmakes?\b|\bgives?\s+(?:you\s+)?(?:[£$€]|\d)|\badds?\s+up\s+to\b|\bworks?\s+out\b|` + BOTH_WAYS, 'gi');

/** The stems of a claim's verbs of working (`WORKING_VERB`). */
function workingVerbs(text: string, claim: Analysis): ReadonlySet<string> {
  const stems = new Set<string>();
  for (const match of text.matchAll(WORKING_VERB)) {
    const words = new Set(match[0].toLowerCase().split(/\s+/));
    for (const stem of claim.stems) if (words.has(claim.written.get(stem)?.toLowerCase() ?? '')) stems.add(stem);
  }
  return stems;
}

/** A past tense in the figure's clause, before it: "it was £20 until 30 September 2025", "it used to be 16 weeks". */
const PAST_BEFORE = /\b(?:was|were|used\s+to(?:\s+be)?|had\s+been)\b/i;

/** Whether the claim states the figure in the past tense (v110): its clause says "was", "were", "used to" or "had been" before it (`clauseBefore`). */
function statedInPast(text: string, figure: Quantity): boolean {
  const clause = clauseBefore(text, figure);
  return clause !== null && PAST_BEFORE.test(clause);
}

/** The number a bound names ("over the £50" → £50), as a single figure. */
function namedFigure(bound: Quantity): Quantity {
  if (bound.kind !== 'number') return bound;
  const value = Number.isFinite(bound.low) ? bound.low : bound.high;
  return { ...bound, low: value, high: value, lowInclusive: true, highInclusive: true };
}

/**
 * A bare answer written as a code of single letters ("F.E.A.R.", "R&B", "U.S."): its letters are
 * too short to be content words, so the claim rules see nothing in it to check (v27).
 */
const LETTER_CODE = /^(?:[a-z][.&/-]){1,5}[a-z]\.?$/i;

/**
 * A letter code ({@link LETTER_CODE}) as a bare answer, verified where a sentence of a passage
 * about the question writes it exactly (case aside, not inside a longer code or word) (v27).
 * `null` when the text is no letter code or no such sentence writes it: the claim stays
 * unchecked, as before, since a code can be spelt out elsewhere ("U.S." for "United States") and
 * not finding it is no sign of a fabrication.
 *
 * @example
 * judgeLetterCode('F.E.A.R.', units, analyze('What video game published by Sierra …?'))
 * // { text: 'F.E.A.R.', verdict: 'verified', evidenceChunkId: 'knowledge', note: 'the answer appears in knowledge, which is about the question' }
 */
export function judgeLetterCode(text: string, units: readonly EvidenceUnit[], question: Analysis | null): JudgedClaim | null {
  const code = text.trim();
  if (question === null || !LETTER_CODE.test(code)) return null;
  const letters = escapeRegExp(code.replace(/\.$/, ''));
  const written = new RegExp(`(?<![\\p{L}\\p{N}.&/-])${letters}(?![\\p{L}\\p{N}&/-]|\\.[\\p{L}\\p{N}])`, 'iu');
  const unit = units.find((candidate) => question.stems.some((stem) => candidate.passageStems.has(stem)) && written.test(candidate.text));
  if (unit === undefined) return null;
  return { text, verdict: 'verified', evidenceChunkId: unit.passageId, note: `the answer appears in ${unit.passageId}, which is about the question` };
}

/**
 * A claim word a table row lacks that labels another row of the same table ("Saturday" against
 * the Sundays row, when "Monday to Saturday" is a row): the claim is about that other row, so this
 * one cannot verify it, however many of its other words it holds (v29). `null` when there is none.
 */
function otherRowLabel(assessment: Assessment, assessments: readonly Assessment[], text: string, claim: Analysis): string | null {
  const row = assessment.unit.row;
  if (row === null || assessment.missing.length === 0) return null;
  // "Outside London it's £120": the claim names the other row to exclude it.
  const excluded = (missing: string) => {
    const word = claim.written.get(missing);
    return word !== undefined && new RegExp(`\\b(?:outside|except|excluding|besides|beyond|apart from|other than|not)\\b[^,.;:]*\\b${escapeRegExp(word)}\\b`, 'i').test(text);
  };
  for (const other of assessments) {
    const label = other.unit.row?.[0];
    if (other === assessment || label === undefined || other.unit.passageId !== assessment.unit.passageId || label.cell === row[0]!.cell) continue;
    const stems = new Set(label.cell.split(' ').map((word) => stem(word)));
    const named = assessment.missing.find((missing) => hasStem(stems, missing) && !excluded(missing));
    if (named !== undefined) return named;
  }
  return null;
}

/**
 * A claim that there is no limit ("for as long as you like", "unlimited", "there's no cap"): the
 * sentence that otherwise verifies it, stating a maximum ("for up to 4 consecutive weeks"),
 * contradicts it (v37).
 */
const UNBOUNDED = /\b(?:as (?:long|much|many|often) as you (?:like|want|wish|need)|unlimited|no (?:limit|cap|maximum|upper limit|ceiling)\b|not (?:limited|capped)|without (?:a |any )?(?:limit|cap))/i;

/** The content stems of a table row's label (its first cell), numbers left out. */
function labelStems(row: NonNullable<EvidenceUnit['row']>): Set<string> {
  return new Set(row[0]!.cell.split(/[^\p{L}\p{N}]+/u).filter((word) => /\p{L}{3,}/u.test(word)).map((word) => stem(word)));
}

/**
 * The question names another row of the table whose row verifies the claim, and names nothing of
 * this row's label, while the claim names no row itself (v37): "I worked 4 hours on a Sunday …
 * what rate?" answered "It's paid at time and a half" rests on the Saturday row, when the Sundays
 * row gives another figure. The asker's details pick the row; a claim that names none is read as
 * about the asker's. Not verified (`absent`): the question's row is not the one stating it.
 * `null` when the question names this row, no other, or the claim names a row.
 */
function rowTheQuestionNames(best: Assessment, assessments: readonly Assessment[], claim: Analysis, question: Analysis): string | null {
  const row = best.unit.row;
  if (row === null) return null;
  const byRank = rowTheQuestionRanks(best, assessments, claim, question);
  if (byRank !== null) return byRank;
  const own = labelStems(row);
  if (question.stems.some((stemOf) => hasStem(own, stemOf)) || claim.stems.some((stemOf) => hasStem(own, stemOf))) return null;
  for (const other of assessments) {
    const otherRow = other.unit.row;
    if (otherRow === null || other.unit.passageId !== best.unit.passageId || otherRow[0]!.cell === row[0]!.cell) continue;
    const otherLabel = labelStems(otherRow);
    if (claim.stems.some((stemOf) => hasStem(otherLabel, stemOf))) return null;
    const asked = question.stems.find((stemOf) => hasStem(otherLabel, stemOf) && !hasStem(best.unit.own, stemOf));
    if (asked !== undefined) {
      const word = question.written.get(asked) ?? asked;
      return `the question asks about "${word}", the "${otherRow[0]!.cell}" row of ${best.unit.passageId}, not the "${row[0]!.cell}" row that states it`;
    }
  }
  return null;
}

/** The ranks a table row's label gives ("After probation, grades 1 to 4": grades 1 to 4). */
function labelRanks(row: NonNullable<EvidenceUnit['row']>): Quantity[] {
  return analyze(row[0]!.written.cell).quantities.map((entry) => entry.quantity).filter((quantity) => quantity.kind === 'number' && quantity.dimension.startsWith('label:'));
}

/**
 * The asker's rank picks the row (v61): "I'm grade 3 … how much notice do I give?" answered "You
 * need to give 3 months" rests on the "grade 5 and above" row, when the "grades 1 to 4" row gives
 * another figure. When the question states a rank ("grade 3") that the verifying row's label
 * excludes and another row of the same passage includes, and the claim states no rank of its own,
 * the claim is not verified by that row. `null` otherwise.
 */
function rowTheQuestionRanks(best: Assessment, assessments: readonly Assessment[], claim: Analysis, question: Analysis): string | null {
  const rank = (quantity: Quantity) => quantity.kind === 'number' && quantity.dimension.startsWith('label:');
  const asked = question.quantities.map((entry) => entry.quantity).filter(rank);
  if (asked.length === 0 || claim.quantities.some((entry) => rank(entry.quantity))) return null;
  const fits = (row: NonNullable<EvidenceUnit['row']>): boolean | null => {
    const ranks = labelRanks(row).filter((quantity) => asked.some((entry) => entry.kind === 'number' && quantity.kind === 'number' && entry.dimension === quantity.dimension));
    if (ranks.length === 0) return null;
    return ranks.some((quantity) => asked.some((entry) => relate(entry, quantity) === 'agree'));
  };
  const row = best.unit.row!;
  if (fits(row) !== false) return null;
  const other = assessments.find(({ unit }) => unit.row !== null && unit.passageId === best.unit.passageId && unit.row[0]!.cell !== row[0]!.cell && fits(unit.row) === true);
  if (!other) return null;
  const askedText = asked.map((quantity) => quantity.text).join(', ');
  return `the question's rank (${askedText}) is in the "${other.unit.row![0]!.written.cell}" row of ${best.unit.passageId}, not the "${row[0]!.written.cell}" row that states it`;
}

/**
 * Relation nouns of a claim (v39): the noun after a name's possessive ("Bob Barker's wife") and
 * the noun of "the/a <noun> of" ("the founder of the journal", "the city of Liverpool"). Such a
 * noun is the relation the claim asserts between two things the evidence may well name together,
 * so it must be found (as written, or by a synonym or class) for a sentence to verify the claim,
 * however many other words it holds: "Bob Barker's wife was Miss USA 1968" is not what a sentence
 * about Bob Barker hosting Miss USA 1968 states. A possessive of an ordinary word ("your manager's
 * approval", "one month's notice") names no relation of this kind and is not read.
 */
function relationalStems(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/\p{Lu}\p{L}*['’]s\s+(\p{Ll}+)/gu)) found.add(stem(match[1]!));
  for (const match of text.matchAll(/\b(?:the|a|an)\s+(\p{Ll}+)\s+of\b/gu)) found.add(stem(match[1]!));
  return found;
}

/**
 * Words of proportion in a claim (v44): "half", "a third", "a quarter", "double", "twice",
 * "triple". Each scales what the claim states ("pay half of your broadband"), and no figure reader
 * takes it as a number, so like a relation noun it must be found (as written, by a synonym or a
 * class) for a sentence to verify the claim: a claim of five words may otherwise be verified
 * without it. Not in "half past" (a clock time) or "time and a half" (a rate; both figures).
 */
function proportionStems(text: string): Set<string> {
  const found = new Set<string>();
  const lower = text.toLowerCase();
  for (const match of lower.matchAll(/\b(half|third|quarter|double|twice|triple|treble)\b(?!\s+past\b)/g)) {
    if (match[1] === 'half' && /\band\s+a\s*$/.test(lower.slice(0, match.index))) continue;
    found.add(stem(match[1]!));
  }
  return found;
}

/**
 * Words of certainty in a claim (v87): "automatically", "guaranteed". Each turns what a
 * sentence allows into what always happens ("it automatically puts you on a performance
 * improvement plan" where the sentence says the manager "may"), so like a word of proportion it
 * must be found (as written, by a synonym or a class) for a sentence to verify the claim.
 */
function certaintyStems(text: string): Set<string> {
  return new Set([...text.toLowerCase().matchAll(/\b(automatically|guaranteed?)\b/g)].map((match) => stem(match[1]!)));
}

/** Whether a claim states an amount of money (v37) or a share of it ("6%", v61): its verb of paying is then found by class. */
const statesAmount = (claim: Analysis) => claim.quantities.some(({ quantity }) => quantity.kind === 'number' && (MONEY_DIMENSIONS.has(quantity.dimension) || quantity.dimension === 'percent'));

const NO_PHRASES: ReadonlyMap<string, readonly string[]> = new Map();

/**
 * Whether the text abbreviates the word: its first three to five letters followed by a full stop
 * and more text ("ext. 4000" for "extension", "approx. 20" for "approximately"; v18).
 */
function abbreviated(word: string | undefined, text: string): boolean {
  if (word === undefined || word.length < 5 || !/^[a-z]+$/i.test(word)) return false;
  for (let length = 3; length <= Math.min(5, word.length - 2); length++) {
    if (new RegExp(`\\b${word.slice(0, length)}\\.\\s+\\S`, 'i').test(text)) return true;
  }
  return false;
}

/**
 * A table row that verifies a claim only through a synonym, when a row of the same table matching
 * the claim as well holds the same synonym-found word and gives another figure (v16): "cycle" is
 * WordNet's synonym of both "bicycle" and "motorcycle", so "you can claim 24p when you cycle" fits
 * the motorcycle row exactly as "20p" fits the bicycle row. Which row the claim means is unknown,
 * so neither verifies it (absent, not contradicted: the claim may be right).
 */
function ambiguousRow(best: Assessment, assessments: readonly Assessment[]): string | null {
  if (best.unit.row === null || best.bySynonym.length === 0) return null;
  const rival = assessments.find(
    (other) =>
      other !== best &&
      other.unit.row !== null &&
      other.unit.passageId === best.unit.passageId &&
      Math.abs(other.score - best.score) <= TIE_MARGIN &&
      other.bySynonym.some((stem) => best.bySynonym.includes(stem)) &&
      other.figures.some((figure) => figure.relation === 'disagree'),
  );
  if (!rival) return null;
  const word = best.bySynonym.find((stem) => rival.bySynonym.includes(stem))!;
  return `ambiguous: "${word}" matches two rows of ${best.unit.passageId} that give different figures`;
}

/**
 * A claim that merges facts from several places ("a £30 monthly allowance, plus up to £300 for
 * equipment") can best match a sentence that holds only one of its figures. When each figure the
 * best match disagrees with is stated, for the same thing, in another sentence that contradicts
 * none of the claim (no opposite negation, no other figure disagreeing), the claim is not
 * contradicted: it is unverified (absent).
 */
function figuresStatedElsewhere(best: Assessment, assessments: readonly Assessment[]): string | null {
  if (best.polarity) return null;
  const disagreeing = best.figures.map((figure, index) => ({ figure, index })).filter(({ figure }) => figure.relation === 'disagree');
  if (disagreeing.length === 0) return null;
  const places: string[] = [];
  for (const { figure, index } of disagreeing) {
    const elsewhere = assessments.find(
      (other) =>
        other !== best &&
        // Another row of the same table is another thing ("24p" is the motorcycle's rate, not the bicycle's; v16).
        !(best.unit.row !== null && other.unit.row !== null && other.unit.passageId === best.unit.passageId) &&
        other.polarity === null &&
        !other.rowMismatch &&
        other.missingNames.length === 0 &&
        other.figures[index]?.relation === 'agree' &&
        !other.figures[index]?.worked &&
        !other.figures.some((entry) => entry.relation === 'disagree'),
    );
    if (!elsewhere) return null;
    places.push(`${figure.claim} is stated in ${elsewhere.unit.passageId}`);
  }
  return places.join('; ');
}

function contradiction(assessment: Assessment): string | null {
  if (!assessment.subjectCovered) return null;
  const where = assessment.unit.passageId;
  if (assessment.polarity) return `${where} states the opposite: ${assessment.polarity}`;
  if (assessment.rowConflict) return `${where} ${assessment.rowConflict}`;
  // A worked example's figures are its own case, not the asker's (v13): "for example, if a customer
  // site is 40 miles from home … you may claim 25 miles" does not contradict "you can claim 50 miles".
  if (EXAMPLE.test(assessment.unit.text)) return null;
  const disagreement = assessment.figures.find((figure) => figure.relation === 'disagree');
  return disagreement ? `${where} says ${disagreement.evidence}, not ${disagreement.claim}` : null;
}

/** A sentence that gives an example: its figures illustrate a rule with a case of their own. */
const EXAMPLE = /\b(?:for example|for instance|e\.g\.)/i;

/** Words after "every" / "all" that say how often, how long or how much ("every 90 days", "every completed year", "all day", "all at once", "all £12,000"). */
const TIMES = String.raw`\d|one|two|three|four|five|six|seven|eight|nine|ten|twelve|other|day|days|week|weeks|fortnight|month|months|year|years|morning|mornings|evening|evenings|night|nights|weekday|weekdays|weekend|weekends|time|times|use|quarter|hour|hours|minute|minutes|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|january|february|march|april|may|june|july|august|september|october|november|december|along|right|over|the time|of the time|at once|together|in one|of it|[£$€]`;

/** Words that make a statement about every case, unless they say how often ("every 90 days", "every completed year") or are negated ("not all"). */
const EVERY_CASE = new RegExp(String.raw`(?<!\b(?:not|nearly|almost|at)\s)\b(every(?:one|body)?|all|always)\b(?!\s+(?:[^\s;:,.!?]+\s+)?(?:${TIMES})(?:\b|(?<=[£$€])))`, 'i');

/** A rule stated for every place or group (v84): "Printers in all offices use secure print release" backs "All the office printers use it". */
const EVERY_PLACE = /\b(?:in|at|across|for)\s+(?:all|every)\s+(?:of\s+)?(?:our\s+|the\s+)?[a-z]/i;

/** Other ways a sentence states a rule for every case ("each employee", "any gift", "regardless of grade"). */
const ANY_CASE = /\b(?:each|any|anyone|anybody|anything|everything|no matter|regardless|whatever|whoever|whichever|whenever|wherever)\b/i;

/** Words after a group's name that narrow it ("employees on an on-call rota", "staff who …"). */
const NARROWING = /^(?:on|in|at|of|from|with|without|who|whom|whose|that|which|where|when|if|under|over|below|above|costing|earning|working|based|employed|hired|joining|aged|during|after|before|until|than)\b/i;
/** Words before a group's name that pick some of it ("their passwords", "these staff"). */
const PICKING = /\b(?:their|its|his|her|these|those|such|this|that|some|certain|most|many|few|other)\s*$/i;

/**
 * Whether the sentence names the group a claim quantifies over ("All field engineers get …") as a
 * whole (v59): the claim's words after "all"/"every", up to its verb, stand in the sentence with
 * nothing narrowing them after ("… field engineers and members of the Sales team") and nothing
 * picking some of them before ("Their passwords …"). A bare plural names the whole group:
 * "Company mobile phones are provided to … field engineers" backs "All field engineers get one";
 * "… to employees on an on-call rota" does not back "Every employee gets one".
 */
function namesWholeGroup(claim: string, sentence: string): boolean {
  const quantified = /\b(?:all|every)\s+((?:[a-z][a-z'-]*\s+){0,4}?[a-z][a-z'-]*?)s?\s+(?:get|gets|got|have|has|had|are|is|can|may|must|will|need|needs|should|receive|receives|do|does)\b/i.exec(claim);
  if (quantified === null) return false;
  const group = quantified[1]!.toLowerCase().replace(/(?:es|s)$/, '');
  if (group.length < 3) return false;
  const at = new RegExp(String.raw`\b${escapeRegExp(group)}(?:es|s)?\b`, 'i').exec(sentence);
  if (at === null) return false;
  const before = sentence.slice(0, at.index);
  const after = sentence.slice(at.index + at[0].length).replace(/^[,\s]+/, '');
  return !PICKING.test(before) && !NARROWING.test(after);
}

/** The word by which a text speaks of every case ("every", "all", "always"), or `null`. */
function claimsEveryCase(text: string): string | null {
  return EVERY_CASE.exec(text)?.[1] ?? null;
}

function verifies(assessment: Assessment, bare: boolean): boolean {
  if (assessment.neighbourhoodVerifies) return true;
  return (
    assessment.coverage >= (assessment.figures.length > 0 && assessment.unit.row === null ? FIGURE_VERIFY_COVERAGE : VERIFY_COVERAGE) &&
    assessment.missingNames.length === 0 &&
    !assessment.rowMismatch &&
    assessment.polarity === null &&
    assessment.figures.every((figure) => figure.relation === 'agree') &&
    (!bare || (assessment.aboutQuestion && assessment.asPhrase))
  );
}

/**
 * Whether the claim's words appear together, as a phrase, in one sentence of the unit (in any
 * order, with at most one other content word among them): a bare answer names something
 * ("Presque Isle State Park"), and finding its words scattered over a sentence ("State Park …
 * Lake Erie") does not find that name.
 */
function appearsAsPhrase(parts: readonly (readonly string[])[], unit: EvidenceUnit): boolean {
  return parts.every((named) => {
    if (named.length < 2) return true;
    const span = named.length + 1;
    return unit.sequences.some((sequence) => {
      for (let start = 0; start < sequence.length; start++) {
        const window = new Set(sequence.slice(start, start + span));
        if (named.every((stem) => hasStem(window, stem))) return true;
      }
      return false;
    });
  });
}

/**
 * The words of a bare answer that must appear together ({@link appearsAsPhrase}), part by part:
 * each part between commas names one thing ("Your People team, around week 20"), and neither a
 * light word ("Possibly, through income protection") nor a unit ("25 days a year": the figure is
 * compared on its own) is part of a name (v60).
 */
function nameParts(text: string): string[][] {
  return text
    .split(/[,;:()]/)
    .map((part) => analyzeClaim(part))
    .map((part) => part.stems.filter((stem) => !LIGHT_STEMS.has(stem) && !isUnitWord((part.written.get(stem) ?? stem).toLowerCase())));
}

function assess(
  claim: Analysis,
  figures: readonly QuantityInContext[],
  unit: EvidenceUnit,
  questionStems: readonly string[],
  bare: boolean,
  given: ReadonlySet<string>,
  worked: WorkedFigures,
  condition: ReadonlySet<string> = EMPTY,
  phrases: ReadonlyMap<string, readonly string[]> = NO_PHRASES,
  names: readonly (readonly string[])[] | null = null,
  askersDays: ReadonlySet<string> = EMPTY,
  onlyWhen: ReadonlySet<string> = EMPTY,
  workingStems: ReadonlySet<string> = EMPTY,
): Assessment {
  // Light words ("currently", "anything", "plus") state nothing of their own: they need not be found.
  // A word of a class ("need", "the company") is found where the sentence states the class (see heuristic-word-classes.ts).
  // An acronym the sentence or its heading spells out ("the EAP" for "the Employee Assistance Programme") is its words (v16).
  const acronym = (stem: string) => spelledOut(claim.written.get(stem) ?? '', unit.text) || spelledOut(claim.written.get(stem) ?? '', unit.headingText);
  const literally = (stem: string) => hasStem(unit.own, stem) || hasStem(unit.heading, stem) || LIGHT_STEMS.has(stem) || acronym(stem);
  // A two-word phrase ("straight away") is found as its WordNet synonym ("immediately"), and a word as its abbreviation ("ext.") (v18).
  const asPhrase = (stem: string) => phrases.get(stem)?.some((other) => unit.own.has(other)) === true;
  const money = statesAmount(claim);
  const compared = figures.map((figure) => orWorked(compareFigure(figure, unit.quantities, bare, claim.written, unit.passageStems, unit.heading), figure, figures, worked));
  // The unit of a figure that agrees in another unit ("within a week" against "within 7 days") is found with it (v61).
  const unitAgrees = (stem: string) => {
    const word = (claim.written.get(stem) ?? '').toLowerCase();
    return isUnitWord(word) && compared.some((comparison) => comparison.relation === 'agree' && comparison.claim.toLowerCase().includes(word));
  };
  // The verb that states a worked-out result ("4 hours comes to £120", "that makes £85") is the
  // working's, which no sentence states (v114).
  const working = compared.some((comparison) => comparison.worked === true) ? workingStems : EMPTY;
  const findsStem = (stem: string) =>
    literally(stem) ||
    working.has(stem) ||
    unitAgrees(stem) ||
    hasSynonym(unit.own, stem, claim.written, unit.passageStems) ||
    isSplitCompound(claim.written.get(stem), unit.own, unit.heading) ||
    foundByClass(stem, unit.text, money) ||
    asPhrase(stem) ||
    abbreviated(claim.written.get(stem), unit.text) ||
    hasPhraseSynonym(unit.text, stem, claim.written, unit.passageStems);
  // Asked of each stem up to five times below: decided once per stem and unit.
  const found = new Map<string, boolean>();
  const has = (stem: string) => {
    let result = found.get(stem);
    if (result === undefined) found.set(stem, (result = findsStem(stem)));
    return result;
  };
  const covered = claim.stems.filter(has);
  const bySynonym = covered.filter((stem) => !literally(stem) && hasSynonym(unit.own, stem, claim.written, unit.passageStems));
  // A detail the asker gave ("Leeds" for the "Elsewhere in the UK" row) is not missing (v13; heuristic-given.ts).
  const restated = claim.stems.filter((stem) => !has(stem) && condition.has(stem));
  const asked = givenDetails(claim, claim.stems.filter((stem) => !has(stem) && !condition.has(stem)), covered, given, unit.passageStems, (stem) => LIGHT_STEMS.has(stem));
  // A day of the week the asker gave ("off sick since Monday": "…, which for you is next Monday")
  // is their calendar, not the policy's: no sentence need name it (v94).
  const daysGiven = claim.stems.filter((stem) => !has(stem) && askersDays.has(stem));
  const details = [...restated, ...asked, ...daysGiven];
  const missing = claim.stems.filter((stem) => !has(stem) && !details.includes(stem));
  const checked = claim.stems.length - details.length;
  const coverage = checked > 0 ? covered.length / checked : 1;
  const questionCoverage = questionStems.length > 0 ? questionStems.filter(has).length / questionStems.length : 1;
  const claimMatch = claim.stems.length > 0 ? weightedCoverage(claim.stems, unit) : 0;
  const questionMatch = questionStems.length > 0 ? weightedCoverage(questionStems, unit) : 0;
  const score = (claimMatch + (bare ? 0.5 : 0.1) * questionMatch) * (unit.pair ? PAIR_PENALTY : 1);
  const missingNames = [...claim.keyStems].filter((stem) => !unit.own.has(stem) && !unit.heading.has(stem) && !details.includes(stem) && !acronym(stem));
  const aboutQuestion = !bare || questionStems.some((stem) => unit.passageStems.has(stem));
  const rows = compareRows(claim.row, unit.row);
  const baseForNeighbours = claim.row === null && missingNames.length === 0 && aboutQuestion;
  const rowsVerified = baseForNeighbours && unit.row !== null && figures.length >= 2 && rowsVerify(claim, figures, unit);
  return {
    unit,
    score,
    coverage,
    missing,
    missingNames,
    polarity: comparePolarity(claim, unit.segments) ?? restrictsRegardless(onlyWhen, unit.leadIn ? `${unit.leadIn} ${unit.text}` : unit.text),
    figures: compared,
    subjectCovered: bare ? questionCoverage >= 0.5 && coverage >= 0.5 : coverage >= SUBJECT_COVERAGE,
    aboutQuestion,
    asPhrase: !bare || appearsAsPhrase(names ?? [claim.stems], unit),
    // A table row is one statement: it must match one row, never be pieced together from neighbours.
    // A prose claim may state several rows of one table, each figure the row its words name (v107).
    neighbourhoodVerifies: rowsVerified || (baseForNeighbours && unit.row === null && (claim.stems.length >= NEIGHBOURHOOD_MIN_STEMS || figures.length >= 2) && neighbourhoodVerifies(claim, figures, unit, bare, worked)),
    rowsVerified,
    rowMismatch: rows.mismatch,
    rowConflict: rows.conflict,
    bySynonym,
  };
}

/**
 * A claimed table row against an evidence row, column by column (columns matched by header): each
 * shared column must hold the same cell (a cell cut short with "…" must be the start of it). Words
 * alone cannot see that "Rating: 2; Meaning: Below expectations" pairs a rating with another
 * rating's meaning. When the first cells (the row labels) are the same and another cell differs,
 * the claim misstates that row: a contradiction.
 */
function compareRows(claim: Analysis['row'], evidence: Analysis['row']): { mismatch: boolean; conflict: string | null } {
  if (claim === null || evidence === null) return { mismatch: false, conflict: null };
  const sameCell = (claimed: string, stated: string) => (claimed.endsWith('…') ? stated.startsWith(claimed.slice(0, -1).trim()) : claimed === stated);
  const differing: { claimed: RowFieldWords; stated: RowFieldWords }[] = [];
  for (const field of claim) {
    const other = evidence.find((candidate) => candidate.header === field.header);
    if (other && !sameCell(field.cell, other.cell)) differing.push({ claimed: field, stated: other });
  }
  if (differing.length === 0) return { mismatch: false, conflict: null };
  const label = evidence[0]!;
  const sameLabel = claim[0]!.header === label.header && sameCell(claim[0]!.cell, label.cell);
  if (!sameLabel) return { mismatch: true, conflict: null };
  const { claimed, stated } = differing[0]!;
  const row = label.written.header ? `${label.written.header} ${label.written.cell}` : label.written.cell;
  return { mismatch: true, conflict: `gives "${stated.written.header}: ${stated.written.cell}" for ${row}, not "${claimed.written.cell}"` };
}

/**
 * The same checks as for a unit, over the unit and its neighbouring sentences: an answer often
 * merges two or three adjacent sentences into one claim. Names must still be in the unit itself
 * (checked by the caller), so two entities from neighbouring sentences are not joined into a
 * relation the evidence never states.
 */
function neighbourhoodVerifies(claim: Analysis, figures: readonly QuantityInContext[], unit: EvidenceUnit, bare: boolean, worked: WorkedFigures): boolean {
  const { own, segments, quantities } = unit.neighbourhood;
  const money = statesAmount(claim);
  const has = (stem: string) =>
    hasStem(own, stem) || hasStem(unit.heading, stem) || hasSynonym(own, stem, claim.written, unit.passageStems) || isSplitCompound(claim.written.get(stem), own, unit.heading) || foundByClass(stem, unit.neighbourhood.text, money);
  const covered = claim.stems.filter(has);
  if (claim.stems.length > 0 && covered.length / claim.stems.length < VERIFY_COVERAGE) return false;
  if (comparePolarity(claim, segments) !== null) return false;
  return figures.every((figure) => orWorked(compareFigure(figure, quantities, bare, claim.written, unit.passageStems, unit.heading), figure, figures, worked).relation === 'agree');
}

/**
 * A prose claim stating several rows of one table at once ("45p a mile for the first 10,000
 * business miles and 25p a mile after that", "£40 for a weekday night (17:00 to 09:00) and £80 for
 * a weekend day") (v107). The claim's figures are cut into groups, one per figure of the kind the
 * table's rows give different values of (the rate, the allowance), each with the figures that
 * follow it up to the next one ("25p a mile for the first 10,000 business miles"). A group rests on
 * one row: every figure of it agrees with a figure of that row. A group of one figure rests on a row
 * among those its own words describe most that gives it. So "25p for the first 10,000 miles and 45p
 * after that" (rows swapped) and "24p a mile over 10,000" (the motorcycle's rate on the car row) are
 * not verified this way. The groups must rest on at least two rows (one row is the ordinary case),
 * and the claim's words must be found in those rows, the table's lead-in and the heading, with no
 * negation the rows do not share.
 */
function rowsVerify(claim: Analysis, figures: readonly QuantityInContext[], unit: EvidenceUnit): boolean {
  const rows = unit.table ?? [];
  if (rows.length < 2) return false;
  const agreesIn = (figure: QuantityInContext, row: EvidenceUnit) => row.quantities.some((entry) => relate(figure.quantity, entry.quantity) === 'agree');
  // The kind of figure the rows give different values of.
  const varies = (figure: QuantityInContext) => {
    const values = new Set(rows.flatMap((row) => row.quantities.filter((entry) => figureKind(entry.quantity) === figureKind(figure.quantity)).map((entry) => entry.quantity.text)));
    return values.size >= 2;
  };
  const ordered = [...figures].sort((a, b) => a.quantity.position - b.quantity.position);
  const lead = ordered.find(varies);
  if (lead === undefined) return false;
  const groups: QuantityInContext[][] = [];
  for (const figure of ordered) {
    if (groups.length === 0 || figureKind(figure.quantity) === figureKind(lead.quantity)) groups.push([figure]);
    else groups.at(-1)!.push(figure);
  }
  const resting = new Set<EvidenceUnit>();
  for (const group of groups) {
    if (group.length > 1) {
      const row = rows.find((candidate) => group.every((figure) => agreesIn(figure, candidate)));
      if (row === undefined) return false;
      resting.add(row);
      continue;
    }
    const figure = group[0]!;
    const candidates = rows
      .filter((row) => row.quantities.some((entry) => relate(figure.quantity, entry.quantity) !== 'incomparable'))
      .map((row) => ({ row, closeness: [...figure.context].filter((stem) => hasStem(row.own, stem)).length }));
    const closest = Math.max(0, ...candidates.map((candidate) => candidate.closeness));
    const agreeing = candidates.find((candidate) => candidate.closeness === closest && agreesIn(figure, candidate.row));
    if (agreeing === undefined) return false;
    resting.add(agreeing.row);
  }
  if (resting.size < 2) return false;
  const own = new Set([...resting].flatMap((row) => [...row.own]));
  const found = (stem: string) => hasStem(own, stem) || hasStem(unit.heading, stem) || LIGHT_STEMS.has(stem) || hasSynonym(own, stem, claim.written, unit.passageStems);
  if (claim.stems.length > 0 && claim.stems.filter(found).length / claim.stems.length < VERIFY_COVERAGE) return false;
  return comparePolarity(claim, [...resting].flatMap((row) => row.segments)) === null;
}

/** "only when you're called out", "only if it's approved", "only for the nights you work": the restriction's words. */
const ONLY_WHEN = /\bonly\s+(?:(?:for|on|in|during)\s+(?:the\s+)?\w+\s+)?(?:when|if|where|while|once)\s+([^.;,:]+)/i;
/** "whether or not they are called out", "regardless of whether you are called out": the words it holds either way. */
const EITHER_WAY = /\b(?:whether or not|regardless of whether|whether (?:[^.;,:]+?) or not)\s*([^.;,:]*)/i;

/** The content stems of a claim's "only when …" restriction (empty without one). */
function onlyWhenStems(text: string): ReadonlySet<string> {
  const match = ONLY_WHEN.exec(text);
  return match ? analyze(match[1]!).stemSet : EMPTY;
}

/**
 * A claim that makes something hold "only when" a condition holds, against a sentence saying it
 * holds "whether or not" that condition holds ("paid only for the periods when you're actually
 * called out" against "an allowance for each period they are on call, whether or not they are
 * called out") (v107): the sentence rules the restriction out. Before, "whether or not" was no
 * negation on either side (v12), so the claim was verified.
 */
function restrictsRegardless(onlyWhen: ReadonlySet<string>, unitText: string): string | null {
  if (onlyWhen.size === 0) return null;
  const match = EITHER_WAY.exec(unitText);
  if (!match) return null;
  const either = analyze(match[0]).stemSet;
  const shared = [...onlyWhen].filter((stem) => hasStem(either, stem));
  return shared.length > 0 ? `the evidence says it holds "${match[0].trim()}", the claim only when "${shared.join(' ')}"` : null;
}

/**
 * A figure the unit does not state (`missing`, or `unsupported` for what the claim talks about), or
 * one that disagrees with the very figure it was worked from, agrees when the answer worked it out
 * from the question's figures (heuristic-arithmetic.ts). Any other disagreement stands.
 */
function orWorked(comparison: FigureComparison, figure: QuantityInContext, figures: readonly QuantityInContext[], worked: WorkedFigures): FigureComparison {
  if (comparison.relation === 'agree') return comparison;
  const workings = worked.explain(figure.quantity);
  // The question's own figure counts only beside a result the claim works out from the question.
  const isResult = (entry: QuantityInContext) => worked.explain(entry.quantity).some((working) => !working.restated);
  const usable = isResult(figure) || figures.some((other) => other !== figure && isResult(other)) ? workings : [];
  // The asker's own figure, restated as theirs ("at 8 months you don't meet that yet"), needs no sentence (v108).
  // Compared with a bound the claim states ("£80 is over the £50"), it is not the rules' figure at all.
  const how = worked.situated(figure.quantity);
  const situated = how !== null ? workings.filter((working) => working.restated) : [];
  // The asker's figure that a result of the same claim is worked from ("with 3 completed years you
  // have 28 days") is their premise in use, not the rules' figure: another figure of its kind in the
  // sentence ("reached after 5 completed years") does not contradict it (v114).
  const premise = () => {
    const restated = workings.find((candidate) => candidate.restated);
    const inUse = restated !== undefined && figures.some((other) => other !== figure && worked.explain(other.quantity).some((result) => !result.restated && workedFrom(result, figure.quantity)));
    return inUse ? restated : undefined;
  };
  const working =
    comparison.relation === 'disagree'
      ? usable.find((candidate) => comparison.stated !== undefined && workedFrom(candidate, comparison.stated)) ?? (how === 'comparison' ? situated[0] : undefined) ?? premise()
      : usable[0] ?? situated[0];
  return working ? { relation: 'agree', claim: comparison.claim, evidence: working.how, worked: true } : comparison;
}

/**
 * Why a claim is absent, in words a reader can check. A name the closest sentence lacks is "not in
 * the evidence" only when no evidence sentence (or heading) has it; one found elsewhere is named as
 * missing from the closest sentence ("MyHarbour" is in the evidence, in another sentence than the
 * "2 months" the claim joins it to).
 */
function absentNote(assessment: Assessment, claim: Analysis, bare: boolean, anywhere: (stem: string) => boolean): string {
  const where = assessment.unit.passageId;
  const word = (stem: string) => claim.written.get(stem) ?? stem;
  const reasons: string[] = [];
  const nowhere = assessment.missingNames.filter((stem) => !anywhere(stem));
  const elsewhere = assessment.missingNames.filter((stem) => anywhere(stem));
  if (nowhere.length > 0) reasons.push(`not in the evidence: ${nowhere.map(word).join(', ')}`);
  if (elsewhere.length > 0) reasons.push(`closest sentence (${where}) lacks ${elsewhere.map(word).join(', ')} (found elsewhere in the evidence)`);
  if (assessment.missingNames.length === 0 && assessment.coverage < VERIFY_COVERAGE) reasons.push(`closest sentence (${where}) lacks: ${assessment.missing.map(word).join(', ')}`);
  const figure = assessment.figures.find((entry) => entry.relation !== 'agree');
  if (figure) reasons.push(`${figure.claim} is not stated ${figure.relation === 'missing' ? 'in' : 'for this in'} the closest sentence (${where})`);
  if (bare && reasons.length === 0) reasons.push('the answer does not appear in a passage about the question');
  return reasons.join('; ') || `not supported by ${where}`;
}

/**
 * Share of `stems` found in the unit: words of the sentence itself count fully, words only in the
 * passage's title or section count half (they say what the passage is about, not what it states).
 */
function weightedCoverage(stems: readonly string[], unit: EvidenceUnit): number {
  let total = 0;
  for (const stem of stems) {
    if (hasStem(unit.own, stem)) total += 1;
    else if (hasStem(unit.heading, stem)) total += 0.5;
  }
  return total / stems.length;
}

/**
 * Negation mismatch, compared part by part: each segment of the claim (see `Analysis.segments`) is
 * set against the unit segment(s) sharing most of its words, and on the words they share one side
 * negates and the other does not. Every best-aligned segment must disagree. Comparing whole
 * sentences instead would read "IT can remove company data, but cannot see your personal data" as
 * negating "data" for a claim about the first half. Returns a description, or `null` when
 * polarity agrees.
 */
function comparePolarity(claim: Analysis, evidenceSegments: readonly Segment[]): string | null {
  for (const segment of claim.segments) {
    // A concession ("…, even on a business journey") states nothing of its own to compare (v107).
    if (segment.concession) continue;
    let most = 0;
    let aligned: { evidence: Segment; next: Segment | undefined; shared: string[] }[] = [];
    evidenceSegments.forEach((evidence, index) => {
      const shared = [...segment.stems].filter((stem) => hasStem(evidence.stems, stem));
      if (shared.length === 0 || shared.length < most) return;
      if (shared.length > most) (most = shared.length), (aligned = []);
      aligned.push({ evidence, next: evidenceSegments[index + 1], shared });
    });
    if (aligned.length === 0) continue;
    // One shared word is too little to say a segment of three or more words is about what an
    // evidence segment negates ("no need to use your own" against "you need to…") (v107).
    if (most === 1 && segment.stems.size >= WEAK_ALIGNMENT_STEMS) continue;
    const mismatches = aligned.map(({ evidence, next, shared }) => polarityMismatch(claim, segment, evidence, shared) ?? contrastMismatch(claim, segment, next));
    if (mismatches.every((mismatch) => mismatch !== null)) return mismatches[0]!;
  }
  return null;
}

/**
 * Content words from which a claim segment must share two with an evidence segment for their
 * polarity to be compared (v107): "You get a work phone, no need to use your own" is about using a
 * phone, not about the "need" of whichever sentence shares that one word. Shorter segments ("It
 * isn't paid") still meet on one word.
 */
const WEAK_ALIGNMENT_STEMS = 3;

/** Content words an elliptical negation may hold: "not by Harbourline", "not a personal card". */
const MAX_CONTRAST_STEMS = 3;

/**
 * The evidence's statement followed by an elliptical negation of one of its parts ("Your tax code
 * is set by HMRC, not by Harbourline"): the segment after it opens with ", not" in prose and holds
 * only negated words. A claim that states one of those words without negating it ("Your tax code
 * is set by Harbourline") states what the evidence rules out (v28).
 */
function contrastMismatch(claim: Analysis, claimSegment: Segment, next: Segment | undefined): string | null {
  if (next === undefined || !next.contrast || next.stems.size === 0 || next.stems.size > MAX_CONTRAST_STEMS) return null;
  if (![...next.stems].every((stem) => next.negated.has(stem))) return null;
  const stated = [...claimSegment.stems].filter((stem) => hasStem(next.stems, stem) && !claimSegment.negated.has(stem));
  if (stated.length === 0 || claimSegment.negated.size > 0) return null;
  return `the evidence rules out "${stated.map((stem) => claim.written.get(stem) ?? stem).join(' ')}"`;
}

function polarityMismatch(claim: Analysis, claimSegment: Segment, evidenceSegment: Segment, shared: readonly string[]): string | null {
  const claimNegated = shared.filter((stem) => claimSegment.negated.has(stem));
  const evidenceNegated = shared.filter((stem) => hasStem(evidenceSegment.negated, stem));
  if ((claimNegated.length > 0) === (evidenceNegated.length > 0)) return null;
  // Both sides negate, on words the scope rule reads differently: "a text or email won't do"
  // (the negation reaches back to its subject) states what "a text or email is not enough" states
  // (it reaches forward). A reversed statement has a negation on one side only (v12).
  if (claimSegment.negated.size > 0 && evidenceSegment.negated.size > 0) return null;
  const words = (claimNegated.length > 0 ? claimNegated : evidenceNegated).map((stem) => claim.written.get(stem) ?? stem);
  return claimNegated.length > 0 ? `the claim negates "${words.join(' ')}", the evidence does not` : `the evidence negates "${words.join(' ')}", the claim does not`;
}

/**
 * Compare one claimed figure with the unit's figures of the same kind. It is compared with the
 * figure(s) whose surrounding words it shares most, so
 * "19 weeks at full pay" meets "20 weeks … at full pay", not "up to 19 weeks at the statutory
 * rate". When it shares no word with any of them, the evidence states figures of that kind but
 * not for what the claim talks about: `unsupported`, never a contradiction (unless the claim's
 * words for the figure are the passage's title, section or table lead-in, and an equal figure is
 * there: `agree`).
 */
/**
 * Words that mark a figure as no longer in force ("the previous allowance of £20", "replaces the
 * former rate"), as Porter stems. Such an evidence figure supports only a claim that says so too.
 */
const SUPERSEDED_STEMS: ReadonlySet<string> = new Set([SUPERSEDED_MARKER, 'supersed']);
/**
 * A claim may also call such a figure "old" or "former" ("the old 16 weeks"). In evidence those
 * words say too little for it ("employees 18 years old or over", "the former president, elected in
 * 1990": HaluEval lost two right answers when "former" marked evidence figures).
 */
const CLAIMED_SUPERSEDED_STEMS: ReadonlySet<string> = new Set([...SUPERSEDED_STEMS, 'old', 'former']);

const superseded = (entry: QuantityInContext, markers: ReadonlySet<string> = SUPERSEDED_STEMS) => [...entry.context].some((stem) => markers.has(stem));

function compareFigure(
  claimed: QuantityInContext,
  available: readonly QuantityInContext[],
  bare: boolean,
  written: ReadonlyMap<string, string>,
  passageStems: ReadonlySet<string>,
  heading: ReadonlySet<string>,
): FigureComparison {
  const claim = claimed.quantity.text;
  // A figure the evidence gives as superseded is not what a claim in the present states.
  const current = claimed.past || superseded(claimed, CLAIMED_SUPERSEDED_STEMS) ? available : available.filter((entry) => !superseded(entry));
  const comparable = current
    .map((entry) => ({ entry, relation: relateFigures(claimed.quantity, entry.quantity, bare) }))
    .map((candidate) => (claimed.named && candidate.relation !== 'agree' && relateFigures(claimed.named, candidate.entry.quantity, bare) === 'agree' ? { ...candidate, relation: 'agree' as const } : candidate))
    .filter((candidate) => candidate.relation !== 'incomparable');
  if (comparable.length === 0) return { relation: 'missing', claim, evidence: '' };
  const asked = claimed.asked ?? EMPTY;
  if (claimed.context.size === 0 && asked.size === 0) {
    // No word describes the figure ("from 1 January to 31 December", ", up to a maximum of 30 days
    // a year"): it cannot be pinned to one evidence figure, so an equal figure of its kind
    // supports it and none contradicts it.
    const agreeing = comparable.find((candidate) => candidate.relation === 'agree');
    return agreeing ? { relation: 'agree', claim, evidence: agreeing.entry.quantity.text } : { relation: 'unsupported', claim, evidence: '' };
  }
  const describes = (stem: string, candidate: (typeof comparable)[number]) => candidate.entry.context.has(stem) || hasSynonym(candidate.entry.context, stem, written, passageStems);
  const own = comparable.map((candidate) => [...claimed.context].filter((stem) => describes(stem, candidate)).length);
  // The claim's own words for its figure pick it when they describe one ("then 13 weeks unpaid" in a
  // list, "That makes 52 weeks in total"); the question's words, at half weight, only when they
  // describe none (v47; v34 added both up, so several question words could outweigh the claim's own).
  if (claimed.fromQuestion || Math.max(...own) === 0) {
    // A limit with no words of its own ("the maximum is 30 days", "capped at £50") is the one
    // limit of that direction the sentence states, whatever figure the question's words sit
    // beside ("one extra day of annual leave …, up to a maximum of 30 days").
    const direction = limitDirection(claimed.quantity);
    const limits = direction === null ? [] : comparable.filter((candidate) => limitDirection(candidate.entry.quantity) === direction);
    if (limits.length === 1) {
      const { relation, entry } = limits[0]!;
      return relation === 'agree' ? { relation: 'agree', claim, evidence: entry.quantity.text } : { relation: 'disagree', claim, evidence: entry.quantity.text, stated: entry.quantity };
    }
  }
  const closeness =
    Math.max(...own) > 0 ? own : comparable.map((candidate, index) => [...asked].filter((stem) => describes(stem, candidate)).length / 2);
  const closest = Math.max(...closeness);
  if (closest === 0) {
    // No evidence figure is described by the claim's words for its figure, but the passage's title,
    // section or table lead-in is ("Probation lasts 6 months" in the "Probation Period" section,
    // whose sentence says "before the end of the 6 months"): the section is what every figure of
    // its sentences is about, so an equal figure of the kind supports the claim. It never
    // contradicts it: which figure the claim means is still unknown.
    const aboutHeading = [...claimed.context, ...asked].some((stem) => hasStem(heading, stem) || isSplitCompound(written.get(stem), heading));
    const agreeing = aboutHeading ? comparable.find((candidate) => candidate.relation === 'agree') : undefined;
    return agreeing ? { relation: 'agree', claim, evidence: agreeing.entry.quantity.text } : { relation: 'unsupported', claim, evidence: '' };
  }
  if (bare && claimed.quantity.kind === 'number' && claimed.quantity.dimension === 'count') {
    // A bare count ("nine", "more than 1,600") says too little to pin it to one evidence figure:
    // it is supported by any agreeing figure near the question's words, and contradicts none.
    const supported = comparable.find((candidate, index) => candidate.relation === 'agree' && closeness[index]! > 0);
    return supported ? { relation: 'agree', claim, evidence: supported.entry.quantity.text } : { relation: 'unsupported', claim, evidence: '' };
  }
  const tied = comparable.filter((_, index) => closeness[index] === closest);
  // A single figure among equally near ones is compared with the single figures ("7%" with the
  // "6%" of "contributes 6% … when you contribute at least 4%", not found inside "at least 4%"),
  // a range with the ranges (v61).
  const single = (quantity: Quantity) => quantity.kind === 'number' && quantity.low === quantity.high;
  const sameShape = claimed.quantity.kind === 'number' ? tied.filter((candidate) => single(candidate.entry.quantity) === single(claimed.quantity)) : [];
  const nearest = sameShape.length > 0 ? sameShape : tied;
  const agreeing = nearest.find((candidate) => candidate.relation === 'agree');
  if (agreeing) return { relation: 'agree', claim, evidence: agreeing.entry.quantity.text };
  return { relation: 'disagree', claim, evidence: nearest[0]!.entry.quantity.text, stated: nearest[0]!.entry.quantity };
}

/** `max` for an upper limit ("up to 30 days"), `min` for a lower one, `null` for a figure or a two-sided range. */
function limitDirection(quantity: Quantity): 'max' | 'min' | null {
  if (quantity.kind !== 'number') return null;
  if (quantity.low === -Infinity && quantity.high !== Infinity) return 'max';
  if (quantity.high === Infinity && quantity.low !== -Infinity) return 'min';
  return null;
}

/**
 * A bare count answer ("nine") may match a figure with a unit ("nine weeks"); it never disagrees
 * with one. A bare figure also agrees with the bound of a one-sided range ("300" for "written over
 * how many songs?" against "over 300 songs"): the comparator is in the question, and the answer
 * names the figure the evidence states.
 */
function relateFigures(claim: Quantity, evidence: Quantity, bare: boolean): Relation {
  if (bare && claim.kind === 'number' && claim.dimension === 'count' && evidence.kind === 'number' && evidence.dimension !== 'count') {
    return relate({ ...claim, dimension: evidence.dimension }, evidence) === 'agree' ? 'agree' : 'incomparable';
  }
  // A limit whose unit the claim leaves to the words before it ("a day for every year, up to 30
  // max") is the evidence's limit of the same value and direction ("a maximum of 30 days") (v114).
  if (claim.kind === 'number' && claim.dimension === 'count' && evidence.kind === 'number' && evidence.dimension !== 'count' && !evidence.dimension.startsWith('label:')) {
    const direction = limitDirection(claim);
    if (direction !== null && direction === limitDirection(evidence) && (direction === 'max' ? claim.high === evidence.high : claim.low === evidence.low)) return 'agree';
  }
  const relation = relate(claim, evidence);
  if (relation === 'disagree' && bare && claim.kind === 'number' && evidence.kind === 'number' && claim.low === claim.high) {
    const bound = evidence.low === -Infinity ? evidence.high : evidence.high === Infinity ? evidence.low : null;
    if (bound !== null && Math.abs(bound - claim.low) < 1e-9) return 'agree';
  }
  return relation;
}

/**
 * Whether the evidence holds anything relevant to the question: the best unit covers at least
 * {@link RELEVANCE_COVERAGE} of the question's content words (title/section words counting half).
 */
export const RELEVANCE_COVERAGE = 0.5;

export function evidenceRelevance(question: Analysis, units: readonly EvidenceUnit[]): number {
  if (units.length === 0) return 0;
  if (question.stems.length === 0) return 1;
  return Math.max(...units.map((unit) => weightedCoverage(question.stems, unit)));
}
