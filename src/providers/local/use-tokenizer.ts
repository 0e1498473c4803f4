/**
 * The SentencePiece tokenizer of the Universal Sentence Encoder lite.
 *
 * Ported from `@tensorflow-models/universal-sentence-encoder` 1.3.3 (`tokenizer/index.ts` and
 * `tokenizer/trie.ts`, Copyright 2019 Google LLC, Apache License 2.0), itself a port of
 * SentencePiece's `EncodeAsIds`: Viterbi over a lattice of vocabulary pieces. The ids are the
 * same, quirks included (UTF-16 code units as symbols, a lone unknown code unit scored 0, a best
 * score of exactly 0 read as "none yet", later ties winning, runs of unknown ids merged); a test
 * compares it with the package's `Tokenizer`, kept as a development dependency for that.
 *
 * Why a port and not the package: the package declares tfjs 3 as a peer and requires
 * tfjs-core at load, so an app installing groundcheck (where our `overrides` entry does not
 * apply) would get a second, 3.x tfjs-core nested under it, loaded beside ours with a
 * "Platform node has already been set" warning. And its lattice copies the rest of the input at
 * every position (`symbols.slice(i)`), which is quadratic: 10 s for a 13,000-token text; this
 * one walks the trie from an offset instead.
 */

/** The `@tensorflow-models/universal-sentence-encoder` version whose tokenizer this reproduces (part of the fingerprint). */
export const USE_TOKENIZER_VERSION = '1.3.3';

/** A vocabulary entry: the piece (`▁` marks a preceding space) and its log probability. */
export type VocabularyEntry = readonly [piece: string, score: number];

/** The first ids are reserved for the unknown piece, control symbols and user-defined symbols. */
const RESERVED_SYMBOLS_COUNT = 6;

/** `▁` (U+2581), which stands for a space. */
const SEPARATOR = '\u2581';

interface TrieNode {
  children: Map<string, TrieNode>;
  end: boolean;
  length: number;
  score: number;
  id: number;
}

function trieNode(length: number): TrieNode {
  return { children: new Map(), end: false, length, score: 0, id: 0 };
}

export class UseTokenizer {
  private readonly root = trieNode(0);

  constructor(private readonly vocabulary: readonly VocabularyEntry[]) {
    for (let id = RESERVED_SYMBOLS_COUNT; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id]!;
      let node = this.root;
      for (let index = 0; index < piece.length; index++) {
        const symbol = piece[index]!;
        let child = node.children.get(symbol);
        if (!child) {
          child = trieNode(node.length + 1);
          node.children.set(symbol, child);
        }
        node = child;
      }
      if (piece.length > 0) {
        node.end = true;
        node.score = score;
        node.id = id;
      }
    }
  }

  /** Vocabulary ids of `text` (NFKC-normalized, spaces as `▁`, a `▁` in front). */
  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    const symbols = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const size = symbols.length;
    // pieces[end] lists the pieces ending at `end`, by ascending start (the order the original
    // visits them in, which decides ties).
    const pieces: { start: number; score: number; id: number }[][] = Array.from({ length: size + 1 }, () => []);
    for (let start = 0; start < size; start++) {
      let node = this.root.children.get(symbols[start]!);
      let found = false;
      for (let offset = start; offset < size && node; offset++) {
        if (node.end) {
          pieces[start + node.length]!.push({ start, score: node.score, id: node.id });
          found = true;
        }
        node = node.children.get(symbols[offset + 1]!);
      }
      if (!found) pieces[start + 1]!.push({ start, score: 0, id: 0 });
    }
    const best = new Array<number>(size + 1).fill(0);
    const words = new Array<number>(size + 1).fill(0);
    for (let end = 0; end <= size; end++) {
      for (const piece of pieces[end]!) {
        const score = piece.score + best[piece.start]!;
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          words[end] = piece.id;
        }
      }
    }
    const reversed: number[] = [];
    for (let position = size; position > 0; position -= this.vocabulary[words[position]!]![0].length) reversed.push(words[position]!);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}
