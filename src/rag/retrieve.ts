import { expandCasual } from '../text/casual.js';
import { joinPhrasalVerbs } from '../text/compounds.js';
import { correctSpelling } from './spelling.js';
import { expandAcronyms } from './acronym-search.js';
import { InvalidInputError } from '../errors.js';
import { STOPWORDS, words } from '../text/text.js';
import { DEFAULT_FIELD_WEIGHTS, type GroundcheckIndex, type TextFieldWeights } from './store.js';
import type { StoredChunk } from './index-types.js';
import type { RetrievalSummary, RetrievedChunk } from '../contract/trace.js';
import { coverageOfTerms, gateTerms, withCloseForms, withoutDocumentWords, type TermCoverageOptions } from './term-coverage.js';
import { placeRegionWords } from '../text/question-terms.js';

export interface RetrieveOptions {
  /** Chunks handed to the model. [topK=DEFAULT_TOP_K=8] */
  topK?: number;
  /** Candidates taken from each of the vector and the text search before fusion. [candidates=max(50, 5·topK)] */
  candidates?: number;
  /**
   * The relevance gate: a chunk enters the context only when its cosine similarity to the question
   * is at least this. When none passes, the answer is the refusal and the model is not called.
   * [minSimilarity=the embedder's `suggestedMinSimilarity`, else 0.25]
   */
  minSimilarity?: number;
  /**
   * The term-coverage half of the relevance gate: the question is refused without calling the
   * model when a topic word of its asking clause occurs nowhere in the corpus, in no close form
   * and in nothing close in meaning (see `checkTermCoverage`). `false` turns it off.
   * [termCoverage={ enabled: true }]
   */
  termCoverage?: TermCoverageOptions | false;
  /**
   * Read a misspelt word of the question as the corpus word one slip away ("paternitty",
   * "refrence") when searching and gating (`spelling.ts`); the trace keeps the question as typed.
   * [spelling=true]
   */
  spelling?: boolean;
  /**
   * Read an acronym the corpus never holds as the words the corpus spells it out with ("SPL":
   * "shared parental leave"; `acronym-search.ts`) when searching and gating; the trace keeps the
   * question as typed. [acronyms=true]
   */
  acronyms?: boolean;
  /**
   * How the vector and the BM25 rankings are merged.
   * - `convex`: each list's scores are divided by that list's best score for this question (so
   *   both read as "fraction of the best match"), then added with `vectorWeight` and `textWeight`.
   *   A chunk missing from one list gets that list's lowest normalised score, an upper bound of
   *   its true one. It keeps how much better the best match is, which rank-only fusion throws away.
   * - `rrf`: reciprocal-rank fusion, Σ weight / (rrfK + rank): ignores scores, only ranks.
   *
   * On SciFact (train) `convex` gave nDCG@10 0.703 against 0.683 for `rrf` with the same lists,
   * with no tuned constant (docs/performance.md). [fusion='convex']
   */
  fusion?: 'convex' | 'rrf';
  /** Reciprocal-rank fusion constant (only for `fusion: 'rrf'`). [rrfK=60] */
  rrfK?: number;
  /** Weight of the vector ranking in the fusion; 0 turns vector search off. [vectorWeight=1] */
  vectorWeight?: number;
  /** Weight of the BM25 ranking in the fusion; 0 turns full-text search off. [textWeight=1] */
  textWeight?: number;
  /** FTS5 column weights. [fieldWeights={ title: 1, section: 2, body: 1 }] */
  fieldWeights?: TextFieldWeights;
  /**
   * `rank`: best first. `edges`: the strongest chunks first and last, the weakest in the middle,
   * where models attend least ("lost in the middle"). [order='rank']
   */
  order?: 'rank' | 'edges';
}

/** A retrieval: the summary every trace keeps, plus the chunks and the time it took. */
export interface RetrievalResult extends RetrievalSummary {
  query: string;
  /** The chunks that passed the gate, in the order they go into the prompt. */
  chunks: RetrievedChunk[];
  /** When the gate fired (`gated`): the chunks it withheld, the fused top k, best first; empty otherwise. */
  withheld: RetrievedChunk[];
  durationMs: number;
}

/** Longest question accepted, in characters. */
export const MAX_QUERY_LENGTH = 2000;

/** The `topK` a retrieval uses when none is given (the OTLP export reports it as `gen_ai.request.top_k`). */
export const DEFAULT_TOP_K = 8;

/**
 * Hybrid retrieval: sqlite-vec KNN and FTS5 BM25, fused (by default the convex sum of each list's
 * max-normalised scores; `fusion: 'rrf'` for reciprocal-rank fusion), then the relevance gate. Run it once per question and pass the result on; nothing downstream retrieves again.
 *
 * @example
 * const retrieval = await retrieve(index, 'How long is parental leave?', { topK: 5 });
 */
export async function retrieve(index: GroundcheckIndex, query: string, options: RetrieveOptions = {}): Promise<RetrievalResult> {
  const started = performance.now();
  const question = validateQuery(query);
  const topK = positiveInteger(options.topK ?? DEFAULT_TOP_K, 'topK');
  const candidates = positiveInteger(options.candidates ?? Math.max(50, topK * 5), 'candidates');
  const minSimilarity = options.minSimilarity ?? index.embedder.suggestedMinSimilarity ?? 0.25;
  const fusion = options.fusion ?? 'convex';
  if (fusion !== 'convex' && fusion !== 'rrf') {
    throw new InvalidInputError(`option fusion ${JSON.stringify(fusion)} is invalid: use 'convex' or 'rrf'`, { code: 'invalid_option' });
  }
  const rrfK = options.rrfK ?? 60;
  const vectorWeight = options.vectorWeight ?? 1;
  const textWeight = options.textWeight ?? 1;

  // Searched and gated with chat spellings written out ("mgr" as "manager", "ive" as "I've") and
  // misspelt words read as the corpus word they slip from ("refrence"); `query` keeps the question as typed.
  const casual = expandCasual(question);
  const spelled = options.spelling === false ? casual : await correctSpelling(index, casual);
  // Acronyms the corpus never holds, read as the words it spells them out with ("SPL": "shared parental leave").
  const expanded = options.acronyms === false ? spelled : await expandAcronyms(index, spelled);
  // A phrasal verb the corpus writes as one word, read as that word ("broke down": "breakdown").
  const statistics = index.corpusStatistics();
  const joined = joinPhrasalVerbs(expanded, (wordStem) => statistics.documentFrequencies([wordStem]).has(wordStem));
  // Read once, for the gate and the search alike.
  const terms = gateTerms(joined);
  // A word the corpus holds only in a close form is searched as that form too ("complain": "complaint").
  // Words for the documents themselves are left out of the search when the question names a topic ("sick pay policy").
  const searchText = withCloseForms(index, withoutDocumentWords(joined, terms), terms);
  const [queryVector] = (await index.embedder.embed({ values: [searchText], purpose: 'query' })).embeddings;
  if (!queryVector) throw new Error('embedder returned no vector for the query');
  // A zero vector (no known word in the question) has no direction: cosine is undefined, not 1.
  const hasDirection = queryVector.some((component) => component !== 0);
  const vectorHits = vectorWeight > 0 && hasDirection ? index.vectorSearch(queryVector, candidates) : [];
  // Places are searched for by their region too ("Portugal" finds "working from abroad").
  const textQuery = [searchText, ...placeRegionWords(searchText)].join(' ');
  const textHits = textWeight > 0 ? index.textSearch(buildMatchQuery(textQuery), candidates, options.fieldWeights ?? DEFAULT_FIELD_WEIGHTS) : [];

  const fused = new Map<number, { score: number; vectorRank: number | null; textRank: number | null; similarity: number | null; bm25: number | null }>();
  const entry = (rowid: number) => {
    let value = fused.get(rowid);
    if (!value) {
      value = { score: 0, vectorRank: null, textRank: null, similarity: null, bm25: null };
      fused.set(rowid, value);
    }
    return value;
  };
  // Convex fusion: scores relative to this question's best hit in each list (BM25 is negated:
  // FTS5 reports lower-is-better). A chunk absent from a list scores that list's floor.
  const vectorScores = vectorHits.map((hit) => hit.similarity);
  const textScores = textHits.map((hit) => -hit.bm25);
  const vectorScale = relativeScale(vectorScores);
  const textScale = relativeScale(textScores);
  vectorHits.forEach((hit, position) => {
    const value = entry(hit.rowid);
    value.score += fusion === 'rrf' ? vectorWeight / (rrfK + position + 1) : vectorWeight * vectorScale.of(vectorScores[position]!);
    value.vectorRank = position + 1;
    value.similarity = hit.similarity;
  });
  textHits.forEach((hit, position) => {
    const value = entry(hit.rowid);
    value.score += fusion === 'rrf' ? textWeight / (rrfK + position + 1) : textWeight * textScale.of(textScores[position]!);
    value.textRank = position + 1;
    value.bm25 = hit.bm25;
  });
  if (fusion === 'convex') {
    for (const value of fused.values()) {
      if (value.vectorRank === null && vectorHits.length > 0) value.score += vectorWeight * vectorScale.floor;
      if (value.textRank === null && textHits.length > 0) value.score += textWeight * textScale.floor;
    }
  }

  const ranked = [...fused.entries()].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]).slice(0, topK);
  const missing = ranked.filter(([, value]) => value.similarity === null).map(([rowid]) => rowid);
  const filled = hasDirection ? index.similarities(queryVector, missing) : new Map<number, number>();
  for (const [rowid, value] of ranked) if (value.similarity === null) value.similarity = filled.get(rowid) ?? 0;

  const topSimilarity = ranked.length === 0 ? null : Math.max(...ranked.map(([, value]) => value.similarity ?? 0));
  const coverageOptions = options.termCoverage === false ? null : options.termCoverage ?? {};
  const termCoverage = coverageOptions && coverageOptions.enabled !== false ? await coverageOfTerms(index, terms, coverageOptions) : null;
  const uncovered = (termCoverage?.uncoveredTerms.length ?? 0) > 0;
  const passing = uncovered ? [] : ranked.filter(([, value]) => (value.similarity ?? 0) >= minSimilarity);
  // One read for both lists: the chunks that pass are among the ranked ones the gate may withhold.
  const byRowid = new Map(index.getChunks(ranked.map(([rowid]) => rowid)).map((chunk) => [chunk.rowid, chunk]));
  const toChunks = (list: typeof ranked): RetrievedChunk[] => {
    const chunks: RetrievedChunk[] = [];
    for (const [rowid, value] of list) {
      const chunk = byRowid.get(rowid);
      if (!chunk) continue;
      chunks.push(retrievedChunk(chunk, { score: value.similarity ?? 0, fusedScore: value.score, rank: chunks.length + 1, vectorRank: value.vectorRank, textRank: value.textRank }));
    }
    return chunks;
  };
  const chunks = toChunks(passing);
  const gated = chunks.length === 0;
  // When the gate fires, the ranked chunks it withheld are kept for the judge (never for the model).
  const withheld = gated ? toChunks(ranked) : [];

  return {
    query: question,
    chunks: options.order === 'edges' ? orderByEdges(chunks) : chunks,
    withheld,
    gated,
    gateReason: uncovered ? 'coverage' : gated ? 'similarity' : null,
    ...(termCoverage ? { termCoverage } : {}),
    minSimilarity,
    topSimilarity,
    candidates: { vector: vectorHits.length, text: textHits.length, fused: fused.size },
    embedder: index.embedder.fingerprint,
    durationMs: performance.now() - started,
  };
}

/** Trim and check a question: non-empty and at most {@link MAX_QUERY_LENGTH} characters. */
export function validateQuery(query: unknown): string {
  if (typeof query !== 'string') throw new InvalidInputError('question must be a string', { code: 'question_not_string' });
  const trimmed = query.trim();
  if (trimmed === '') throw new InvalidInputError('question is empty', { code: 'question_empty' });
  if (trimmed.length > MAX_QUERY_LENGTH) {
    throw new InvalidInputError(`question is ${trimmed.length} characters; the limit is ${MAX_QUERY_LENGTH}`, { code: 'question_too_long' });
  }
  return trimmed;
}

/**
 * Turn any user text into a safe FTS5 MATCH expression: its content words, each double-quoted
 * (so FTS5 operators and punctuation such as `C++?`, `"`, `NEAR(`, `*` are inert), joined by OR.
 * Returns `''` when the text has no content words.
 */
export function buildMatchQuery(text: string): string {
  const terms = [...new Set(words(text).filter((word) => !STOPWORDS.has(word)))].slice(0, 64);
  return terms.map((term) => `"${term}"`).join(' OR ');
}

/** Divide by the best score (when positive); the floor is the worst listed score, so divided. */
function relativeScale(scores: readonly number[]): { of(score: number): number; floor: number } {
  const best = scores.length === 0 ? 0 : Math.max(...scores);
  if (!(best > 0)) return { of: () => 0, floor: 0 };
  return { of: (score) => score / best, floor: Math.min(...scores) / best };
}

/** Strongest first and last: ranks 1, 3, 5, … then …, 6, 4, 2. */
export function orderByEdges<T>(items: T[]): T[] {
  const front: T[] = [];
  const back: T[] = [];
  items.forEach((item, index) => (index % 2 === 0 ? front : back).push(item));
  return [...front, ...back.reverse()];
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1 || value > 4096) {
    throw new InvalidInputError(`option ${name} ${String(value)} is invalid: use an integer from 1 to 4096`, { code: 'invalid_option' });
  }
  return value;
}

/**
 * A stored chunk as the trace records it: what the model sees (`modelText`) and how it ranked.
 *
 * @example
 * retrievedChunk(index.getChunk('leave-policy#parental-leave')!, { score: 0, fusedScore: 0, rank: 1, vectorRank: null, textRank: null })
 */
export function retrievedChunk(chunk: StoredChunk, ranking: Pick<RetrievedChunk, 'score' | 'fusedScore' | 'rank' | 'vectorRank' | 'textRank'>): RetrievedChunk {
  return {
    chunkId: chunk.chunkId,
    document: chunk.documentSlug,
    ...(chunk.url !== null ? { url: chunk.url } : {}),
    title: chunk.title,
    section: chunk.section,
    updated: chunk.updated,
    text: chunk.modelText,
    hash: chunk.hash,
    ...ranking,
  };
}
