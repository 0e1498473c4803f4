/**
 * US dollars per million tokens, from the vendors' public price pages (checked 2026-11).
 * A model missing here gets a cost of `null` (unknown), never 0. Self-hosted endpoints (Ollama,
 * vLLM, llama.cpp) have no entry: their cost is the hardware's, which we cannot know.
 */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-3.5-turbo': { inputPerMillion: 0.5, outputPerMillion: 1.5 },
  'text-embedding-3-small': { inputPerMillion: 0.02, outputPerMillion: 0 },
  'text-embedding-3-large': { inputPerMillion: 0.13, outputPerMillion: 0 },
  'text-embedding-ada-002': { inputPerMillion: 0.1, outputPerMillion: 0 },
};

/** Price of a model id, also matching dated snapshots (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`). */
export function priceOf(modelId: string, table: Readonly<Record<string, ModelPrice>> = PRICES): ModelPrice | null {
  if (table[modelId]) return table[modelId]!;
  const undated = modelId.replace(/-\d{4}-\d{2}-\d{2}$/, '');
  return table[undated] ?? null;
}

/** Cost in dollars, or `null` when the price or a token count is unknown. */
export function costOf(
  modelId: string,
  inputTokens: number | null,
  outputTokens: number | null,
  table: Readonly<Record<string, ModelPrice>> = PRICES,
): number | null {
  const price = priceOf(modelId, table);
  if (!price || inputTokens === null) return null;
  if (outputTokens === null && price.outputPerMillion > 0) return null;
  return (inputTokens * price.inputPerMillion + (outputTokens ?? 0) * price.outputPerMillion) / 1_000_000;
}
