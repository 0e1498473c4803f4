/** One answered question, for refusal rates. */
export interface RefusalItem {
  /** The question cannot be answered from the documents, or must not be (personal data). */
  mustRefuse: boolean;
  /** The answer was a refusal (`RagTrace.refused`). */
  refused: boolean;
}

export interface Rate {
  /** `count / n`; `null` when `n` is 0. */
  rate: number | null;
  count: number;
  n: number;
}

/**
 * Share of must-refuse questions that were refused: how often the app says "I don't know" when it
 * should. Answerable questions are ignored.
 *
 * @example
 * refusalRate([{ mustRefuse: true, refused: true }, { mustRefuse: true, refused: false }]) // { rate: 0.5, count: 1, n: 2 }
 */
export function refusalRate(items: readonly RefusalItem[]): Rate {
  return rate(items.filter((item) => item.mustRefuse), (item) => item.refused);
}

/**
 * Share of answerable questions that were refused anyway: the price of a strict gate.
 *
 * @example
 * falseRefusalRate([{ mustRefuse: false, refused: true }, { mustRefuse: false, refused: false }]) // { rate: 0.5, count: 1, n: 2 }
 */
export function falseRefusalRate(items: readonly RefusalItem[]): Rate {
  return rate(items.filter((item) => !item.mustRefuse), (item) => item.refused);
}

function rate<Item>(items: readonly Item[], counts: (item: Item) => boolean): Rate {
  const count = items.filter(counts).length;
  return { rate: items.length === 0 ? null : count / items.length, count, n: items.length };
}
