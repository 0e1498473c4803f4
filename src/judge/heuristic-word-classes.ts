/**
 * Word classes for the offline judge: a few kinds of words that people and models use
 * interchangeably, and that a document may write with a stopword or a name instead, so neither
 * stems nor WordNet synonyms find them. A claim's word of a class counts as found in an evidence
 * sentence that holds any word of that class (METHODOLOGY.md, "Word classes (v8)").
 *
 * - Requirement: "need", "required", "necessary", "mandatory", "compulsory", "obliged", and
 *   "must" / "have to" (stopwords, read from the sentence's text): "you don't need a receipt" is
 *   what "no receipt required" says. WordNet has "need" / "require" as synonyms, but the synonym
 *   rule does not apply where the passage uses the word itself, and a handbook passage usually
 *   uses both.
 * - The organisation: "the company", "the employer", "the firm" are how people name an
 *   organisation that the document names ("Harbourline will reimburse…") or speaks for ("we pay…").
 *   Found in a sentence that names one (a capitalized word that does not start the sentence) or
 *   has "we", "us", "our", "company", "employer", "firm", "organisation" or "business".
 * - A rise (v9): "went up", "rose", "increased", "was raised", "climbed": how people say that a
 *   figure changed, where a document writes "rose" or states the new figure as replacing a previous
 *   one ("From 1 October 2025 … £30 per month. This replaces the previous allowance of £20").
 *   Found in a sentence with a word of rising or "replaces" / "previous". The direction is not
 *   checked against the figures ("went up" would be found for a cut stated with "replaces"); falls
 *   ("went down", "fell", "cut") are no class, so they must be found as written.
 * - People (v97): "people", "staff", "workers", "folk", "personnel", found in a sentence naming
 *   people, staff, employees, workers or colleagues ("office-based staff don't get it" for
 *   "employees on an office-based contract do not receive it").
 *
 * Negation and figures are still compared as before: "you need approval" against "no approval
 * is required" is a contradiction.
 */

/** Porter stems of the requirement words a claim may use. */
const REQUIREMENT_STEMS: ReadonlySet<string> = new Set(['need', 'requir', 'necessari', 'mandatori', 'compulsori', 'oblig']);
const REQUIREMENT_TEXT = /\b(?:must|have to|has to|had to|needs?|needed|requir(?:e|es|ed|ement|ements)|necessary|mandatory|compulsory|obliged)\b/i;

/** Porter stems of the words a claim may name the organisation with. */
const ORGANISATION_STEMS: ReadonlySet<string> = new Set(['compani', 'employ', 'firm', 'organis', 'organiz']);
const ORGANISATION_TEXT = /\b(?:we|us|our|compan(?:y|ies)|employers?|firms?|organi[sz]ations?|business(?:es)?)\b/i;
/** A capitalized word after a word (not after a sentence end): a name. */
const NAME_IN_TEXT = /[^.!?:;\s]\s+\p{Lu}\p{Ll}+/u;

/** Porter stems of the words a claim may say a figure rose with ("rose", "increased"; "went up" is read as "rose"). */
const RISE_STEMS: ReadonlySet<string> = new Set(['rose', 'risen', 'rise', 'increas', 'rais', 'climb']);
/** A sentence that states a rise, or a new figure that replaces a previous one. */
const RISE_TEXT = /\b(?:rose|risen|rises?|increas(?:e|es|ed)|raised|went up|gone up|replaces?|replaced|previous(?:ly)?)\b/i;

/**
 * Payment (v37): "a weekend day on call pays £80", "you'd receive £40", "it's reimbursed at 45p":
 * in a claim stating an amount of money, the verb says only that the amount changes hands, which
 * a sentence or table row giving an amount states ("Weekend day or bank holiday (24 hours) |
 * £80"). Who pays whom is not checked, as before; the amount is compared as a figure. A claim
 * with no amount ("the company will pay half your broadband") must find its verb as written.
 * A share of pay is an amount too, and putting money in is paying it (v61): "the company puts in
 * 6%", "if you pay in 5%" against "the company contributes 6% of your basic salary".
 */
const PAYMENT_STEMS: ReadonlySet<string> = new Set(['pai', 'paid', 'earn', 'receiv', 'reimburs', 'refund', 'put', 'contribut', 'chip']);
const MONEY_TEXT = /[£$€]\s?\d|\b\d+(?:\.\d+)?p\b|\d\s?%|\d\s?per\s?cent\b/;

/**
 * People (v97): "people", "staff", "workers", "folk" are how people name those a document calls
 * "employees" or "colleagues": found in a sentence naming any of them.
 */
const PEOPLE_STEMS: ReadonlySet<string> = new Set(['peopl', 'staff', 'worker', 'folk', 'personnel']);
const PEOPLE_TEXT = /\b(?:people|persons?|staff|employees?|workers?|colleagues?|personnel|members of staff|folk)\b/i;

/**
 * Bounds (v16): "minimum" is what "at least" / "no less than" states, and "maximum" what "up to",
 * "at most", "no more than" or a cap states: people ask for "the minimum length" of what a
 * document says "must be at least 14 characters long".
 */
const MINIMUM_STEMS: ReadonlySet<string> = new Set(['minimum', 'min', 'least', 'shortest', 'lowest', 'fewest']);
const MINIMUM_TEXT = /\b(?:at least|no (?:less|fewer|shorter) than|minimum|min\.?|or more|or over|or longer)\b/i;
const MAXIMUM_STEMS: ReadonlySet<string> = new Set(['maximum', 'max', 'most', 'longest', 'highest', 'cap', 'limit', 'ceil']);
const MAXIMUM_TEXT = /\b(?:up to|at most|no (?:more|longer) than|maximum|max\.?|capped|caps?|limits?|ceiling|or less|or fewer|not exceed)\b/i;

/** "per person", "a head" (v64): how much each person may cost, said either way, in a claim stating an amount. */
const PER_PERSON_STEMS: ReadonlySet<string> = new Set(['person', 'head']);
const PER_PERSON_TEXT = /\b(?:per|a|each) (?:head|person)\b/i;

/**
 * Whether a claim's stem belongs to a word class that the evidence text states.
 *
 * @example
 * foundByClass('need', 'If you stay with friends, you may claim £25 per night with no receipt required.') // true
 * foundByClass('compani', 'If you use a screen for work, Harbourline will reimburse an eye test.') // true
 */
export function foundByClass(stem: string, evidenceText: string, claimStatesAmount = false): boolean {
  if (PER_PERSON_STEMS.has(stem) && claimStatesAmount && PER_PERSON_TEXT.test(evidenceText)) return true;
  if (REQUIREMENT_STEMS.has(stem)) return REQUIREMENT_TEXT.test(evidenceText);
  if (ORGANISATION_STEMS.has(stem)) return ORGANISATION_TEXT.test(evidenceText) || NAME_IN_TEXT.test(evidenceText);
  if (RISE_STEMS.has(stem)) return RISE_TEXT.test(evidenceText);
  if (PAYMENT_STEMS.has(stem)) return claimStatesAmount && MONEY_TEXT.test(evidenceText);
  if (PEOPLE_STEMS.has(stem)) return PEOPLE_TEXT.test(evidenceText);
  return foundAsBound(stem, evidenceText);
}

/**
 * Whether a word of minimum or maximum ("minimum", "max", "cap") is stated by the text's bound
 * ("at least", "up to"). The one class the context verdicts use too: the others are stated by too
 * many sentences to tell a chunk that answers from one that does not ("the company" by any "we").
 *
 * @example
 * foundAsBound('minimum', 'Passwords must be at least 14 characters long.') // true
 */
export function foundAsBound(stem: string, evidenceText: string): boolean {
  if (MINIMUM_STEMS.has(stem)) return MINIMUM_TEXT.test(evidenceText);
  if (MAXIMUM_STEMS.has(stem)) return MAXIMUM_TEXT.test(evidenceText);
  return false;
}
