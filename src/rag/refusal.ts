/** The exact sentence the grounded prompt asks for when the documents lack the answer. */
export const REFUSAL_SENTENCE = "I don't know: the provided documents do not cover this.";

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
  if (normalized.includes(normalize(refusalSentence))) return true;
  // Only short answers can be refusals by paraphrase; a long answer that says "I don't know
  // the exact date" somewhere is an answer with a caveat.
  if (normalized.split(' ').length > 45) return false;
  return PARAPHRASES.some((pattern) => pattern.test(normalized));
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ').trim();
}
