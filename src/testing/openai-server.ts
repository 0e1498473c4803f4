import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the mock server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/** A streamed chat completion (server-sent events, as the API sends for `stream: true`). */
export interface MockStream {
  /** The reply's text pieces, one `chat.completion.chunk` each. */
  deltas: string[];
  /** Pause before each piece, in ms. [intervalMs=0] */
  intervalMs?: number;
  /** Send only this many pieces, then hold the connection open without finishing: the client has to hang up. */
  hangAfter?: number;
  /** [model='gpt-4o-mini-2024-07-18'] */
  model?: string;
  /** [finishReason='stop'] */
  finishReason?: string;
  /** Sent in a last usage chunk when the request asked for it (`stream_options.include_usage`). [promptTokens=20] */
  promptTokens?: number;
  /** [completionTokens=the number of pieces] */
  completionTokens?: number;
}

/**
 * What a handler may answer: a JSON body (status 200), a stream, or full control. A chat
 * completion JSON body (`chatReply`) is sent as a stream, its text in word-sized pieces, when the
 * request asked for `stream: true`.
 */
export type MockServerReply =
  | { status?: number; headers?: Record<string, string>; json: unknown; delayMs?: number }
  | { status?: number; headers?: Record<string, string>; text: string; delayMs?: number }
  | { stream: MockStream; delayMs?: number }
  | { hang: true };

export interface MockOpenAIServerOptions {
  /** Answer a chat completion; default: echoes `mock reply` with usage. */
  chat?: (request: RecordedRequest, callIndex: number) => MockServerReply | Promise<MockServerReply>;
  /** Answer an embeddings request; default: deterministic 8-dimension vectors. */
  embeddings?: (request: RecordedRequest, callIndex: number) => MockServerReply | Promise<MockServerReply>;
  /**
   * How long an idle connection stays open. Node's fetch (undici) opens a new connection for every
   * request when the server announces 2 s or less; raise it to measure throughput over reused
   * connections, as a real endpoint serves them (bench:eval). [keepAliveTimeoutMs=1000]
   */
  keepAliveTimeoutMs?: number;
}

export interface MockOpenAIServer {
  /** Base URL to give the SDK, e.g. `http://127.0.0.1:43123/v1`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A small OpenAI-compatible HTTP server on 127.0.0.1 and a random port, for testing code that uses
 * the `openai` provider with the real SDK: mock the model at its HTTP boundary, nothing else.
 *
 * @example
 * const server = await startMockOpenAIServer({ chat: () => chatReply('Hello') });
 * const chat = createOpenAI({ baseURL: server.url, apiKey: 'test' }).chat('gpt-4o-mini');
 */
export async function startMockOpenAIServer(options: MockOpenAIServerOptions = {}): Promise<MockOpenAIServer> {
  const requests: RecordedRequest[] = [];
  let chatCalls = 0;
  let embeddingCalls = 0;
  const hanging = new Set<ServerResponse>();

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    } catch {
      return send(res, { status: 400, json: { error: { message: 'malformed JSON body', type: 'invalid_request_error' } } });
    }
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body };
    requests.push(recorded);
    let reply: MockServerReply;
    if (recorded.path.endsWith('/chat/completions')) {
      reply = await (options.chat ?? (() => chatReply('mock reply')))(recorded, chatCalls++);
    } else if (recorded.path.endsWith('/embeddings')) {
      reply = await (options.embeddings ?? defaultEmbeddings)(recorded, embeddingCalls++);
    } else {
      reply = { status: 404, json: { error: { message: `no route ${recorded.path}`, type: 'invalid_request_error' } } };
    }
    if ('hang' in reply) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    const streamed = async (stream: MockStream) => {
      const includeUsage = (recorded.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      await sendStream(res, stream, includeUsage);
    };
    if ('stream' in reply) return streamed(reply.stream);
    const completionStream = recorded.body.stream === true && 'json' in reply ? streamOfCompletion(reply.json) : null;
    if (completionStream) return streamed(completionStream);
    send(res, reply);
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A chat-completion body with `content` as the assistant message. */
export function chatReply(content: string, extra: { model?: string; finishReason?: string; promptTokens?: number; completionTokens?: number } = {}): MockServerReply {
  const promptTokens = extra.promptTokens ?? 20;
  const completionTokens = extra.completionTokens ?? 8;
  return {
    json: {
      id: 'chatcmpl-mock',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: extra.model ?? 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: extra.finishReason ?? 'stop', logprobs: null }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    },
  };
}

/** A streamed reply of these text pieces (see {@link MockStream} for pacing and hanging up). */
export function streamReply(deltas: string[], extra: Omit<MockStream, 'deltas'> = {}): MockServerReply {
  return { stream: { deltas, ...extra } };
}

/** An OpenAI-shaped error reply. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): MockServerReply {
  return { status, headers, json: { error: { message, type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', code: null } } };
}

function defaultEmbeddings(request: RecordedRequest): MockServerReply {
  const input = request.body.input;
  const values = Array.isArray(input) ? input.map(String) : [String(input)];
  return {
    json: {
      object: 'list',
      model: String(request.body.model ?? 'mock-embedding'),
      data: values.map((value, index) => ({ object: 'embedding', index, embedding: pseudoVector(value, 8) })),
      usage: { prompt_tokens: values.length * 3, total_tokens: values.length * 3 },
    },
  };
}

/** Deterministic unit vector from a string. */
export function pseudoVector(value: string, dimensions: number): number[] {
  const vector: number[] = [];
  let state = 2166136261;
  for (const char of value) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  for (let index = 0; index < dimensions; index++) {
    state = Math.imul(state ^ (state >>> 15), 2246822507) >>> 0;
    vector.push((state / 0xffffffff) * 2 - 1);
  }
  const norm = Math.hypot(...vector);
  return vector.map((component) => component / norm);
}

/** A `chatReply` body as a stream: its content in word-sized pieces; `null` for any other body. */
function streamOfCompletion(json: unknown): MockStream | null {
  const completion = json as { object?: unknown; model?: string; choices?: { message?: { content?: string }; finish_reason?: string }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
  if (completion?.object !== 'chat.completion') return null;
  const choice = completion.choices?.[0];
  return {
    deltas: (choice?.message?.content ?? '').match(/\s*\S+|\s+$/g) ?? [],
    ...(completion.model ? { model: completion.model } : {}),
    ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
    ...(completion.usage?.prompt_tokens !== undefined ? { promptTokens: completion.usage.prompt_tokens } : {}),
    ...(completion.usage?.completion_tokens !== undefined ? { completionTokens: completion.usage.completion_tokens } : {}),
  };
}

async function sendStream(res: ServerResponse, stream: MockStream, includeUsage: boolean): Promise<void> {
  const model = stream.model ?? 'gpt-4o-mini-2024-07-18';
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, usage: unknown = null) => ({
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: usage === null ? [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] : [],
    ...(usage === null ? {} : { usage }),
  });
  const event = (value: unknown) => res.write(`data: ${JSON.stringify(value)}\n\n`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  event(chunk({ role: 'assistant', content: '' }, null));
  const count = Math.min(stream.hangAfter ?? stream.deltas.length, stream.deltas.length);
  for (let index = 0; index < count; index++) {
    if (stream.intervalMs) await new Promise((resolve) => setTimeout(resolve, stream.intervalMs));
    if (res.destroyed) return;
    event(chunk({ content: stream.deltas[index] }, null));
  }
  // Held open: the client has to hang up (closing the server destroys it too).
  if (stream.hangAfter !== undefined) return;
  event(chunk({}, stream.finishReason ?? 'stop'));
  if (includeUsage) {
    const promptTokens = stream.promptTokens ?? 20;
    const completionTokens = stream.completionTokens ?? stream.deltas.length;
    event(chunk({}, null, { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens }));
  }
  res.end('data: [DONE]\n\n');
}

function send(res: ServerResponse, reply: Exclude<MockServerReply, { hang: true } | { stream: MockStream }>): void {
  const status = reply.status ?? 200;
  if ('json' in reply) {
    res.writeHead(status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.json));
  } else {
    res.writeHead(status, { 'content-type': 'text/plain', ...reply.headers });
    res.end(reply.text);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
