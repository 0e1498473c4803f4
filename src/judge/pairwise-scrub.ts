/**
 * Blinding for the pairwise judge: remove words that reveal which answer had documents (RAG) and
 * which model wrote it, so the judge compares content, not labels. Applied to both answers (and
 * their claim texts) in the same way, so neither side is favoured by the scrubbing itself.
 * METHODOLOGY.md ("Pairwise comparison", "Blinding") lists these rules; change both together.
 */

/** What scrubbed mode phrases are replaced with: neutral in any domain, and fits "do not cover this". */
const NEUTRAL = 'the sources';
/** Marks where a sentence-opening clause was removed, so the next letter can be capitalized. */
const CAPITALIZE = '\u0000';

const GENERIC_SOURCE = '(?:context|documents?|docs|sources?|passages?|excerpts?|snippets?|chunks?|information|text|materials?)';
const SOURCE_ADJECTIVE = '(?:retrieved|provided|given|supplied|available|above|attached|relevant|following|shared)';

interface ScrubRule {
  pattern: RegExp;
  replacement: string | ((match: string, ...groups: string[]) => string);
}

/** Remove a match; at a sentence start, leave a mark so the next word gets the capital. */
const remove = (...args: unknown[]): string => {
  const offset = args.at(-2) as number;
  const whole = args.at(-1) as string;
  return /(?:^|[.!?]\s+|\n\s*)$/.test(whole.slice(0, offset)) ? CAPITALIZE : '';
};

/** "the sources", capitalized when the phrase it replaces started with a capital (a sentence start). */
const neutral = (match: string): string => (/^\p{Lu}/u.test(match) ? 'The sources' : NEUTRAL);

/** Applied in order; each pattern is global. */
const RULES: readonly ScrubRule[] = [
  // 1. Attribution lead-ins that only name the mode: "Based on the retrieved context, " → ''.
  //    A lead-in naming a real source ("According to the Leave Policy, ") is kept.
  {
    pattern: new RegExp(
      `(^|[.!?]\\s+|\\n\\s*)(?:based (?:up)?on|according to|from|per|using|going by|as (?:stated|described|mentioned|outlined|shown) in)\\s+` +
        `(?:the\\s+|this\\s+|these\\s+|my\\s+)?(?:${SOURCE_ADJECTIVE}\\s+)*${GENERIC_SOURCE}(?:\\s+${SOURCE_ADJECTIVE})?(?:\\s+(?:to me|here))?\\s*[,:]?\\s*`,
      'gi',
    ),
    replacement: `$1${CAPITALIZE}`,
  },
  // 2. "the retrieved context", "the provided documents" → "the sources". Narrower adjectives
  //    than in lead-ins: "the following information" or "relevant documents" inside a sentence
  //    are ordinary content.
  { pattern: new RegExp(`\\b(?:the\\s+|this\\s+|these\\s+|my\\s+)?(?:retrieved|provided|supplied|given|above)\\s+${GENERIC_SOURCE}\\b`, 'gi'), replacement: neutral },
  // 3. "the documents provided", "the context given (to me)" → "the sources".
  {
    pattern: new RegExp(`\\b(?:the\\s+|this\\s+|these\\s+)?${GENERIC_SOURCE}\\s+(?:provided|retrieved|given|supplied)(?:\\s+(?:to me|above|here))?\\b`, 'gi'),
    replacement: neutral,
  },
  // 4. The technique's names.
  { pattern: /\bretrieval[- ]augmented(?:\s+generation)?\b/gi, replacement: remove },
  { pattern: /\bRAG\b/g, replacement: remove },
  { pattern: /\bretriev(?:e|es|ed|ing|al|als)\b/gi, replacement: remove },
  // 5. "context" on its own (also "in this context").
  { pattern: /\b(?:the\s+|this\s+|my\s+)?contexts?\b/gi, replacement: neutral },
  // 6. Self-descriptions and model names.
  {
    pattern: /\bas an? (?:(?:ai|artificial intelligence)(?:\s+(?:large\s+)?(?:language\s+)?(?:model|assistant))?|(?:large\s+)?(?:language\s+)?(?:model|assistant|llm))\b,?\s*/gi,
    replacement: CAPITALIZE,
  },
  { pattern: /\b(?:large )?language models?\b|\bLLMs?\b/gi, replacement: remove },
  { pattern: /\b(?:chat)?gpt(?:-?[\w-]*)(?:\.\d[\w-]*)*|\bo[1-9](?:-(?:mini|preview|pro))+\b/gi, replacement: remove },
  { pattern: /\b(?:llama|mistral|mixtral|claude|gemini|gemma|qwen|deepseek|phi-?\d|command-r)[\w:-]*(?:\.\d[\w:-]*)*/gi, replacement: remove },
  { pattern: /\blocal-extractive(?:-v\d+)?\b|\b(?:openai|ollama|anthropic|vllm)\b/gi, replacement: remove },
];

export interface ScrubOptions {
  /**
   * More terms to remove, matched case-insensitively as whole words (e.g. the model ids in the
   * traces: `trace.models.chat`).
   */
  extraTerms?: readonly string[];
}

/**
 * Remove words that reveal an answer's mode or model from what the pairwise judge sees:
 * mode-only lead-ins ("Based on the retrieved context, "), phrases naming the supplied documents
 * ("the provided documents", "the context given") → "the sources", the words RAG / retrieval /
 * retrieved / retrieval-augmented generation, "context", "as an AI model", "language model", LLM,
 * and model names (gpt-*, o1/o3-mini, llama*, mistral*, mixtral*, claude*, gemini*, gemma*,
 * qwen*, deepseek*, phi-N, command-r, local-extractive-v*, OpenAI, Ollama, Anthropic, vLLM), plus
 * `extraTerms`. Whitespace and punctuation left behind are tidied; a sentence whose opening
 * clause was removed starts with a capital. Citations of real sources ("(Leave Policy, updated
 * 2026-01-12)") are kept: citing the right source is one of the judged criteria.
 *
 * @example
 * scrubModeWords('Based on the retrieved context, you get 25 days (gpt-4o-mini).')
 * // 'You get 25 days.'
 */
export function scrubModeWords(text: string, options: ScrubOptions = {}): string {
  let result = text;
  for (const rule of RULES) {
    const replacement = rule.replacement;
    result = typeof replacement === 'string' ? result.replace(rule.pattern, replacement) : result.replace(rule.pattern, replacement);
  }
  for (const term of options.extraTerms ?? []) {
    if (term.trim() === '') continue;
    const escaped = term.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    result = result.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu'), remove);
  }
  return tidy(result);
}

function tidy(text: string): string {
  return text
    .replace(/\(\s*[,;:]?\s*\)|\[\s*\]/g, '') // brackets emptied by a removed model name
    .replace(/\bthe the\b/gi, 'the')
    .replace(/[ \t]+([,.;:!?)])/g, '$1')
    .replace(/([,;:])(?:\s*[,;:])+/g, '$1')
    .replace(/(\()\s+/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/(^|[.!?]\s+|\n\s*)\u0000?\s*[,;:]\s*/g, `$1${CAPITALIZE}`)
    .replace(/\u0000+\s*(\p{Ll})?/gu, (_match, letter: string | undefined) => (letter ? letter.toUpperCase() : ''))
    .replace(/^[ \t]+|[ \t]+$/gm, '')
    .trim();
}
