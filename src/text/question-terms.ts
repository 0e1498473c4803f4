import { loadWordNet, type WordNetPos } from './wordnet.js';
import { isNumberWord, numberWordsToDigits, ordinalValue } from './numbers.js';
import { COMPARING_WORDS, DATE_WORDS, DOCUMENT_WORDS, PERSON_WORDS, PLACE_PAIRS, PLACE_REGIONS, PLACE_WORDS, QUANTITY_WORDS } from './specifics.js';
import { DETERMINERS, splitSentences, splitTypedSentences, stem, STOPWORDS } from './text.js';

/**
 * What each word of a question does, read from the question alone (no corpus): the words that
 * name what is asked about (`topic`), the details around it (`specific`: figures, dates, places,
 * people mentioned, words framing a quantity) and words that carry no topic (`generic`: "is that
 * OK?", "quickly"). Each word also says whether it stands in the clause that asks (`asking`) or
 * in the scenario told before it ("A supplier sent me a bottle of wine. Can I keep it?": the wine
 * is scenario, the asking clause is "Can I keep it?").
 *
 * Used by the relevance gate's term-coverage check (src/rag/term-coverage.ts) and by the offline
 * answerer; both need "is a key word of this question missing?", and only the topic words of
 * the asking clause can make a question unanswerable by being missing.
 */

export type TermKind = 'topic' | 'specific' | 'generic';

export interface QuestionTerm {
  /** Lowercased word as written (number words as digits: `three` → `3`). */
  word: string;
  /** Porter stem (digits unchanged). */
  stem: string;
  kind: TermKind;
  /** In the clause that asks, rather than in the scenario before it. */
  asking: boolean;
  /**
   * What the question is about: the asking clause's words, or, when the asking clause names no
   * topic ("What do I do?", "Is that allowed?"), the scenario's words too.
   */
  focus: boolean;
  /** Written with a capital letter where a sentence does not start (a name). */
  capitalized: boolean;
  /**
   * Reads as a verb after "I", "to", "can"… ("can I reply", "if I cycle"): it counts as a topic
   * word for matching, but a verb missing from the corpus is a paraphrase more often than a topic
   * the corpus lacks, so the term-coverage gate does not look it up.
   */
  verbLike: boolean;
  /**
   * Reads as a verb after the question's subject ("what time does breakfast finish", "when does
   * the pool open"; see `followsAskedSubject`). Like a {@link verbLike} word, the term-coverage gate
   * does not look it up; the answerer and the judge still weigh it as a topic word, as before
   * (2026-12-05: weighing it as a verb let "do my points expire" pick up a sentence on earning points).
   */
  verbAfterSubject: boolean;
  /**
   * A word of how the question is put rather than of what it is about, which a corpus need not
   * hold, so the term-coverage gate does not look it up: the word after "how" ("how long", "how
   * far": "Standard shipping takes 3 to 5 working days" answers "how long does shipping take?"),
   * an adverb particle ("send it back", "put away"), and a word for the documents themselves
   * ("what's your returns policy?", "the rules on…"), for comparing ("the difference between"), and
   * words that say which one of a thing by its age ("old API versions", "the new rate", "latest").
   */
  formWord: boolean;
  /**
   * Reads as what is said of something rather than as a thing named (2026-12-05): a verb with an
   * object pronoun after it ("go into my emails and read them"); a verb's "-ing" form after "not"
   * or a pronoun and a form of "be" ("I'm not sleeping"), or one WordNet has no noun for
   * ("clashing") that describes no word after it; a word WordNet's sense-tagged texts never use as
   * a noun though they use it otherwise ("drowsy", "broken", "weird", "collapsed"), unless a
   * content word follows that it would describe ("electric car", "cheapest tariff"; an adverb
   * before an adjective, "pretty sure", describes no thing). A corpus need not hold such a word for
   * the question to be about what it holds ("my tablets make me drowsy, do I tell anyone?"), so,
   * like a {@link verbLike} word, the term-coverage gate does not look it up.
   */
  predicative: boolean;
  /** A noun of an idiom ("get in trouble", "on top of", "every single"): `generic`, and no topic for the judge either. */
  idiom: boolean;
}

/** Words that ask whether something is fine without naming a topic. */
const GENERIC_WORDS: ReadonlySet<string> = new Set(
  (
    'ok okay alright allowed fine right possible permitted true correct sure still already just really actually now then ago again soon later ' +
    'often fast quick quickly exactly recently currently actually basically usually normally really properly anything something nothing ' +
    'everything thing things way lot lots loads tons heaps bit kind sort happen happens happened happening ' +
    'need needs want wants wanted like please thanks thank know tell told give gives gave let say says said ask asked asking wondering wonder ' +
    'mean going think thought heard hear told reckon though anyway anyways stuff ' +
    // Indefinite words, which stand for what the question does not name ("is there somewhere to charge my car").
    'somewhere anywhere everywhere someone anyone somebody anybody everyone everybody ' +
    // Words that say "not this one" without naming what ("at a different branch").
    'different another other ' +
    // Words of extent, which size what is named ("my whole street").
    'whole entire ' +
    // Verbs of coming and going, which say how, not what (2026-12-05: "can i still go in if im late"),
    'go goes gone went come comes came coming ' +
    // Light verbs, whose object says what is asked ("do lockers take coins", "can I make a complaint").
    'take takes taking took taken make makes making made put puts putting ' +
    // Prepositions and conjunctions the stopword list lacks, which join a question's words but name
    // nothing (2026-12-06: "ive been off sick since monday, do i need a doctors note" was refused for "since").
    'since although upon onto toward towards among amongst whilst whereas despite besides instead otherwise else yet thus hence therefore ' +
    // Chat's fillers and sign-offs that casual.ts does not spell out ("tbh", "thanks x"); not greetings ("hi-vis"), nor "till" or "ta", which name things too.
    'cheers fyi tbh imo ngl omg ugh um erm hmm oh ah yeah yep yup nope x xx'
  ).split(' '),
);

/** Adverb particles ("send it back", "how far ahead"). */
export const PARTICLES: ReadonlySet<string> = new Set('back away around along forward ahead'.split(' '));

/**
 * Adverb particles, words for the documents and for comparing, words for a thing's age, and words
 * for the bound or number asked for (see {@link QuestionTerm.formWord}).
 */
const FORM_WORDS: ReadonlySet<string> = new Set([
  ...PARTICLES,
  ...DOCUMENT_WORDS,
  ...'info information detail details'.split(' '),
  ...COMPARING_WORDS,
  ...'old older new newer latest previous current recent existing'.split(' '),
  // Words that ask for a quantity's bound, which a document states as the figure ("is there a mileage limit": "200 miles per day").
  ...'limit limits cap'.split(' '),
  // "What's your phone number?": the number is the value asked for; the corpus writes it as digits.
  ...'number numbers'.split(' '),
]);

/** Words after which "fine" says something is allowed ("is that fine?", "it's fine"), not a penalty. */
const ALLOWED_CONTEXT: ReadonlySet<string> = new Set("is that that's thats this it it's its be are was sound sounds seem seems all ok okay".split(' '));

/** Words after which the next word reads as a verb ("can I reply", "to plug"), not a thing asked about. */
const VERB_CONTEXT: ReadonlySet<string> = new Set('i you we they he she can could to will would should must might do does did don doesn didn just also'.split(' '));

/** Opening words of a clause that asks. */
const ASKING_START = /^(?:what|what's|whats|how|can|could|do|does|did|is|are|am|will|would|should|shall|who|who's|whom|whose|which|when|where|why|may|might|has|have|had|must|if so)\b/i;

/** Leading clauses that set a scene before the question proper: "If I stay with my sister, can I…". */
const LEAD_CLAUSE = /^(?:if|when|as|since|after|because|while|once|now that|given that)\b[^,?]*,\s*/i;

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * Analyse a question's words (stopwords dropped, repeats kept once).
 *
 * @example
 * questionTerms('A supplier sent me wine worth £70. Can I keep it?')
 * // [{ word: 'supplier', kind: 'topic', asking: false, … }, { word: 'wine', … asking: false }, { word: '70', kind: 'specific', … },
 * //  { word: 'keep', kind: 'topic', asking: true, … }]
 */
export function questionTerms(question: string, options: { typedSentences?: boolean } = {}): QuestionTerm[] {
  // "I'm checking an old payslip: what was…" — the part before the colon sets the scene.
  // E-mail addresses and links are details, never topics.
  const text = withDigitGroups(question).replace(/\S+@\S+|\bhttps?:\/\/\S+|\bwww\.\S+/gi, ' ').replace(/\s+/g, ' ').trim();
  const sentences = text
    .split(/:\s+(?=(?:what|how|can|do|does|is|are|will|should|who|which|when|where)\b)/i)
    .flatMap((part) => splitSentences(part))
    .flatMap((sentence) => (options.typedSentences ? splitTypedSentences(sentence) : [sentence]));
  const asking = sentences.map((sentence) => sentence.trim().endsWith('?') || ASKING_START.test(sentence.trim()));
  const anyAsking = asking.some(Boolean);
  const terms: QuestionTerm[] = [];
  /** Stem → its position in `terms` (a word is read once). */
  const positions = new Map<string, number>();
  sentences.forEach((sentence, sentenceIndex) => {
    const lead = LEAD_CLAUSE.exec(sentence);
    const clauses = lead ? [{ text: lead[0], asking: false }, { text: sentence.slice(lead[0].length), asking: true }] : [{ text: sentence, asking: true }];
    let first = true;
    for (const clause of clauses) {
      const isAsking = (anyAsking ? asking[sentenceIndex]! : true) && clause.asking;
      for (const term of clauseTerms(clause.text, first, isAsking)) {
        const earlier = positions.get(term.stem);
        if (earlier !== undefined) {
          // A word of the scene that the asking clause names again is asked about ("My bitcoin
          // wallet is ready. Can I get paid in bitcoin?"): the asking clause's reading replaces it.
          if (term.asking && !terms[earlier]!.asking) terms[earlier] = term;
          continue;
        }
        positions.set(term.stem, terms.length);
        terms.push(term);
      }
      first = false;
    }
  });
  // A question whose asking clause names no topic ("What do I do?", "Is that allowed?") asks
  // about its scenario: the scenario's words are then what is asked about.
  const askingTopic = terms.some((term) => term.asking && term.kind === 'topic');
  for (const term of terms) term.focus = term.asking || !askingTopic;
  return terms;
}

/** `£12,000` → `£12000`, so an amount is one number, not `12` and `000`. */
export function withDigitGroups(text: string): string {
  return text.replace(/(\d),(?=\d{3}\b)/g, '$1');
}

function clauseTerms(text: string, startsSentence: boolean, asking: boolean): QuestionTerm[] {
  const matches = [...text.matchAll(TOKEN)].map((match) => match[0]);
  const possessive = matches.map((word) => /['’]s$/i.test(word));
  const raw = matches.map((word) => word.replace(/['’]s$/i, ''));
  const folded = raw.map((word) => word.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/['’].*$/, ''));
  const digits = numberWordsToDigits(folded);
  // numberWordsToDigits may merge words ("twenty five" → "25"); keep the original casing aligned.
  const aligned = digits.length === folded.length;
  const isCapitalized = (index: number) => {
    const original = aligned ? raw[index] : undefined;
    return original !== undefined && /^\p{Lu}/u.test(original) && !(startsSentence && index === 0) && !/^\p{Lu}+$/u.test(original);
  };
  const terms: QuestionTerm[] = [];
  for (let index = 0; index < digits.length; index++) {
    const word = digits[index]!;
    if (STOPWORDS.has(word) || word.length === 0) continue;
    const capitalized = isCapitalized(index);
    const previous = index > 0 ? digits[index - 1]! : '';
    const next = index + 1 < digits.length ? digits[index + 1]! : '';
    // A person named in the question ("Sarah Mitchell in Finance", "James Okafor's", "Tom from
    // my team") is a detail of it, not its topic, even though the corpus never names them.
    const named =
      capitalized &&
      (isCapitalized(index + 1) ||
        isCapitalized(index - 1) ||
        (aligned && possessive[index]) ||
        // the subject of "has Olu been…", "did Aisha get…"
        (/^(?:has|have|is|was|did|does)$/.test(previous) && /^(?:been|got|get|taken|had|gone|off|on|left|said|made|received|earned|earn)$/.test(next)) ||
        (/^(?:from|in|on|at)$/.test(next) && /^(?:my|our|the|\p{Lu})/u.test(aligned ? raw[index + 2] ?? '' : '')));
    // The unit of a stated figure ("five weeks", "3 years") belongs to the figure, a detail.
    // A code that starts with a digit ("2fa", "3d") is no figure: the word after it is no unit (2026-12-05).
    const figureUnit = /^\d+(?:[.,:]\d+)*(?:%|st|nd|rd|th|am|pm|k|m|s)?$/.test(previous) && /^[a-z]+$/.test(word);
    const kind = (named && !PLACE_WORDS.has(word)) || figureUnit ? 'specific' : kindOf(word, previous, next);
    // "what time", "which day": the word says a time is asked for, as "long" in "how long" (2026-12-05).
    const timeAsked = /^(?:what|which|whats)$/.test(previous) && /^(?:time|times|day|date)$/.test(word);
    const verbLike = kind === 'topic' && VERB_CONTEXT.has(previous);
    const verbAfterSubject = kind === 'topic' && !verbLike && followsAskedSubject(digits, index);
    const predicative = kind === 'topic' && !verbLike && readsAsPredicate(digits, index);
    terms.push({ word, stem: stem(word), kind, asking, focus: asking, capitalized, verbLike, verbAfterSubject, formWord: previous === 'how' || timeAsked || FORM_WORDS.has(word), predicative, idiom: inIdiom(word, previous, next) });
  }
  return terms;
}

/** Object pronouns: a word before one is a verb ("read them", "fix it"). */
const OBJECT_PRONOUNS: ReadonlySet<string> = new Set('it them him her me us'.split(' '));
/** A form of "be" before a verb's "-ing" form when a pronoun is its subject ("it is working"; "how much is parking" names a thing). */
const PROGRESSIVE_BE: ReadonlySet<string> = new Set('is are was were'.split(' '));
const SUBJECT_PRONOUNS: ReadonlySet<string> = new Set('i you he she it we they this that'.split(' '));

/** A verb's "-ing" form after "not", "am", or a pronoun and a form of "be" ("I'm not sleeping", "it is working"). */
function progressive(words: readonly string[], index: number): boolean {
  const lead = words[index - 1] ?? '';
  return lead === 'not' || lead === 'am' || (PROGRESSIVE_BE.has(lead) && SUBJECT_PRONOUNS.has(words[index - 2] ?? ''));
}

/** See {@link QuestionTerm.predicative}. */
function readsAsPredicate(words: readonly string[], index: number): boolean {
  const word = words[index]!;
  if (!/^[a-z]+$/.test(word)) return false;
  const next = words[index + 1];
  const classes = wordClasses(word);
  if (next !== undefined && OBJECT_PRONOUNS.has(next)) return classes.listed.verb;
  const describesNext = next !== undefined && !STOPWORDS.has(next) && /^[a-z]/.test(next);
  if (word.endsWith('ing')) {
    if (progressive(words, index)) return classes.listed.verb;
    // An "-ing" form names an activity ("gift wrapping", "parking") unless WordNet has no noun for
    // it ("clashing", "charging"): then it is a verb, unless it describes the word after it ("paid volunteering days").
    return !describesNext && !classes.listed.noun && classes.listed.verb;
  }
  // A word before a content word may describe it ("electric car", "cheapest tariff", "automatic
  // cars"): it stays a topic word, unless it is an adverb before an adjective or adverb ("pretty
  // sure", 2026-12-05), which says how much, not what.
  if (describesNext) return classes.tagged.adv > 0 && neverANoun(word) && neverANoun(next) && !wordClasses(next).listed.noun;
  return neverANoun(word);
}

/** WordNet's sense-tagged texts use the word, but never as a noun ("drowsy", "read", "weird"). */
function neverANoun(word: string): boolean {
  const { tagged } = wordClasses(word);
  return tagged.noun === 0 && (tagged.verb > 0 || tagged.adj > 0 || tagged.adv > 0);
}

/** Indefinite words that may follow a verb as its object ("does scanning cost anything"). */
const INDEFINITE_OBJECTS: ReadonlySet<string> = new Set('anything something nothing everything'.split(' '));

/** Auxiliaries that open a question before its subject ("does the pool close…"). */
const AUXILIARIES: ReadonlySet<string> = new Set('do does did will would can could should'.split(' '));
/** Words that may stand before such an auxiliary: "when does…", "what time does…". */
const AUXILIARY_LEADS: ReadonlySet<string> = new Set('what whats when where why how which time day date long late early often'.split(' '));

/**
 * The word after a question's subject, as in "what time does breakfast finish" or "when does the
 * pool open": a verb, when WordNet knows it as one (2026-12-05). The subject is one word after the
 * question's auxiliary and an optional determiner, and the word ends the clause or is followed by
 * a stopword ("finish on a Saturday"); only wh-words ("when", "what time") stand before the
 * auxiliary, so in "do you do vegan breakfast" the last word stays a topic.
 */
function followsAskedSubject(words: readonly string[], index: number): boolean {
  // Another content word after it would be the verb ("does our benefits package include…", "when
  // do pay rises happen"); an indefinite object is not ("does scanning cost anything").
  if (index + 1 < words.length && !STOPWORDS.has(words[index + 1]!) && !INDEFINITE_OBJECTS.has(words[index + 1]!)) return false;
  let at = index - 1;
  if (at < 1 || STOPWORDS.has(words[at]!) || !/^[a-z]+$/.test(words[at]!)) return false;
  at -= 1;
  if (DETERMINERS.has(words[at]!)) at -= 1;
  if (at < 0 || !AUXILIARIES.has(words[at]!)) return false;
  for (let before = 0; before < at; before++) if (!AUXILIARY_LEADS.has(words[before]!)) return false;
  return wordClasses(words[index]!).listed.verb;
}

/** Words that place a period relative to now ("next week", "last month"), and the periods. */
const RELATIVE_LEADS: ReadonlySet<string> = new Set('next last this coming following'.split(' '));
const PERIODS: ReadonlySet<string> = new Set('week weeks month months year years'.split(' '));

/** A noun of an idiom that names nothing asked about (2026-12-05): "will I get in trouble", "on top of me", "every single year". */
function inIdiom(word: string, previous: string, next: string): boolean {
  return (word === 'trouble' && previous === 'in') || (word === 'top' && previous === 'on' && next === 'of') || (word === 'single' && previous === 'every');
}

function kindOf(word: string, previous: string, next: string): TermKind {
  if (/\d/.test(word) || isNumberWord(word) || ordinalValue(word) !== null) return 'specific';
  // When the asker's situation happens ("I'm moving next week"), a detail like a date (2026-12-05).
  if ((RELATIVE_LEADS.has(previous) && PERIODS.has(word)) || (RELATIVE_LEADS.has(word) && PERIODS.has(next))) return 'specific';
  // "at night", "last night": when, as "in the morning" is; "per night" stays a rate's unit.
  if ((word === 'night' || word === 'nights') && (previous === 'at' || previous === 'last')) return 'specific';
  if (DATE_WORDS.has(word) || QUANTITY_WORDS.has(word) || PERSON_WORDS.has(word)) return 'specific';
  if (PLACE_WORDS.has(word) || PLACE_PAIRS.has(`${previous} ${word}`) || PLACE_PAIRS.has(`${word} ${next}`)) return 'specific';
  // "Is that fine?" asks whether something is allowed; "a parking fine" names a penalty (2026-12-05).
  if (word === 'fine' && !ALLOWED_CONTEXT.has(previous)) return 'topic';
  if (GENERIC_WORDS.has(word) || adverbOnly(word)) return 'generic';
  if (inIdiom(word, previous, next)) return 'generic';
  return 'topic';
}

/**
 * The region words for the places a question names ("Portugal" → `europe abroad`), for searching:
 * a policy says "working from abroad", a person asks about working from Portugal.
 *
 * @example
 * placeRegionWords('Can I work from Portugal for a month?') // ['europe', 'abroad']
 */
export function placeRegionWords(question: string): string[] {
  const found = new Set<string>();
  for (const term of questionTerms(question)) for (const region of PLACE_REGIONS.get(term.word) ?? []) found.add(region);
  return [...found];
}

/** What WordNet says of a word in each part of speech: whether it lists it, and how often its sense-tagged texts use it so. */
interface WordClasses {
  listed: Record<WordNetPos, boolean>;
  tagged: Record<WordNetPos, number>;
}

/** Answers of {@link wordClasses}, by word. */
const wordClassesCache = new Map<string, WordClasses>();

/**
 * {@link WordClasses} of a word, read from WordNet once and remembered (bounded: an app sees an
 * open vocabulary), since the gate, the place search and the offline answerer each read the
 * question's terms on the request's path.
 */
function wordClasses(word: string): WordClasses {
  const cached = wordClassesCache.get(word);
  if (cached !== undefined) return cached;
  const wordNet = loadWordNet();
  const positions = ['noun', 'verb', 'adj', 'adv'] as const;
  const classes: WordClasses = {
    listed: Object.fromEntries(positions.map((pos) => [pos, wordNet.lemmas(word, pos).length > 0])) as Record<WordNetPos, boolean>,
    tagged: Object.fromEntries(positions.map((pos) => [pos, wordNet.taggedSenses(word, pos)])) as Record<WordNetPos, number>,
  };
  if (wordClassesCache.size >= 50_000) wordClassesCache.clear();
  wordClassesCache.set(word, classes);
  return classes;
}

/** A word WordNet knows only as an adverb ("mostly", "afterwards", "anyhow"): it says how or when, never what a question is about. */
function adverbOnly(word: string): boolean {
  const { listed } = wordClasses(word);
  return listed.adv && !listed.noun && !listed.verb && !listed.adj;
}
