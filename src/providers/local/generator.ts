import { parseChunkText, parseQuestionMessage, parseWordLimit, renderCitation } from '../../contract/formats.js';
import { parseRefusalRule, REFUSAL_SENTENCE } from '../../contract/refusal.js';
import { contentStems, countWords, estimateTokens, splitSentenceUnits } from '../../text/text.js';
import type { ChatCallOptions, ChatModel, ChatResult } from '../spec.js';
import { streamFromGenerate } from '../stream.js';

export interface LocalChatModelOptions {
  /**
   * The sentence it answers with when the documents hold nothing relevant, unless the system
   * prompt names one (like any model, it follows the prompt's instruction). [refusalSentence=REFUSAL_SENTENCE]
   */
  refusalSentence?: string;
  /**
   * Share of the question's (IDF-weighted) content words the best sentence must contain before
   * the model answers at all. [minCoverage=0.5]
   */
  minCoverage?: number;
  /** Most sentences in an answer. [maxSentences=4] */
  maxSentences?: number;
}

interface SourceDocument {
  id: string;
  title: string;
  updated: string | null;
  section: string;
  rank: number;
}

interface Candidate {
  document: SourceDocument;
  position: number;
  /** The sentence as it will be quoted (table rows expanded with their header). */
  text: string;
  /** Stems of the sentence itself. */
  ownStems: Set<string>;
  /** Stems of the sentence plus its document title and section heading. */
  stems: Set<string>;
  /** Stems of the section heading (or title when there is none). */
  headingStems: Set<string>;
  /** Share of the question's weight found in the sentence or its heading: decides answer vs refusal. */
  coverage: number;
  /** Ranking score: words in the sentence itself count fully, heading-only words half, plus how well the heading fits. */
  score: number;
  isCondition: boolean;
}

const CONDITION = /\b(?:unless|except|only if|only when|provided that|as long as|however|but|if|must|requires?|need(?:s)?|before|after|over|under|up to|at least|more than|less than|no more than|exceed)\b/i;

/**
 * The offline generator: an extractive answerer that only ever says sentences taken verbatim from
 * the documents in its prompt (the best-supported ones for the question, with the conditions that
 * follow them), each group cited as `(Title, updated date)`. When no sentence covers enough of the
 * question, or there are no documents (`norag` mode), it answers with the exact refusal sentence:
 * it has no knowledge of its own, and saying so is the honest behaviour.
 *
 * It reads the documents, the question, the word cap and the refusal sentence from the prompt like
 * any chat model would, through the parsers of the formats the prompt is written in
 * (`src/contract/formats.ts`), so it works with groundcheck's prompt format only. It cannot paraphrase, reason across numbers or
 * follow instructions; it is a baseline and a way to run everything offline, not a replacement
 * for a language model.
 */
export function createLocalChatModel(options: LocalChatModelOptions = {}): ChatModel {
  const defaultRefusal = options.refusalSentence ?? REFUSAL_SENTENCE;
  const minCoverage = options.minCoverage ?? 0.5;
  const maxSentences = options.maxSentences ?? 4;

  const model: ChatModel = {
    provider: 'local',
    modelId: 'local-extractive-v1',
    async generate(call: ChatCallOptions): Promise<ChatResult> {
      const warnings: string[] = [];
      if (call.responseFormat?.type === 'json') {
        warnings.push('the local extractive model cannot produce structured output; use the heuristic judge offline');
      }
      const userMessage = [...call.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
      const systemMessage = call.messages.find((message) => message.role === 'system')?.content ?? '';
      const wordCap = parseWordLimit(systemMessage) ?? 150;
      const refusal = parseRefusalRule(systemMessage) ?? defaultRefusal;
      const message = parseQuestionMessage(userMessage);
      const question = message.question;
      const documents = sourcesOf(message.documents ?? []);
      const answer = documents.length === 0 || question === '' ? refusal : compose(question, documents, { refusal, minCoverage, maxSentences, wordCap });
      const inputTokens = call.messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
      const outputTokens = estimateTokens(answer);
      return {
        text: answer,
        usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
        finishReason: 'stop',
        costUsd: 0,
        warnings,
        modelId: 'local-extractive-v1',
      };
    },
  };
  // It computes the whole answer first: streamed, its pieces come at once (no earlier first token).
  model.stream = streamFromGenerate((call) => model.generate(call));
  return model;
}

interface ParsedSource {
  document: SourceDocument;
  units: string[];
}

/** The prompt's documents as quotable sources: fields from each source line, sentences from the body. */
function sourcesOf(documents: readonly { id: string; text: string }[]): ParsedSource[] {
  return documents.map((promptDocument, rank) => {
    const parts = parseChunkText(promptDocument.text);
    const document: SourceDocument = {
      id: promptDocument.id,
      title: parts?.title || promptDocument.id,
      updated: parts?.updated ?? null,
      section: parts?.section ?? '',
      rank,
    };
    return { document, units: splitSentenceUnits(parts?.body ?? promptDocument.text) };
  });
}

function compose(
  question: string,
  sources: ParsedSource[],
  settings: { refusal: string; minCoverage: number; maxSentences: number; wordCap: number },
): string {
  // "how long", "how much"… ask for a quantity; the second word is not a topic word.
  const asksQuantity = /\b(?:how (?:long|much|many|often|far|soon|old)|what (?:is|are) the (?:rate|limit|cap|maximum|minimum)|rate|limit|cap|maximum|minimum|allowance)\b/i.test(question);
  const questionStems = [...new Set(contentStems(question.replace(/\bhow (?:long|much|many|often|far|soon|old)\b/gi, 'how')))];
  if (questionStems.length === 0) return settings.refusal;

  const candidates: Candidate[] = [];
  const passageStems = new Map<SourceDocument, Set<string>>();
  for (const source of sources) {
    const contextStems = new Set(contentStems(`${source.document.title} ${source.document.section}`));
    const headingStems = new Set(contentStems(source.document.section || source.document.title));
    const union = new Set(contextStems);
    source.units.forEach((text, position) => {
      const ownStems = new Set(contentStems(text));
      for (const stem of ownStems) union.add(stem);
      const stems = new Set([...ownStems, ...contextStems]);
      candidates.push({ document: source.document, position, text, ownStems, stems, headingStems, coverage: 0, score: 0, isCondition: CONDITION.test(text) });
    });
    passageStems.set(source.document, union);
  }
  if (candidates.length === 0) return settings.refusal;

  // Weight question words by how rare they are among the sentences in front of us (an IDF over
  // sentences), so the distinctive words of a question decide. A word found nowhere weighs as
  // much as the rarest found word: it may be the very thing asked about ("paid in
  // cryptocurrency?") or only colour ("my husband"); the extractive model cannot tell them apart.
  // (Measured on the handbook questions, weighting absent words higher still refused no more
  // unanswerable questions but refused many more answerable ones.)
  const weights = new Map<string, number>();
  const found: number[] = [];
  for (const stem of questionStems) {
    const frequency = candidates.filter((candidate) => candidate.stems.has(stem)).length;
    if (frequency === 0) continue;
    const weight = Math.log(1 + candidates.length / (1 + frequency));
    weights.set(stem, weight);
    found.push(weight);
  }
  if (found.length === 0) return settings.refusal;
  const absentWeight = Math.max(...found);
  for (const stem of questionStems) if (!weights.has(stem)) weights.set(stem, absentWeight);
  const totalWeight = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const share = (stems: Iterable<string>) => {
    let sum = 0;
    for (const stem of stems) sum += weights.get(stem) ?? 0;
    return sum / totalWeight;
  };

  // Answer only when one passage covers enough of the question; otherwise say so.
  const bestPassageCoverage = Math.max(...[...passageStems.values()].map((stems) => share([...stems].filter((stem) => weights.has(stem)))));
  if (bestPassageCoverage < settings.minCoverage) return settings.refusal;

  for (const candidate of candidates) {
    const own = share([...candidate.ownStems].filter((stem) => weights.has(stem)));
    candidate.coverage = share([...candidate.stems].filter((stem) => weights.has(stem)));
    const headingMatches = [...candidate.headingStems].filter((stem) => weights.has(stem)).length;
    const headingFit = candidate.headingStems.size > 0 ? headingMatches / candidate.headingStems.size : 0;
    // Documents come best-first; like a reader, lean a little towards the earlier ones.
    const rankPrior = 0.2 / (1 + candidate.document.rank);
    const quantity = asksQuantity && /\d/.test(candidate.text) ? 0.1 : 0;
    candidate.score = own + 0.5 * (candidate.coverage - own) + 0.25 * headingFit + rankPrior + quantity;
  }

  // Greedy selection: the best sentence first, then sentences that cover parts of the question
  // not yet covered (multi-part questions), plus close runners-up from the best passage.
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.document.rank - b.document.rank || a.position - b.position);
  const best = ranked[0]!;
  const chosen = new Set<Candidate>([best]);
  const covered = new Set([...best.stems].filter((stem) => weights.has(stem)));
  while (chosen.size < settings.maxSentences) {
    let pick: Candidate | undefined;
    let pickValue = 0;
    for (const candidate of ranked) {
      if (chosen.has(candidate)) continue;
      const gain = share([...candidate.stems].filter((stem) => weights.has(stem) && !covered.has(stem)));
      // Close runners-up: from the best passage, or a near-tie from another passage (two
      // policies that both fit the question are both shown rather than one picked arbitrarily).
      const runnerUp = candidate.score >= best.score * (candidate.document === best.document ? 0.7 : 0.9);
      if (gain < 0.1 && !runnerUp) continue;
      const value = gain + 0.3 * candidate.score;
      if (value > pickValue) {
        pick = candidate;
        pickValue = value;
      }
    }
    if (!pick) break;
    chosen.add(pick);
    for (const stem of pick.stems) if (weights.has(stem)) covered.add(stem);
  }
  // Keep the conditions and exceptions that directly follow a chosen sentence.
  for (const candidate of [...chosen]) {
    const next = candidates.find((other) => other.document === candidate.document && other.position === candidate.position + 1);
    if (next && next.isCondition && chosen.size < settings.maxSentences + 2) chosen.add(next);
  }

  // Passages in order of their best sentence; sentences in reading order within a passage.
  const passageScore = new Map<SourceDocument, number>();
  for (const candidate of chosen) passageScore.set(candidate.document, Math.max(passageScore.get(candidate.document) ?? 0, candidate.score));
  const ordered = [...chosen].sort(
    (a, b) => passageScore.get(b.document)! - passageScore.get(a.document)! || a.document.rank - b.document.rank || a.position - b.position,
  );
  const groups: { document: SourceDocument; sentences: string[] }[] = [];
  let words = 0;
  for (const candidate of ordered) {
    const sentence = ensurePeriod(candidate.text);
    const citationWords = 4;
    const sentenceWords = countWords(sentence);
    if (words > 0 && words + sentenceWords + citationWords > settings.wordCap) continue;
    let group = groups.find((entry) => entry.document.title === candidate.document.title && entry.document.updated === candidate.document.updated);
    if (!group) {
      group = { document: candidate.document, sentences: [] };
      groups.push(group);
      words += citationWords;
    }
    group.sentences.push(words + sentenceWords > settings.wordCap ? truncateWords(sentence, settings.wordCap - words) : sentence);
    words += sentenceWords;
  }
  return groups.map((group) => `${group.sentences.join(' ')} ${renderCitation([group.document])}`).join(' ');
}

function ensurePeriod(sentence: string): string {
  return /[.!?:]$/.test(sentence) ? sentence : `${sentence}.`;
}

function truncateWords(sentence: string, limit: number): string {
  const parts = sentence.split(/\s+/);
  return parts.length <= limit ? sentence : `${parts.slice(0, Math.max(1, limit)).join(' ')}…`;
}
