import { escapeRegExp } from './text.js';

/**
 * Chat-box spelling, read as the words it stands for (for searching and for the relevance gate):
 * contractions typed without their apostrophe ("ive", "isnt", "dont") and common abbreviations
 * ("mgr", "hols", "xmas", "wfh"). A corpus writes "manager" and "holiday"; a person types "mgr" and
 * "hols", and the term-coverage gate refused such questions because the corpus never holds the
 * abbreviation (METHODOLOGY.md, "The relevance gate"). Whole words only, case ignored; the
 * question the user typed is what traces, captures and judges keep.
 *
 * Deliberately a short list of forms that mean one thing in ordinary writing: "wont", "ill",
 * "id", "its", "were", "lets", "shell" are English words too and are left alone.
 */
const CASUAL: ReadonlyMap<string, string> = new Map([
  // Contractions without the apostrophe.
  ['im', "I'm"], ['ive', "I've"], ['youre', "you're"], ['youve', "you've"], ['youll', "you'll"], ['youd', "you'd"],
  ['weve', "we've"], ['theyre', "they're"], ['theyve', "they've"], ['isnt', "isn't"], ['arent', "aren't"],
  ['wasnt', "wasn't"], ['werent', "weren't"], ['dont', "don't"], ['doesnt', "doesn't"], ['didnt', "didn't"],
  ['cant', "can't"], ['couldnt', "couldn't"], ['wouldnt', "wouldn't"], ['shouldnt', "shouldn't"],
  ['havent', "haven't"], ['hasnt', "hasn't"], ['hadnt', "hadn't"], ['mustnt', "mustn't"], ['thats', "that's"],
  ['whats', "what's"], ['theres', "there's"], ['hows', "how's"], ['whos', "who's"], ['aint', "isn't"],
  ['hes', "he's"], ['wheres', "where's"], ['whens', "when's"],
  // Abbreviations.
  ['mgr', 'manager'], ['mgrs', 'managers'], ['hol', 'holiday'], ['hols', 'holidays'], ['xmas', 'Christmas'],
  ['wfh', 'work from home'], ['bday', 'birthday'], ['pls', 'please'], ['plz', 'please'], ['thx', 'thanks'],
  ['dept', 'department'], ['approx', 'approximately'], ['asap', 'as soon as possible'], ['appt', 'appointment'],
  ['appts', 'appointments'], ['mins', 'minutes'], ['hrs', 'hours'], ['wk', 'week'], ['wks', 'weeks'],
  ['yr', 'year'], ['yrs', 'years'], ['tmrw', 'tomorrow'], ['msg', 'message'], ['govt', 'government'],
  ['gf', 'partner'], ['bf', 'partner'], ['ooo', 'out of office'], ['1:1', 'one-to-one meeting'], ['1:1s', 'one-to-one meetings'],
  // Chat words.
  ['u', 'you'], ['ur', 'your'], ['r', 'are'], ['ppl', 'people'], ['abt', 'about'], ['tho', 'though'], ['thru', 'through'],
  ['btw', 'by the way'], ['idk', "I don't know"], ['cos', 'because'], ['coz', 'because'], ['cuz', 'because'],
  ['b4', 'before'], ['tix', 'tickets'], ['lol', ''], ['til', 'until'],
  // Slang and idiom with one meaning in a customer's question (2026-12-05): "someone nicked my bike", "can I get my money back".
  ['nicked', 'stolen'], ['money back', 'refund'], ['moving house', 'moving home'], ['dodgy', 'suspicious'],
  // Clipped words with one meaning (2026-12-06): "the comms team", "the stats", "40 quid", "the docs".
  ['comms', 'communications'], ['stats', 'statistics'], ['quid', 'pounds'], ['docs', 'documents'], ['info', 'information'],
  // Family and health words people type (2026-12-07): "my nan died", "my gran is in hospital", "can I self cert"
  // (not before an apostrophe, as every entry here: "gran's" stays as typed).
  // "nan" only after a possessive: alone it is also the "NaN" of an error message.
  ...['my', 'your', 'our', 'his', 'her'].map((whose): [string, string] => [`${whose} nan`, `${whose} grandparent`]),
  ['nana', 'grandparent'], ['nanna', 'grandparent'], ['gran', 'grandparent'], ['granny', 'grandparent'], ['grandma', 'grandparent'],
  ['grandad', 'grandparent'], ['granddad', 'grandparent'], ['grandpa', 'grandparent'], ['grandmother', 'grandparent'], ['grandfather', 'grandparent'],
  ['self cert', 'self-certify'], ['self-cert', 'self-certify'],
  // Idioms and clipped words of one meaning (2026-12-07): "when does it kick in", "do I need my own hi-vis".
  ['kick in', 'take effect'], ['kicks in', 'takes effect'], ['kicked in', 'taken effect'],
  ['hi-vis', 'high-visibility'], ['hi vis', 'high-visibility'], ['hi viz', 'high-visibility'], ['hi-viz', 'high-visibility'],
  // Weekdays (2026-12-05): not "wed", "sat", "sun", which are words too.
  ['mon', 'Monday'], ['tue', 'Tuesday'], ['tues', 'Tuesday'], ['thu', 'Thursday'], ['thur', 'Thursday'], ['thurs', 'Thursday'], ['fri', 'Friday'],
]);

/**
 * A spelling stands alone: not inside a word, a code or an address ("R&B", "U.S.", "h/w", "a-b",
 * "x@y"), where a letter is no chat word.
 */
const PATTERN = new RegExp(`(?<![\\p{L}\\p{N}'’:&./@_-])(${[...CASUAL.keys()].map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}'’:&/@_-]|\\.[\\p{L}\\p{N}])`, 'giu');

/**
 * The text with chat-box spellings written out.
 *
 * @example
 * expandCasual('ive asked my mgr about hols') // "I've asked my manager about holidays"
 */
export function expandCasual(text: string): string {
  return text.replace(PATTERN, (match) => CASUAL.get(match.toLowerCase()) ?? match);
}
