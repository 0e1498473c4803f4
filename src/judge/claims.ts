import { extractCitations, type Citation } from '../contract/formats.js';
import { isRefusal, isRefusalAside, REFUSAL_SENTENCE } from '../contract/refusal.js';
import { splitSentences, splitTypedSentences } from '../text/text.js';
import { loadWordNet } from '../text/wordnet.js';
import { readTableRow } from './table-row.js';

export type { Citation } from '../contract/formats.js';

export interface SplitAnswer {
  /** Candidate atomic claims: sentences, then clauses; citations, lead-ins and pleasantries removed. */
  claims: string[];
  citations: Citation[];
  /** Clauses dropped because they are refusals ("I don't know", "the documents do not cover…"). */
  refusalClauses: string[];
  /** Clauses dropped after a refusal as pointers or self-reports ("You could ask Payroll."; see `isRefusalAside`). */
  asides: string[];
}

/** A numbered or chunk-id source marker in square brackets (v47). */
const NUMBERED_CITATION = /\s*\[(?:(?:source|ref|doc)\s*)?\d+(?:\s*[,–-]\s*\d+)*\]|\s*\[[a-z0-9][a-z0-9-]*#[a-z0-9][a-z0-9-]*\]/gi;
/**
 * What an answer says about itself before what it says (v47): a label ("Short answer:", "In
 * short,", "TL;DR:"), where it found it ("The handbook says:", "Here's what the policy says:", "I
 * found this in the Leave Policy:", and, v60, "The handbook only says offices close …"), or a social opener joined by a dash or colon ("Great news -").
 */
const ANSWER_LABEL =
  /^(?:(?:(?:the )?(?:short|quick|simple|brief) answer(?: is)?|in short|tl;?\s?dr|answer|summary|bottom line|in a nutshell)\s*[:,–—-]\s*|(?:here(?:'s| is) what )?(?:the |our |your |this )?[^:,.]{0,40}?(?:polic(?:y|ies)|handbook|documents?|sources?|guidelines?|section)\s+(?:says?|states?|explains?|sets out|puts it)\s*:\s*|(?:the |our |your |this )?[^:,.]{0,25}?(?:polic(?:y|ies)|handbook|documents?|sources?|guidelines?|section)\s+(?:only\s+|just\s+)?(?:says?|states?)\s+(?:that\s+)?(?!nothing\b|no\b|not\b|anything\b)(?=\S)|i found (?:this|the following|it|that) in [^:.]{1,60}:\s*|(?:great|good|lovely|exciting) news\s*[–—:!-]\s*)/i;
/** A list of sources at the end of an answer ("Sources:", "References:"), or a sentence that only names them. */
const SOURCES_FOOTER = /\n\s*(?:sources?|references?|citations?)\s*:[\s\S]*$/i;
const SOURCES_LINE = /^(?:sources?|references?|citations?)\s*:/i;
const LEAD_IN =
  /^(?:according to|based on|as (?:stated|set out|described|explained|outlined) in|per|from) (?:the |our |your |this )?[^,]{0,60}?(?:polic(?:y|ies)|handbook|documents?|sources?|context|guidelines?|information|excerpts?|passages?)[^,]{0,25},\s*/i;
/** Parenthesized asides of at least this many words become claims of their own. */
const ASIDE_MIN_WORDS = 4;
const CLAUSE_BREAK = /\s*;\s+|,\s+but\s+|\s+but\s+(?!not\s+\p{L}+,)|,\s+(?:whereas|while|although|though|so|plus|then)\s+|,?\s+and\s+(?=(?:it|they|he|she|you|we|this|these|there)\s)/iu;
/**
 * A participle clause after a comma, which says something of its own about what the clause before
 * it names (v84): "You can share up to 50 weeks of leave, paid at the statutory rate" states two
 * facts, which a passage may state in two sentences. Not in reference answers (`subjectClauses:
 * false`), whose claims count for recall: there it stays with its clause. Nor "followed by" or
 * "preceded by", which go on with a sequence ("20 weeks at full pay, followed by up to 19 weeks at
 * the statutory rate") whose parts mean something only together.
 */
const PARTICIPLE_BREAK = /,\s+(?!(?:followed|preceded)\s)(?=(?:paid|\p{L}{2,}ed|taken|given|held|kept|sent|made|set|done|written|seen|known)\s+(?:at|by|for|in|on|from|with|within|to|as|through|under|over|after|before|until)\s)/iu;

/**
 * A condition after its main clause, behind a comma (v115): "for up to 20 working days a year, as
 * long as your manager and the People team both approve it in advance" states the limit and the
 * approval, which a passage may state in sentences apart ("You may work from outside the UK for up
 * to 20 working days …. Every period of working abroad must be approved in advance by both …").
 * Read as one claim, it was checked against the one sentence nearest to all of it, which lacked the
 * other half. Answers only (`subjectClauses`), like {@link PARTICIPLE_BREAK}: a reference claim
 * keeps its condition. The connective goes; the condition is checked as the statement it makes.
 */
const CONDITION_BREAK = /,\s+(?:as long as|so long as|provided(?: that)?|providing)\s+/iu;

/**
 * A verb (auxiliary, modal, a few common verbs, or a word ending in -ed): what makes a fragment a
 * clause. "May" as a month is not the verb. Verbs that link a subject to what it is or holds
 * ("A grandparent counts as close family", "It covers dental") came with v60.
 */
const VERB = /\b(?:is|are|was|were|be|been|being|am|has|have|had|does|do|did|can|could|will|would|shall|should|may|might|must|cannot|gets?|got|needs?|takes?|gives?|makes?|made|counts?\s+as|means|covers|includes|applies|lasts|qualif(?:y|ies)\s+for|belongs\s+to|depends\s+on|equals)\b|\b\p{L}{3,}ed\b|\b\p{L}+n['’]t\b|\b(?:it|that|there|here|what|who|where|he|she|i|you|we|they)['’](?:s|re|m|ve|ll|d)\b/iu;

/**
 * Whether a fragment has a verb, i.e. states something on its own ("three weeks is 15 working
 * days") rather than naming or completing something ("52 weeks in total", "Office CCTV footage").
 *
 * @example
 * hasVerb('52 weeks in total') // false
 */
export function hasVerb(text: string): boolean {
  return VERB.test(text.replace(/\bMay\b/g, ''));
}

const PLEASANTRY =
  /^(?:i hope (?:this|that) helps|hope (?:this|that) helps|let me know\b|feel free\b|(?:i am|i'm) happy to help|glad to help|is there anything else|if you have (?:any )?(?:other|more|further) questions|please (?:let me know|reach out)\b)/i;

/**
 * A social remark an assistant opens or closes with (v45): "Congratulations to you both!", "Sorry
 * to hear that.", "Sorry you're going through that" (v84), "Great question!", "Good luck with the move!", "No worries." It states nothing
 * about the sources, so it is no claim. Only a short clause with no figure that is nothing but the
 * remark: "Congratulations, you get 4 weeks" keeps its claim.
 */
const SOCIAL_REMARK =
  /^(?:oh|ah|aw|aww|well|ugh|argh|oof|oh no)?[\s,!]*(?:congratulations|congrats|well done|(?:i'm |i am )?(?:so |really |very |truly )?sorry(?=[.!]*$)|(?:i'm |i am )?(?:so |really |very |truly )?sorry (?:to hear|about|for your loss|(?:that )?you(?:'re| are|'ve| have)\b)|(?:that's |what )?(?:great|good|exciting|lovely|sad) (?:news|question)|(?:great|good) question|thanks for (?:asking|the question|checking)|good luck|best of luck|no worries|happy to help|(?:that |this )?sounds (?:really |so |very |pretty )?(?:exciting|stressful|tough|rough|great|lovely|annoying|frustrating|awful|horrible|worrying|upsetting|hard|difficult))\b/i;
/** Reassurance that is the whole clause (v52): "Don't panic!", "No need to worry." ("Don't worry, you won't be paid less" keeps its claim). */
const REASSURANCE = /^(?:(?:don't|do not|try not to) (?:panic|worry|stress)|no need to (?:panic|worry|stress))(?: about (?:it|that|this))?(?: too much)?[.!]*$/i;
const SOCIAL_REMARK_MAX_WORDS = 7;
/**
 * Agreement or disagreement with what the asker said, and nothing else (v54): "that's still right",
 * "You're correct", "That's not true any more". Like a bare "Yes", it holds no word to check; what
 * backs it is the clause that follows ("Yes, that's right: birth parents get 20 weeks").
 */
const VERDICT_ON_PREMISE =
  /^(?:(?:yes|yeah|yep|no|nope)[,!\s]+)?(?:that|this|it|you)(?:['’](?:s|re)|\s+(?:is|are|was|were))\s+(?:(?:still|absolutely|quite|exactly|completely|spot on|not|no longer)\s+)*(?:right|correct|true|accurate|wrong|incorrect|the case|the rule)(?:\s+(?:any more|anymore|now|today))?[.!]*$/i;

/**
 * Sympathy with the asker's situation that is the whole clause (v118): "sorry, that's rough", "That
 * must be stressful.", "what a pain". It judges the asker's news, not the sources. Only the whole
 * clause, ending there: "That's hard to get approved" goes on to a claim.
 */
const SYMPATHY =
  /^(?:(?:oh|ah|aw|aww|ugh|argh|oof|oh no)[\s,!]+)?(?:(?:i'm |i am )?(?:so |really |very )?sorry[\s,!.-]+)?(?:(?:that(?:['’]s| is| must be| sounds)|what)\s+(?:(?:really|so|very|pretty|a bit|quite|such)\s+)?(?:rough|tough|hard|awful|frustrating|annoying|stressful|worrying|upsetting|horrible|difficult|rubbish|no fun|not fun|sad|scary|a lot to deal with|an? (?:pain|shame|worry|nightmare|tough one|rough one|bummer)))[.!]*$/i;
/**
 * A hedged verdict on what the asker said, standing alone before the clause that explains it (v118):
 * "Not quite: email is filtered and logged, but…", "Partly.". Like a bare "No", it holds no word to
 * check (the stem of "quite" is no claim word); what backs it is the clause that follows.
 */
const HEDGED_VERDICT = /^(?:not (?:quite|really|exactly|entirely|necessarily|completely)|partly|partially|sort of|kind of|in part)[.!]*$/i;

export function isSocialRemark(clause: string): boolean {
  const whole = clause.trim();
  if (REASSURANCE.test(whole) || VERDICT_ON_PREMISE.test(whole) || SYMPATHY.test(whole) || HEDGED_VERDICT.test(whole)) return true;
  if (!SOCIAL_REMARK.test(clause) || /\d/.test(clause)) return false;
  return clause.split(/\s+/).length <= SOCIAL_REMARK_MAX_WORDS;
}

/**
 * Split an answer into candidate atomic claims: sentences first, then clauses joined by `;`,
 * "but", "whereas", "while", "although", ", so", "and" before a new subject ("and it is final"),
 * ", and" before a verb and its object (the last of a list of actions), ", and" before a
 * determiner and a clause of its own ("…, and the company also pays your travel"; not with
 * `subjectClauses: false`, as reference answers are split), and `:` when a clause follows it.
 * Clauses joined by commas or "and" stay together, so a condition stays with what it conditions
 * ("if it costs less than £1,000, you do not need approval" is one claim). A quoted table row (`Header: cell; Header: cell`) is one claim.
 * Parenthesized asides of four words or more are claims of their own. Citation parentheses are
 * removed from the claims and returned separately; refusal clauses and pleasantries ("I hope this
 * helps") are dropped.
 *
 * @example
 * splitAnswer('Twenty weeks at full pay (Leave Policy, updated 2026-01-12); then statutory pay.')
 * // { claims: ['Twenty weeks at full pay', 'then statutory pay'], citations: [{ title: 'Leave Policy', updated: '2026-01-12', … }], refusalClauses: [] }
 */
export function splitAnswer(answer: string, options: { refusalSentence?: string; subjectClauses?: boolean } = {}): SplitAnswer {
  const refusal = options.refusalSentence ?? REFUSAL_SENTENCE;
  const subjectClauses = options.subjectClauses ?? true;
  const extracted = extractCitations(answer);
  // `(Source: …)` asides are removed from the claims but not judged as citations.
  const citations = extracted.citations.filter((citation) => citation.form !== 'aside');
  const text = extracted.text
    // Chat yes and no ("Yep, …", "Nope.") read as "Yes" and "No" (v48).
    .replace(/(^|[.!?]\s+|\n\s*)(?:yep|yeah|yup|yea)\b/gi, '$1Yes')
    .replace(/(^|[.!?]\s+|\n\s*)(?:nope|nah)\b/gi, '$1No')
    .replace(/\*\*|__|`/g, '')
    .replace(SOURCES_FOOTER, '')
    .replace(/^#+\s*/gm, '')
    // Numbered source markers ("[1]", "[2, 3]", "[Source 1]") and chunk-id markers ("[leave-policy#parental-leave]")
    // point at a source; they state nothing, and "[1]" is no figure (v47).
    .replace(NUMBERED_CITATION, '');

  const claims: string[] = [];
  const refusalClauses: string[] = [];
  for (const sentence of splitSentences(text).flatMap(splitTypedSentences)) {
    const line = sentence.replace(/^(?:[-*+•]|\d+[.)])\s+/, '').replace(ANSWER_LABEL, '').replace(LEAD_IN, '').trim();
    if (SOURCES_LINE.test(line)) continue;
    // A question back to the user ("Is it a particular gym you're thinking of?", "Want me to check
    // the other benefits?") asks, and states nothing (v62).
    // Not a title in quotes that ends with one ("… in "Kenneth Williams: Fantabulosa!?"").
    if (/\?$/.test(line)) continue;
    // A table row quoted as `Header: cell; Header: cell` is one statement about its row label: its
    // values are never separated from their headers (and its parentheses are part of the headers).
    if (readTableRow(line)) {
      claims.push(tidy(line));
      continue;
    }
    // An aside in parentheses is a claim of its own ("(it was 5% before then)"); short ones ("(NFL)",
    // "(£12,000)") stay where they are, as part of what they qualify.
    const asides: string[] = [];
    const body = line.replace(/\s*\(([^()]+)\)/g, (whole, inner: string) => {
      if (inner.trim().split(/\s+/).length < ASIDE_MIN_WORDS) return whole;
      asides.push(inner.trim());
      return '';
    });
    for (const part of [body, ...asides]) {
      // The refusal sentence has a colon: keep a sentence made only of refusal clauses whole. An
      // app's own refusal sentence is one whole even when its clauses are no paraphrase of a refusal.
      if (sameSentence(part, refusal) || (isRefusal(part, refusal) && splitClauses(part, subjectClauses).every((clause) => tidy(clause) === '' || isRefusal(clause, refusal)))) {
        refusalClauses.push(tidy(part));
        continue;
      }
      for (const rawClause of splitClauses(part, subjectClauses)) {
        const clause = tidy(rawClause);
        if (clause === '') continue;
        if (isRefusal(clause, refusal)) {
          refusalClauses.push(clause);
          continue;
        }
        if (PLEASANTRY.test(clause) || isSocialRemark(clause)) continue;
        claims.push(clause);
      }
    }
  }
  // After a refusal, a pointer to someone who may know and what the answer says of itself are no claims.
  const asides = refusalClauses.length > 0 ? claims.filter((claim) => isRefusalAside(claim)) : [];
  return { claims: claims.filter((claim) => !asides.includes(claim)), citations, refusalClauses, asides };
}

/**
 * Clauses of a sentence: split at {@link CLAUSE_BREAK}, then at a colon only when what follows it
 * is a clause of its own ("Probably yes: three weeks is 15 working days"); a colon followed by a
 * value or a summary ("Deadline: 28 February", "… 13 weeks unpaid: 52 weeks in total") keeps both
 * sides together, since the part after it means nothing alone.
 */
function splitClauses(sentence: string, subjectClauses: boolean): string[] {
  const clauses: string[] = [];
  const parts = sentence.split(CLAUSE_BREAK).flatMap((piece) => (subjectClauses ? piece.split(PARTICIPLE_BREAK).flatMap((clause) => clause.split(CONDITION_BREAK)) : [piece]));
  for (const part of parts.flatMap((piece) => splitActions(piece, subjectClauses))) {
    const pieces = splitOutsideQuotes(part);
    clauses.push(pieces[0]!);
    for (const piece of pieces.slice(1)) {
      if (hasVerb(piece)) clauses.push(piece);
      else clauses[clauses.length - 1] += `: ${piece}`;
    }
  }
  return clauses;
}

/** ", and" before a verb and its object: "…, and switch your laptop off", "…, and book the room" (v32). */
const ACTION_AND = /,\s+and\s+(?=(\p{L}+)\s+(?:your|the|it|them|a|an|off|up|out|him|her|their|our|my|this|that|these|those)\b)/iu;

/**
 * A list of actions ends with ", and <verb> <object>" ("Call the Service Desk on ext. 4000, change
 * your password, and switch your laptop off until IT collects it"): the last action is a claim of
 * its own, so an invented step cannot ride on the true ones before it (v32). The word after "and"
 * must be a verb in WordNet and be followed by an object or a particle; a list of things (", and
 * hotel costs") is not split.
 */
function splitActions(part: string, subjectClauses: boolean): string[] {
  const match = ACTION_AND.exec(part);
  if (match !== null && loadWordNet().lemmas(match[1]!.toLowerCase(), 'verb').length > 0) {
    return [part.slice(0, match.index), ...splitActions(part.slice(match.index + match[0].length), subjectClauses)];
  }
  const pronoun = subjectClauses ? PRONOUN_AND.exec(part) : null;
  if (pronoun !== null) return [part.slice(0, pronoun.index), ...splitActions(part.slice(pronoun.index + pronoun[0].length), subjectClauses)];
  const subject = subjectClauses ? SUBJECT_AND.exec(part) : null;
  if (subject !== null) {
    const rest = part.slice(subject.index + subject[0].length);
    if (hasVerb(rest) || FINITE_AFTER_SUBJECT.test(rest)) return [part.slice(0, subject.index), ...splitActions(rest, subjectClauses)];
  }
  return [part];
}

/**
 * ", and" before a clause whose subject is a personal pronoun, contracted ("…, and they'll decide
 * within a week") or after "then" / "after that" ("…, and after that you'll need a fit note for
 * any further sick day"): a statement of its own (v38), in answers only, as for
 * {@link SUBJECT_AND}. A pronoun and a space right after "and" is a {@link CLAUSE_BREAK} already.
 */
const PRONOUN_AND = /,\s+and\s+(?:(?:then|after that|afterwards|also)\s+)?(?=(?:you|they|we|he|she|it)(?:['’](?:ll|d|re|ve|s))?\s+\p{L})/iu;

/** ", and" before a noun phrase that starts with a determiner: "…, and the company also pays your travel" (v35). */
const SUBJECT_AND = /,\s+and\s+(?=(?:the|your|our|their|his|her|its|this|that|these|those)\s+\p{L})/iu;
/**
 * A clause of its own after that noun phrase: a verb of the third person, perhaps after an adverb,
 * followed by what it governs ("the company pays for one resit", "the company also pays your travel").
 * A noun in a list ("…, and the hotel costs") has nothing after it that a verb would govern.
 */
const FINITE_AFTER_SUBJECT = /^\S+\s+\p{L}+\s+(?:(?:also|then|still|only|just|usually|always|never|normally|automatically)\s+)?\p{L}{2,}s\s+(?:for|to|your|the|a|an|it|them|you|on|in|at|up|back|out|all|any|every|each|half)\b/iu;

/**
 * A sentence's pieces at ": ", except inside double quotes: a quoted title ("Kenneth Williams:
 * Fantabulosa!") is one name (v13).
 */
function splitOutsideQuotes(part: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let quoted = false;
  for (let at = 0; at < part.length; at++) {
    const char = part[at]!;
    if (char === '"' || char === '\u201c' || char === '\u201d') quoted = char === '\u201c' ? true : char === '\u201d' ? false : !quoted;
    else if (char === ':' && !quoted && /\s/.test(part[at + 1] ?? '')) {
      pieces.push(part.slice(start, at));
      start = at + 1;
      while (start < part.length && /\s/.test(part[start]!)) start += 1;
    }
  }
  pieces.push(part.slice(start));
  return pieces;
}

/** The same sentence, ignoring case, spacing, curly quotes and the final full stop. */
function sameSentence(text: string, sentence: string): boolean {
  const normalize = (value: string) => tidy(value).toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[.!]+$/, '');
  return normalize(text) === normalize(sentence);
}

function tidy(clause: string): string {
  return clause
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/^[\s,;:.–—-]+|[\s,;:–—-]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
