import { describe, expect, it } from 'vitest';
import { numberWordsToDigits, replaceNumberWords } from './numbers.js';
import { placeRegionWords, questionTerms } from './question-terms.js';

const kinds = (question: string) => Object.fromEntries(questionTerms(question).map((term) => [term.word, `${term.kind}${term.asking ? '' : ' (scenario)'}`]));

describe('questionTerms', () => {
  it.each([
    ['Can I get paid in bitcoin?', { paid: 'topic', bitcoin: 'topic' }],
    ['Can I work from my parents\' flat in Spain for three weeks in March?', { work: 'topic', parents: 'specific', flat: 'topic', spain: 'specific', 3: 'specific', weeks: 'specific', march: 'specific' }],
    ["What's Sarah Mitchell in Finance paid?", { sarah: 'specific', mitchell: 'specific', finance: 'topic', paid: 'topic' }],
    ['My salary is £29,250. How much life cover would I have?', { salary: 'topic (scenario)', 29250: 'specific (scenario)', life: 'topic', cover: 'topic' }],
    ['A supplier sent me a bottle of wine. Can I keep it?', { supplier: 'topic (scenario)', sent: 'topic (scenario)', bottle: 'topic (scenario)', wine: 'topic (scenario)', keep: 'topic' }],
    ["I'm checking an old payslip: what was the allowance in August 2025?", { checking: 'topic (scenario)', old: 'topic (scenario)', payslip: 'topic (scenario)', allowance: 'topic', august: 'specific', 2025: 'specific' }],
    ['Is that OK, and can I just reply quickly?', { ok: 'generic', reply: 'topic', quickly: 'generic' }],
    // A code starting with a digit is no figure, so the word after it is no unit (2026-12-05).
    ['can i make 2fa mandatory for my team', { make: 'generic', '2fa': 'specific', mandatory: 'topic', team: 'topic' }],
    ['can i take 3 weeks off', { take: 'generic', 3: 'specific', weeks: 'specific' }],
    // "fine" asks whether something is allowed after "is", "that", "it"; elsewhere it names a penalty (2026-12-05).
    ['is that fine', { fine: 'generic' }],
    ['how do i appeal a parking fine', { appeal: 'topic', parking: 'topic', fine: 'topic' }],
    // Prepositions, conjunctions and chat fillers name nothing (2026-12-06: "since" was a topic word the gate looked up).
    ['off sick since monday, do i need a note?', { sick: 'topic', since: 'generic', monday: 'specific', need: 'generic', note: 'topic' }],
    ['tbh what do we get towards a desk', { tbh: 'generic', towards: 'generic', desk: 'topic' }],
    // Not a greeting's "hi": in "hi-vis" it is half a thing's name.
    ['do i need a hi-vis vest', { need: 'generic', hi: 'topic', vis: 'topic', vest: 'topic' }],
  ])('%s', (question, expected) => {
    expect(kinds(question)).toEqual(expected);
  });

  it('reads "what time", "which day" as the form of the question, as "how long"', () => {
    expect(questionTerms('what time do you open').find((term) => term.word === 'time')).toMatchObject({ formWord: true });
    expect(questionTerms('which day is collection day').find((term) => term.word === 'day')).toMatchObject({ formWord: true });
    expect(questionTerms('can i take time off').find((term) => term.word === 'time')).toMatchObject({ formWord: false });
  });

  it('marks verbs after "I", "to", "can" and lets the scenario speak when the asking clause names no topic', () => {
    expect(questionTerms('Can I reply?').find((term) => term.word === 'reply')).toMatchObject({ kind: 'topic', verbLike: true });
    const terms = questionTerms('I set up MFA on my phone but lost it. What do I do?');
    expect(terms.find((term) => term.word === 'mfa')).toMatchObject({ asking: false, focus: true });
  });

  it('typedSentences: a message typed in lower case is read sentence by sentence, abbreviations aside', () => {
    const question = 'my sons laptop died and hes got coursework due friday. can he borrow my work laptop? id be sat next to him';
    const asking = (terms: ReturnType<typeof questionTerms>) => terms.filter((term) => term.asking).map((term) => term.word);
    // The default (the offline answerer's reading): one sentence, all of it asking.
    expect(asking(questionTerms(question))).toContain('coursework');
    // Retrieval's reading: only the sentence ending in "?" asks.
    expect(asking(questionTerms(question, { typedSentences: true }))).toEqual(['laptop', 'borrow', 'work']);
    // "e.g." and "approx." end no sentence.
    expect(asking(questionTerms('can i claim for travel e.g. trains to a client?', { typedSentences: true }))).toContain('trains');
  });

  it('a scene word the asking clause names again is asked about', () => {
    // Before, the first reading won: "bitcoin" stayed scenario and the question passed the gate.
    expect(questionTerms('My bitcoin wallet is ready. Can I get paid in bitcoin?').find((term) => term.word === 'bitcoin')).toMatchObject({ asking: true, focus: true });
    expect(questionTerms('A supplier sent me a bottle of wine. Can I keep it?').find((term) => term.word === 'wine')).toMatchObject({ asking: false });
  });

  it('places bring their region words; e-mail addresses are details', () => {
    expect(placeRegionWords('Can I work from Portugal?')).toEqual(['europe', 'abroad']);
    expect(placeRegionWords('A trip to New York')).toEqual(['usa', 'america', 'abroad']);
    expect(questionTerms('I am jane.doe@example.org: how do I claim mileage?').map((term) => term.word)).toEqual(['claim', 'mileage']);
  });
});

describe('number words', () => {
  it.each([
    [['three', 'weeks'], ['3', 'weeks']],
    [['twenty', 'five', 'days'], ['25', 'days']],
    [['two', 'hundred', 'pounds'], ['200', 'pounds']],
    [['a', 'dozen'], ['a', '12']],
    [['eleven'], ['11']],
  ])('%j → %j', (words, digits) => {
    expect(numberWordsToDigits(words)).toEqual(digits);
  });

  it('rewrites number words in text, leaving everything else', () => {
    expect(replaceNumberWords('I have three years and twenty-five days of service.')).toBe('I have 3 years and 25 days of service.');
    expect(replaceNumberWords('No numbers here.')).toBe('No numbers here.');
  });
});

describe('verbs after the question\'s subject, and indefinite words (2026-12-05)', () => {
  const read = (question: string) => Object.fromEntries(questionTerms(question).map((term) => [term.word, term]));

  it('"finish" in "what time does breakfast finish on a saturday" reads as a verb after its subject', () => {
    const terms = read('what time does breakfast finish on a saturday');
    expect(terms.finish).toMatchObject({ kind: 'topic', verbAfterSubject: true, verbLike: false });
    expect(read('when does the pool open').open?.verbAfterSubject).toBe(true);
  });

  it('not when another content word follows (the verb), nor after "do you do"', () => {
    // "our benefits package include…": "package" ends the subject, "include" is the verb.
    expect(read('Does our benefits package include pet insurance for my dog?').package?.verbAfterSubject).toBe(false);
    expect(read('do you do vegan breakfast').breakfast?.verbAfterSubject).toBe(false);
    expect(read('can i book a parking space').space?.verbAfterSubject).toBe(false);
    // An indefinite object may follow the verb; a verb may not ("pay rises happen": "rises" is a noun).
    expect(read('does scanning cost anything').cost?.verbAfterSubject).toBe(true);
    expect(read('when do pay rises happen').rises?.verbAfterSubject).toBe(false);
  });

  it('"somewhere", "anywhere" and the like stand for what the question does not name', () => {
    expect(read('is there somewhere to charge my electric car').somewhere?.kind).toBe('generic');
    expect(read('is there anywhere to park').anywhere?.kind).toBe('generic');
  });
});

describe('when the asker\'s situation happens, and words of extent (2026-12-05)', () => {
  const kinds = (question: string) => Object.fromEntries(questionTerms(question).map((term) => [term.word, term.kind]));

  it('"next week", "last month", "at night" are details; "per night" and "how many weeks" are not', () => {
    expect(kinds('im moving house next week what do i do')).toMatchObject({ next: 'specific', week: 'specific', moving: 'topic', house: 'topic' });
    expect(kinds('ive run out of credit at night')).toMatchObject({ night: 'specific' });
    expect(kinds('what is the hotel cap per night')).toMatchObject({ night: 'topic' });
    expect(kinds('how many weeks notice do i give')).toMatchObject({ weeks: 'topic' });
  });

  it('"whole" and "entire" size what is named', () => {
    expect(kinds('the power is off in my whole street')).toMatchObject({ whole: 'generic', street: 'topic' });
  });
});

describe('"number" is the value asked for (2026-12-05)', () => {
  it('is a form word, which the gate does not look up', () => {
    const number = questionTerms('whats your phone number').find((term) => term.word === 'number');
    expect(number).toMatchObject({ kind: 'topic', formWord: true });
  });
});

describe('words said of something, and idioms (2026-12-05)', () => {
  const term = (question: string, word: string) => questionTerms(question).find((entry) => entry.word === word);

  it.each([
    ['can my manager go into my work emails and read them whenever he wants?', 'read'],
    ['my GP has put me on tablets that make me a bit drowsy. do i have to tell anyone?', 'drowsy'],
    ['it still hasn\'t come out, is it broken??', 'broken'],
    ['where is the defibrillator if someone collapsed?', 'collapsed'],
    ['my laptop is acting weird', 'weird'],
    ['I\'m not sleeping. what support is there?', 'sleeping'],
  ])('"%s": "%s" is said of something, a topic word the gate does not look up', (question, word) => {
    expect(term(question, word)).toMatchObject({ kind: 'topic', predicative: true });
  });

  it.each([
    // Nouns, "-ing" forms that name an activity, and a word before the noun it describes.
    ['how much is parking at the station', 'parking'],
    ['do you offer gift wrapping', 'wrapping'],
    ['does Harbourline offer electric car charging at the office?', 'electric'],
    ['are there any staff sports clubs?', 'clubs'],
    ['can i pay in bitcoin', 'bitcoin'],
  ])('"%s": "%s" names a thing', (question, word) => {
    expect(term(question, word)).toMatchObject({ kind: 'topic', predicative: false });
  });

  it('the noun of an idiom names no topic: "in trouble", "on top of", "every single"', () => {
    expect(term('am i going to get in trouble for this?', 'trouble')).toMatchObject({ kind: 'generic', idiom: true });
    expect(term('work is getting on top of me', 'top')).toMatchObject({ kind: 'generic', idiom: true });
    expect(term('do i redo it every single year?', 'single')).toMatchObject({ kind: 'generic', idiom: true });
    expect(term('is there trouble with the trains?', 'trouble')).toMatchObject({ kind: 'topic', idiom: false });
    expect(term('what goes on the top shelf?', 'top')).toMatchObject({ kind: 'topic', idiom: false });
  });
});

describe('more words said of something (2026-12-05, later)', () => {
  const term = (question: string, word: string) => questionTerms(question).find((entry) => entry.word === word);

  it('an "-ing" form WordNet has no noun for is a verb, unless it describes the word after it', () => {
    expect(term('me and another dev keep clashing in standups', 'clashing')).toMatchObject({ predicative: true });
    expect(term('does Harbourline offer electric car charging at the office?', 'charging')).toMatchObject({ predicative: true });
    expect(term('does Harbourline offer electric car charging at the office?', 'electric')).toMatchObject({ kind: 'topic', predicative: false });
    expect(term('how many paid volunteering days do we get?', 'volunteering')).toMatchObject({ kind: 'topic', predicative: false });
    expect(term('do you offer gift wrapping', 'wrapping')).toMatchObject({ kind: 'topic', predicative: false });
  });

  it('an adverb before an adjective says how much ("pretty sure"); an adjective before a noun stays a topic word', () => {
    expect(term("pretty sure i'm being paid less than him", 'pretty')).toMatchObject({ predicative: true });
    expect(term('whats the cheapest car', 'cheapest')).toMatchObject({ kind: 'topic', predicative: false });
    expect(term('do you have automatic cars', 'automatic')).toMatchObject({ kind: 'topic', predicative: false });
  });

  it('"loads" is a casual quantity, no topic', () => {
    expect(term('7 objectives, thats loads?? is there a limit', 'loads')).toMatchObject({ kind: 'generic' });
  });
});
