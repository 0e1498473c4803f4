import { evidenceFieldsOf, sameEvidenceFields, type EvidenceFields } from './capture-row.js';
import { HashKeyedCache } from './hash-cache.js';

/** Chunk text characters an interner keeps before it starts afresh. */
const MAX_INTERNED_CHARS = 4_000_000;

/**
 * One copy of each chunk's strings for the captures of a middleware. An index reads its chunks
 * anew for every request, so each trace brings fresh copies of the same id, title, section and
 * text (about 3,200 characters a request in the demo). A capture waiting in the write window kept
 * them alive: the young-generation collector copied them, then promoted them to the old
 * generation, request after request. Built from the first copies seen, a capture leaves the fresh
 * ones to die young (demo app, V8's --trace-gc-nvp: what survived young collections per request
 * over the bare app fell from ~7.9 KB to ~2.8 KB), and the caches downstream (the redaction's, the
 * store's evidence keys) compare texts by pointer. The values are equal strings: a capture holds
 * exactly what it held before.
 *
 * Keyed by the chunk's index hash and checked field by field (a wrong or reused hash only costs a
 * miss); bounded by text length and emptied when full (`HashKeyedCache`, as the redaction cache is).
 */
export class ChunkInterner {
  private readonly byHash: HashKeyedCache<EvidenceFields>;

  /** @param maxChars chunk text characters kept before starting afresh. [maxChars=4000000] */
  constructor(maxChars = MAX_INTERNED_CHARS) {
    this.byHash = new HashKeyedCache(maxChars, (fields) => fields.text.length);
  }

  /** The chunk's evidence fields as first seen (each equal to the chunk's own), or the chunk's own the first time. */
  intern(chunk: EvidenceFields): EvidenceFields {
    const known = this.byHash.find(chunk.hash, (fields) => sameEvidenceFields(fields, chunk));
    if (known !== undefined) return known;
    if (typeof chunk.hash !== 'string' || typeof chunk.text !== 'string') return chunk;
    const fields = evidenceFieldsOf(chunk);
    this.byHash.remember(chunk.hash, fields);
    return fields;
  }
}
