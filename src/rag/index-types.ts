/** The rows the index hands out (`store.ts`), as plain types. */

export interface StoredDocument {
  id: number;
  path: string;
  slug: string;
  title: string;
  updated: string | null;
  /** Hash of the document's source and of the chunking that produced its stored chunks (see `ingestDirectory`). */
  contentHash: string;
  chunkCount: number;
  /** The page the document was crawled from (then also its `path`); `null` for a document from a folder. */
  url: string | null;
}

/** What a crawl remembers of a page it stored, to re-crawl it incrementally. */
export interface PageSource {
  /** `https://docs.example.com`: the origin the page belongs to. */
  origin: string;
  /** `ETag` of the last fetch, sent back as `If-None-Match`. */
  etag: string | null;
  /** `Last-Modified` of the last fetch (the header as sent), sent back as `If-Modified-Since`. */
  lastModified: string | null;
  /** Links from the start page to this one when it was found. */
  depth: number;
  /** Extractor and chunking the stored chunks were made with; a 304 is trusted only while it is the current one. */
  processingKey: string;
  /** When the page was last fetched (ISO 8601). */
  fetchedAt: string;
}

/** A crawled document and its page source. */
export interface StoredPage extends StoredDocument, PageSource {
  url: string;
}

export interface StoredChunk {
  rowid: number;
  chunkId: string;
  documentSlug: string;
  documentPath: string;
  title: string;
  updated: string | null;
  section: string;
  text: string;
  modelText: string;
  hash: string;
  ordinal: number;
  /** The page the chunk's document was crawled from; `null` for a document from a folder. */
  url: string | null;
}

export interface TextHit {
  rowid: number;
  /** FTS5 bm25(); lower (more negative) is better. */
  bm25: number;
}

/** Relative weights of the FTS5 columns in BM25 scoring. */
export interface TextFieldWeights {
  title: number;
  section: number;
  body: number;
}

export const DEFAULT_FIELD_WEIGHTS: TextFieldWeights = { title: 1, section: 2, body: 1 };
