import type { PlainTraceInput } from '../../contract/plain-trace.js';
import type { RagMode } from '../../contract/trace.js';

/**
 * An eval target: the app under test, asked one question at a time. groundcheck's own pipeline is
 * the default target; an HTTP endpoint (`createHttpTarget`) and a module exporting `answer()`
 * (`loadModuleTarget`) are the others, and any object of this shape works from code. The runner
 * judges exactly the chunks a target returns.
 */
export interface EvalTarget {
  /** `http`, `module`, or your own kind. */
  readonly kind: string;
  /** Shown in reports and progress: `POST http://127.0.0.1:3000/api/chat`, `module ./eval-target.ts`. */
  readonly name: string;
  /**
   * What decides the target's answers, for the cache key: the request mapping, the module's
   * path and content, a version you bump. Never a secret (it is hashed, but stays stable when a
   * token rotates). Change it and cached answers are no longer used.
   */
  readonly identity: unknown;
  /** Whether the target can answer with retrieval off (RAG-off). Without it there is no pairwise comparison. */
  readonly norag: boolean;
  /**
   * Answer one question. `mode: 'norag'` asks for the answer without retrieval. The result is
   * validated by the runner (the contract's `PlainTraceSchema`, without the query).
   */
  answer(question: string, options: TargetCallOptions): Promise<TargetAnswer>;
}

/** What a target answers: the plain record of the contract without the query and mode (the runner knows them). */
export type TargetAnswer = Omit<PlainTraceInput, 'query' | 'mode'>;

export interface TargetCallOptions {
  mode: RagMode;
  signal?: AbortSignal;
}

/** Where a target is described: in a suite file (`target`) or with `--target`. Paths are absolute. */
export type TargetSpec = GroundcheckTargetSpec | HttpTargetSpec | ModuleTargetSpec;

export interface GroundcheckTargetSpec {
  kind: 'groundcheck';
}

/** Where the answer and the chunks are in a target's JSON response: dot paths (`data.reply`, `choices.0.text`). */
export interface ResponseMapping {
  /** [answer='answer'] */
  answer: string;
  /** The list of chunks. [chunks='chunks', else 'sources'] */
  chunks: string | null;
  /**
   * The list of chunks the app's relevance gate withheld from its model when it refused without
   * calling it (entries read like the chunks' entries); absent or empty when it has none.
   * [withheldChunks='withheldChunks']
   */
  withheldChunks: string;
  /** In each chunk entry. [id='id', else 'chunkId'] */
  id: string | null;
  /** [text='text'] */
  text: string;
  /** [title='title'] */
  title: string;
  /** [updated='updated'] */
  updated: string;
  /** [score='score'] */
  score: string;
  /** The model that answered, when the response says. [model='model'] */
  model: string;
}

export interface HttpTargetSpec {
  kind: 'http';
  url: string;
  /** [method='POST'] */
  method: 'GET' | 'POST' | 'PUT';
  /** Header templates: `${NAME}` is read from the environment when the request is made. */
  headers: Record<string, string>;
  /** The JSON body template: `"{{question}}"` and `"{{mode}}"` are filled in. `null` for GET. */
  body: unknown;
  /** What `{{mode}}` becomes per mode (any JSON value). [modes={ rag: 'rag', norag: 'norag' }] */
  modes: { rag: unknown; norag: unknown };
  /** Whether the endpoint can answer with retrieval off. [norag=true] */
  norag: boolean;
  response: ResponseMapping;
  /** [timeoutMs=60000] */
  timeoutMs: number;
  /** Bump to stop using cached answers after the app changed. [version=null] */
  version: string | null;
}

export interface ModuleTargetSpec {
  kind: 'module';
  /** Absolute path of the module. */
  path: string;
  /** How the path was written (for messages). */
  given: string;
  /** Overrides the module's own `norag` export. */
  norag: boolean | null;
  /** Bump to stop using cached answers after the app changed. [version=null] */
  version: string | null;
}
