/**
 * The contract: the shapes and text formats every layer agrees on, owned here and nowhere else.
 * - `trace.ts`: the `RagTrace` the pipeline produces once and the capture, judges and evals consume;
 * - `evidence.ts`: the evidence passage, with title, section and date as fields;
 * - `formats.ts`: every text format a model sees, as render/parse pairs;
 * - `code.ts`: the code excerpt and the error report an error explanation's prompt is written in;
 * - `refusal.ts`: the refusal and guardrail sentences, and telling a refusal apart;
 * - `notes.ts`: notes appended to an answer (the outdated-document note), and taking them off for judging;
 * - `judgment.ts` and `outcome.ts`: the judgment record and the one table of outcomes;
 * - `flags-key.ts`: a judgment's flags as one canonical text, the indexed column stores count by;
 * - `trace-id.ts`: time-ordered trace ids (UUID version 7), the default of every trace made here.
 * It imports nothing above it (only `../errors.ts`).
 */
export * from './messages.js';
export type * from './trace.js';
export { judgedChunks } from './trace.js';
export * from './redaction.js';
export * from './evidence.js';
export * from './formats.js';
export * from './code.js';
export * from './refusal.js';
export * from './notes.js';
export * from './judgment.js';
export * from './outcome.js';
export * from './flags-key.js';
export * from './plain-trace.js';
export * from './hash.js';
export * from './trace-id.js';
