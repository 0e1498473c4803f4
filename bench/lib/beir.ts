import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BenchUsageError, existingPath } from './args.js';
import type { Judgments } from './ir-metrics.js';

export interface BeirDocument {
  id: string;
  title: string;
  text: string;
}

export interface BeirQuery {
  id: string;
  text: string;
}

export interface BeirDataset {
  corpusFiles: string[];
  queriesFile: string;
  qrelsFile: string;
  documents: BeirDocument[];
  /** Only the queries that have at least one relevance judgment, in file order. */
  queries: BeirQuery[];
  qrels: Map<string, Judgments>;
}

/**
 * Resolve the dataset files from flags: `--data <folder>` (default `<repo>/../shared/data/scifact`)
 * holding `corpus.jsonl` or `corpus.part*.jsonl`, `queries.jsonl` and `qrels/train.tsv`; or the
 * individual files with `--corpus` (a file, or a comma-separated list of files), `--queries`, `--qrels`.
 */
export function resolveBeirFiles(flags: Map<string, string>, defaultFolder: string): { corpusFiles: string[]; queriesFile: string; qrelsFile: string } {
  const needsFolder = !flags.has('corpus') || !flags.has('queries') || !flags.has('qrels');
  const folder = needsFolder ? existingPath(flags, 'data', defaultFolder, 'folder') : '';
  let corpusFiles: string[];
  if (flags.has('corpus')) {
    corpusFiles = flags.get('corpus')!.split(',').map((part) => existingPath(new Map([['corpus', part]]), 'corpus', '', 'file'));
  } else {
    const single = join(folder, 'corpus.jsonl');
    const parts = listParts(folder);
    corpusFiles = parts.length > 0 ? parts : [existingPath(new Map(), 'corpus', single, 'file')];
  }
  const queriesFile = existingPath(flags, 'queries', join(folder, 'queries.jsonl'), 'file');
  const qrelsFile = existingPath(flags, 'qrels', join(folder, 'qrels', 'train.tsv'), 'file');
  return { corpusFiles, queriesFile, qrelsFile };
}

function listParts(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => /^corpus\.part\d+\.jsonl$/.test(name))
    .sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]))
    .map((name) => join(folder, name));
}

/** Load a BEIR-format dataset (corpus JSONL, queries JSONL, qrels TSV with a header line). */
export function loadBeir(files: { corpusFiles: string[]; queriesFile: string; qrelsFile: string }): BeirDataset {
  const documents: BeirDocument[] = [];
  for (const file of files.corpusFiles) {
    for (const record of readJsonl(file)) {
      documents.push({ id: String(record._id), title: String(record.title ?? ''), text: String(record.text ?? '') });
    }
  }
  const qrels = new Map<string, Map<string, number>>();
  const lines = readFileSync(files.qrelsFile, 'utf8').split('\n');
  lines.forEach((line, index) => {
    const fields = line.trim().split('\t');
    if (fields.length < 3 || (index === 0 && !/^\d+$/.test(fields[2]!))) return; // header or blank
    const [queryId, documentId, grade] = fields as [string, string, string];
    if (!qrels.has(queryId)) qrels.set(queryId, new Map());
    qrels.get(queryId)!.set(documentId, Number(grade));
  });
  const queries: BeirQuery[] = [];
  for (const record of readJsonl(files.queriesFile)) {
    const id = String(record._id);
    if (qrels.has(id)) queries.push({ id, text: String(record.text ?? '') });
  }
  if (documents.length === 0) throw new BenchUsageError(`no documents in ${files.corpusFiles.join(', ')}`);
  if (queries.length === 0) throw new BenchUsageError(`no query in ${files.queriesFile} has a judgment in ${files.qrelsFile}`);
  return { ...files, documents, queries, qrels };
}

function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new BenchUsageError(`${file} line ${index + 1} is not JSON`);
      }
    });
}
