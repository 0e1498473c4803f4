import type { ChatModel, Usage } from '../providers/spec.js';

/** Token and cost totals of one model over a run. */
export interface ModelTotals {
  /** `provider:model`. */
  model: string;
  /** What the model was used for: `generator`, `judge`, or both. */
  roles: string[];
  /** Calls that reached the model (cache hits are not calls). */
  calls: number;
  failedCalls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Calls whose endpoint did not report token counts (their tokens are not in the sums). */
  callsWithUnknownTokens: number;
  /** Summed cost in US dollars; `null` ("unknown") as soon as one call's cost is unknown. Never a made-up 0. */
  costUsd: number | null;
}

/**
 * Counts model calls, tokens and cost per model. Cost stays `null` (unknown) when any call's cost
 * is unknown: a partial sum presented as a total would understate the bill.
 */
export class UsageLedger {
  private readonly totals = new Map<string, ModelTotals>();

  /**
   * Wrap a chat model so each call it makes is counted under `role`.
   *
   * @example
   * const ledger = new UsageLedger();
   * const chat = ledger.meter(openai.chat('gpt-4o-mini'), 'generator');
   */
  meter(chat: ChatModel, role: string): ChatModel {
    const model = `${chat.provider}:${chat.modelId}`;
    return {
      provider: chat.provider,
      modelId: chat.modelId,
      generate: async (call) => {
        try {
          const result = await chat.generate(call);
          this.record(model, role, result.usage, result.costUsd);
          return result;
        } catch (error) {
          this.entry(model, role).failedCalls += 1;
          throw error;
        }
      },
    };
  }

  record(model: string, role: string, usage: Usage, costUsd: number | null): void {
    const entry = this.entry(model, role);
    entry.calls += 1;
    if (usage.inputTokens === null && usage.outputTokens === null && usage.totalTokens === null) entry.callsWithUnknownTokens += 1;
    entry.inputTokens += usage.inputTokens ?? 0;
    entry.outputTokens += usage.outputTokens ?? 0;
    entry.totalTokens += usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
    entry.costUsd = entry.costUsd === null || costUsd === null ? null : entry.costUsd + costUsd;
  }

  /** Totals per model, sorted by model name. */
  snapshot(): ModelTotals[] {
    return [...this.totals.values()].map((entry) => ({ ...entry, roles: [...entry.roles] })).sort((a, b) => a.model.localeCompare(b.model));
  }

  private entry(model: string, role: string): ModelTotals {
    let entry = this.totals.get(model);
    if (!entry) {
      entry = { model, roles: [], calls: 0, failedCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, callsWithUnknownTokens: 0, costUsd: 0 };
      this.totals.set(model, entry);
    }
    if (!entry.roles.includes(role)) entry.roles.push(role);
    return entry;
  }
}

/** Sum cost over models: `null` ("unknown") when any is unknown. */
export function totalCost(models: readonly Pick<ModelTotals, 'costUsd'>[]): number | null {
  let sum = 0;
  for (const model of models) {
    if (model.costUsd === null) return null;
    sum += model.costUsd;
  }
  return sum;
}
