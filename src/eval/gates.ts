import { InvalidInputError } from '../errors.js';
import { DEFAULT_KS } from '../metrics/index.js';

/**
 * Gates: thresholds on headline metrics that decide the exit code of an eval run. A metric that
 * could not be measured (no question of that kind, every judgment errored) fails its gate: a gate
 * that silently passes on missing data would let a broken run ship.
 */

export type GateOperator = '<=' | '>=';

export interface Gate {
  /** A headline metric name, see {@link GATE_METRICS}. */
  metric: string;
  op: GateOperator;
  threshold: number;
}

export interface GateResult extends Gate {
  /** The measured value (the mean across runs); `null` when it could not be measured. */
  actual: number | null;
  passed: boolean;
  /** One line for people: `hallucinationRate 0.120 > 0.08 (max)`. */
  message: string;
}

/**
 * Ks for which `recall@k`, `precision@k`, `hit@k` and `ndcg@k` are reported: the cut-offs the run
 * summary measures, so a gate can only name a metric that is measured.
 */

/** Every metric a gate may name, with what it means (also printed by `groundcheck eval --help`). */
export const GATE_METRICS: Readonly<Record<string, string>> = {
  hallucinationRate: 'RAG-on answers with a contradicted (or absent) claim / RAG-on answers judged ok with a checkable claim, not refusals',
  noragHallucinationRate: 'the same for RAG-off answers',
  refusalRate: 'RAG-on refusals / questions that must be refused (unanswerable and guardrail)',
  falseRefusalRate: 'RAG-on refusals / answerable questions',
  keywordHitRate: 'mean share of expected keywords found in RAG-on answers to answerable questions',
  pairwiseWinRate: 'RAG-on win rate against RAG-off (ties count half), over questions with a pairwise outcome',
  positionConsistency: 'share of both-order pairwise comparisons whose winner did not depend on the order',
  judgeErrorRate: 'judge errors / judge calls (faithfulness and pairwise)',
  mrr: 'mean reciprocal rank of the first relevant chunk (answerable questions)',
  correctAnswerRate: 'RAG-on answers whose outcome is correct / answerable questions judged ok',
  rightOutcomeRate: 'RAG-on answers that are correct, or correct refusals of must-refuse questions / questions judged ok',
  incompleteRate: 'RAG-on answers whose outcome is incomplete / answerable questions judged ok',
  answerRelevanceRate: 'RAG-on answers the judge says address the question / non-refusal answers judged ok',
  offTopicRate: 'RAG-on answers that are faithful but off topic / questions judged ok',
  overRefusalRate: 'RAG-on refusals although a chunk answers the question / questions judged ok',
  shouldHaveRefusedRate: 'RAG-on answers given although no chunk answers (or personal data was asked for) / questions judged ok',
  contextSufficiencyRate: 'questions where some retrieved chunk answers the question / questions judged ok with chunks',
  contextPrecision: 'mean rank-weighted context precision (answer-bearing chunks near the top) of the RAG-on evidence',
  referenceRecall: "mean share of the reference answer's claims the RAG-on answer states (answerable questions, not refusals)",
  noragAnswerRate: 'RAG-off answers that are not refusals / answerable questions',
  unrelatedSourceRate: 'RAG-on answers (answerable, not refusals) citing a document with none of the relevant chunks / those answers',
  gateRate: 'questions whose relevance gate fired (similarity or term coverage) / questions',
  similarityGateRate: 'questions gated because no chunk reached minSimilarity / questions',
  coverageGateRate: 'questions gated because a topic word occurs nowhere in the corpus / questions',
  ...Object.fromEntries(
    DEFAULT_KS.flatMap((k) => [
      [`recall@${k}`, `share of relevant chunks in the top ${k} (answerable questions)`],
      [`precision@${k}`, `share of the top ${k} that is relevant (answerable questions)`],
      [`hit@${k}`, `share of answerable questions with a relevant chunk in the top ${k}`],
      [`ndcg@${k}`, `normalized discounted cumulative gain at ${k} (answerable questions)`],
    ]),
  ),
};

const GATE_EXPRESSION = /^\s*([A-Za-z]+(?:@\d+)?)\s*(<=|>=)\s*(-?\d+(?:\.\d+)?)\s*$/;

/**
 * Parse a gate written as `metric<=number` or `metric>=number` (as given to `--gate`).
 *
 * @throws InvalidInputError `invalid_gate` naming the expression and the known metrics.
 * @example
 * parseGateExpression('recall@5>=0.8'); // { metric: 'recall@5', op: '>=', threshold: 0.8 }
 */
export function parseGateExpression(expression: string, where = '--gate', metrics: Readonly<Record<string, string>> = GATE_METRICS): Gate {
  const match = GATE_EXPRESSION.exec(expression);
  if (!match) {
    throw new InvalidInputError(`${where} "${expression}" is invalid: write metric<=number or metric>=number, e.g. hallucinationRate<=0.08`, {
      code: 'invalid_gate',
    });
  }
  return checkGate({ metric: match[1]!, op: match[2] as GateOperator, threshold: Number(match[3]) }, where, metrics);
}

/**
 * Parse gates from a config object: `{ "hallucinationRate": { "max": 0.08 }, "recall@5": { "min": 0.8 } }`
 * or the expression strings `{ "recall@5": ">= 0.8" }`.
 *
 * @throws InvalidInputError `invalid_gate` naming the file (`where`) and the entry.
 */
export function parseGateConfig(value: unknown, where: string, metrics: Readonly<Record<string, string>> = GATE_METRICS): Gate[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidInputError(`${where}: gates must be an object such as { "hallucinationRate": { "max": 0.08 } }`, { code: 'invalid_gate' });
  }
  const gates: Gate[] = [];
  for (const [metric, spec] of Object.entries(value as Record<string, unknown>)) {
    const entry = `${where}: gates.${metric}`;
    if (typeof spec === 'string') {
      gates.push(parseGateExpression(`${metric}${spec.trim()}`, entry, metrics));
      continue;
    }
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
      throw new InvalidInputError(`${entry} must be { "max": number }, { "min": number } or a string like ">= 0.8"`, { code: 'invalid_gate' });
    }
    const bounds = spec as Record<string, unknown>;
    const unknownKeys = Object.keys(bounds).filter((key) => key !== 'max' && key !== 'min');
    if (unknownKeys.length > 0 || Object.keys(bounds).length === 0) {
      throw new InvalidInputError(`${entry} must have "max" and/or "min" (found ${Object.keys(bounds).join(', ') || 'nothing'})`, { code: 'invalid_gate' });
    }
    for (const [key, op] of [['max', '<='], ['min', '>=']] as const) {
      if (!(key in bounds)) continue;
      const threshold = bounds[key];
      if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
        throw new InvalidInputError(`${entry}.${key} must be a number`, { code: 'invalid_gate' });
      }
      gates.push(checkGate({ metric, op, threshold }, entry, metrics));
    }
  }
  return gates;
}

/**
 * Merge gate lists: a later gate on the same metric and operator replaces an earlier one (flags
 * override the config file, which overrides the suite's defaults).
 */
export function mergeGates(...lists: Gate[][]): Gate[] {
  const merged = new Map<string, Gate>();
  for (const list of lists) for (const gate of list) merged.set(`${gate.metric} ${gate.op}`, gate);
  return [...merged.values()];
}

/**
 * Check gates against measured metrics. A metric that is `null`, `undefined` or NaN fails.
 *
 * @example
 * evaluateGates([{ metric: 'recall@5', op: '>=', threshold: 0.8 }], { 'recall@5': 0.75 });
 * // [{ …, actual: 0.75, passed: false, message: 'recall@5 0.750 < 0.8 (min)' }]
 */
export function evaluateGates(gates: readonly Gate[], metrics: Readonly<Record<string, number | null | undefined>>): GateResult[] {
  return gates.map((gate) => {
    const raw = metrics[gate.metric];
    const actual = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    const bound = gate.op === '<=' ? 'max' : 'min';
    if (actual === null) {
      return { ...gate, actual, passed: false, message: `${gate.metric} was not measured (no data), ${bound} ${gate.threshold}` };
    }
    const passed = gate.op === '<=' ? actual <= gate.threshold : actual >= gate.threshold;
    const relation = passed ? gate.op : gate.op === '<=' ? '>' : '<';
    return { ...gate, actual, passed, message: `${gate.metric} ${formatValue(actual)} ${relation} ${gate.threshold} (${bound})` };
  });
}

/** `metrics`: the names a gate may use (default: the question-answering suite's {@link GATE_METRICS}). */
function checkGate(gate: Gate, where: string, metrics: Readonly<Record<string, string>>): Gate {
  if (!(gate.metric in metrics)) {
    throw new InvalidInputError(`${where}: unknown metric "${gate.metric}"; known: ${Object.keys(metrics).join(', ')}`, { code: 'invalid_gate' });
  }
  if (!Number.isFinite(gate.threshold)) throw new InvalidInputError(`${where}: threshold must be a number`, { code: 'invalid_gate' });
  return gate;
}

function formatValue(value: number): string {
  return value.toFixed(3);
}
