/** The exact sentence the grounded prompt asks for when the documents lack the answer. */
export const REFUSAL_SENTENCE = "I don't know: the provided documents do not cover this.";

/**
 * The exact sentence the grounded prompt asks for when a question seeks a person's personal or
 * confidential data: a refusal that gives its reason (the guardrail), not "not covered".
 */
export const GUARDRAIL_REFUSAL_SENTENCE = "I can't share personal or confidential information about an individual.";

const EXACT_REPLY = 'reply with exactly this sentence and nothing else: ';
const EXACT_GUARDRAIL_REPLY = 'reply with exactly this sentence instead: ';

/** A sentence as a prompt quotes it: one line, in double quotes. */
function quoted(sentence: string): string {
  return `"${sentence.replace(/\s+/g, ' ').trim()}"`;
}

/**
 * The instruction naming the exact refusal sentence, as the prompts write it; the offline model
 * reads the sentence back with {@link parseRefusalRule}, so a custom sentence reaches it through
 * the prompt like it reaches any model.
 *
 * @example
 * renderRefusalRule('Not covered.') // 'reply with exactly this sentence and nothing else: "Not covered."'
 */
export function renderRefusalRule(sentence: string): string {
  return `${EXACT_REPLY}${quoted(sentence)}`;
}

/** The refusal sentence a prompt written with {@link renderRefusalRule} names; `null` when it names none. */
export function parseRefusalRule(prompt: string): string | null {
  return quotedAfter(prompt, EXACT_REPLY);
}

/** The instruction naming the exact guardrail sentence (see {@link GUARDRAIL_REFUSAL_SENTENCE}). */
export function renderGuardrailRule(sentence: string): string {
  return `${EXACT_GUARDRAIL_REPLY}${quoted(sentence)}`;
}

/** The guardrail sentence a prompt written with {@link renderGuardrailRule} names; `null` when it names none. */
export function parseGuardrailRule(prompt: string): string | null {
  return quotedAfter(prompt, EXACT_GUARDRAIL_REPLY);
}

function quotedAfter(prompt: string, lead: string): string | null {
  const start = prompt.indexOf(`${lead}"`);
  if (start === -1) return null;
  const from = start + lead.length + 1;
  const lineEnd = prompt.indexOf('\n', from);
  const line = lineEnd === -1 ? prompt.slice(from) : prompt.slice(from, lineEnd);
  const close = line.lastIndexOf('"');
  return close === -1 ? null : line.slice(0, close);
}

const PARAPHRASES: RegExp[] = [
  /\bi (?:do not|don'?t|cannot|can'?t|am unable to|am not able to) (?:know|say|find|answer|tell|determine|confirm|help with)\b/,
  /\b(?:documents?|handbook|sources?|context|information|policies|policy) (?:provided |available |given )?(?:do(?:es)? not|don'?t|doesn'?t) (?:cover|contain|mention|include|say|specify|address|state|provide)\b/,
  /\b(?:no|not enough|insufficient) (?:relevant )?(?:information|details?|mention|data)\b.*\b(?:documents?|handbook|sources?|context|provided)\b/,
  /\bnot (?:covered|mentioned|specified|addressed|stated|included) (?:in|by) (?:the )?(?:provided )?(?:documents?|handbook|sources?|context|policies)\b/,
  /\b(?:unable|not able) to (?:find|answer|locate)\b/,
  /\bi (?:can(?:no|')?t|won'?t|will not) (?:share|disclose|provide|give out|reveal)\b/,
  /^(?:sorry|unfortunately)[,.]? (?:i|the|there)\b.*\b(?:not|no)\b/,
];

/**
 * Whether an answer is a refusal: the exact sentence, or a common paraphrase ("I don't know",
 * "the documents do not cover…", "I can't share…"). Case and curly quotes are ignored.
 */
export function isRefusal(answer: string, refusalSentence: string = REFUSAL_SENTENCE): boolean {
  const normalized = normalize(answer);
  if (normalized === '') return false;
  if (normalized.includes(normalize(refusalSentence)) || normalized.includes(normalize(GUARDRAIL_REFUSAL_SENTENCE))) return true;
  // Only short answers can be refusals by paraphrase; a long answer that says "I don't know
  // the exact date" somewhere is an answer with a caveat.
  if (normalized.split(' ').length > 45) return false;
  return PARAPHRASES.some((pattern) => pattern.test(normalized));
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ').trim();
}
