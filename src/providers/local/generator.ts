import { parseQuestionMessage, parseWordLimit } from '../../contract/formats.js';
import { parseGuardrailRule, parseRefusalRule, REFUSAL_SENTENCE } from '../../contract/refusal.js';
import { estimateTokens } from '../../text/text.js';
import type { ChatCallOptions, ChatModel, ChatResult } from '../spec.js';
import { streamFromGenerate } from '../stream.js';
import type { SentenceEncoder } from './sentence-encoder.js';
import { answerExtractively } from './extractive-answerer.js';
import { sourcesFromPrompt, type SourceUnit } from './prompt-sources.js';

export interface LocalChatModelOptions {
  /**
   * The sentence it answers with when the documents hold nothing relevant, unless the system
   * prompt names one (like any model, it follows the prompt's instruction). [refusalSentence=REFUSAL_SENTENCE]
   */
  refusalSentence?: string;
  /**
   * Share of the question's topic weight (its rarity-weighted topic words) one document must hold
   * before the model answers from the documents at all (0.4: tuned on the dev suite, where 0.4 and 0.5 refused the same must-refuse questions and 0.4 fewer answerable ones). [minCoverage=0.4]
   */
  minCoverage?: number;
  /** Most sentences picked for their own match (conditions, antecedents and list items come on top). [maxSentences=4] */
  maxSentences?: number;
  /**
   * A sentence encoder (`loadSentenceEncoder()`): each prompt sentence's similarity to the question
   * is added to its score, times `meaningWeight`. Opt-in: measured on the dev suite in METHODOLOGY.
   * [encoder=none]
   */
  encoder?: Pick<SentenceEncoder, 'similarities'>;
  /** [meaningWeight=0.3] */
  meaningWeight?: number;
}

/** Model id of the offline extractive answerer (v4, 2026-12-04: refuses questions about another person's pay review; v5: weighs chat-box spellings written out; v6, 2026-12-05: words that size a quantity, "a couple of", weigh as details, a verb with its object is no phrase the answer must hold together, a phrase naming a unit of time is answered by the times, and an acronym its documents spell out is read as those words; v7: a subject and what a form of "to be" says of it, "my laptop was stolen", are no phrase; v8: a request for another person's data typed without apostrophes, "whats my managers salary", or asked with a verb, "how much does my manager earn", gets the guardrail refusal; v9: a phrase ends in a word that can name a thing, so "my password expires" is none; v10: verbs of coming and going, "can I still go in", weigh as details; v11: an acronym typed in lower case, "spl", is read as one; v12: "what time" asks for a time, not about times, and "a parking fine" names a penalty; v13: a closed compound its documents write apart, "payday", is read as they write it, and a verb after the question's subject no sentence holds, "when does breakfast finish", does not make it refuse; v14: a question asking where another person is, "which room is my husband in", gets the guardrail refusal; v15: a phrasal verb its documents write as one word, "broke down", is read as that word; v16: a relative period, "next week", and "at night" are details of when; "whole" sizes what is named; "moving house" is "moving home"; a determiner with no preposition parts two noun phrases, "is my bill an estimate"; v17: a missing adverb particle, "how far ahead", does not make it refuse, a verb after the subject, "does a filling cost", is no part of a phrase, and "number" is the value asked for; v18: a request for a credential typed without its apostrophe, "whats the password for …", gets the guardrail refusal; "dodgy" reads as "suspicious"; an indefinite object, "cost anything", may follow a verb after the subject; v19: the one who does
 * it or the machine, "scanners", is a form of the verb, "scan", and a compound with the prefix "e",
 * "ebooks", is read as its documents write it, "e-books"; v20: a question asking where another
 * person sits or is, "where is my friend sitting", gets the guardrail refusal, and "happening" is
 * how a question is asked; v21: a figure is read with chat spellings written out, "40 mins", and a
 * sentence of the answer's document whose condition holds it, "50% for 30 to 59 minutes", joins the
 * answer; v22: a "fine" is looked up and matched as the documents' "penalty" or "charge"; v23:
 * prepositions and conjunctions such as "since" and "towards", and chat fillers such as "tbh", are
 * no topic words (`questionTerms`), so they no longer weigh in choosing sentences; v24: clipped
 * words, "comms", "stats", "quid", "docs", "info", are read as the words they stand for; v25:
 * "whens" is read as "when's"; v26: what a "how many" question counts, "how many days holiday",
 * is held only by a sentence stating a number of it, "25 days", once one does; a sentence or row
 * naming the question's place or day, "London", "Sundays", is in its region, "UK", "weekend"; and
 * a phrase whose first word is in the document's title and its head in the section heading,
 * "Sickness Absence" › "Fit Notes" for "sick note", is held together; v27: a day, month or
 * holiday ("this Thursday at 2pm") is no person's name, so a question about the asker's own
 * appointment that mentions a pregnancy no longer gets the guardrail refusal; v28: another
 * person's health or pay asked in everyday words, "what was wrong with him?", "whats Dan Foster in
 * sales on?", gets the guardrail refusal; v29: another person's pay asked with their name in lower
 * case, "what does sarah in finance earn", "how much does tom make", gets the guardrail refusal;
 * v30: so do more of them, in frames only a person fits, "is dave on a pip", "what rating did
 * priya get", "where does tom live", "what's sarah's salary"; v31: "my nan", "gran", "grandad" are
 * read as "grandparent" and "self cert" as "self-certify"; v32: a question's two topic words on either
 * side of a comma are no phrase the answer must hold together ("my nan died, how much time off"); v33:
 * a "how much … per mile" question favours a sentence or row stating a figure per mile; v34: an
 * everyday noun matches the documents' name for it ("food": "meals", "funeral": "bereavement"),
 * "kick in" and "hi-vis" are written out, "daytime" is a time word; v35: the sentence after a quoted
 * list starts a new line instead of running on from the last item; v36: a "funeral" also matches
 * "dies", so "time off for a funeral" quotes the close-family rule first; METHODOLOGY.md changelog). */
export const LOCAL_CHAT_MODEL_ID = 'local-extractive-v36';

/**
 * The offline generator: an extractive answerer that only ever says sentences taken verbatim from
 * the documents in its prompt, cited as `(Title, updated date)`. It picks the sentences that
 * answer what is asked, with their conditions and whole lists, from the documents that cover the
 * question's topic; it refuses with the prompt's refusal sentence when none does, and with the
 * prompt's guardrail sentence when the question asks for someone's personal or confidential data.
 * With no documents (`norag` prompts) it refuses: it has no knowledge of its own (see
 * `createMemoryChatModel` for a closed-book model that has).
 *
 * It reads the documents, the question, the word cap, the refusal and guardrail sentences from the
 * prompt like any chat model would, through the parsers of the formats the prompt is written in
 * (`src/contract/`), so it works with groundcheck's prompt format only. It cannot paraphrase,
 * reason across numbers or follow instructions; it is a baseline and a way to run everything
 * offline, not a replacement for a language model.
 */
export function createLocalChatModel(options: LocalChatModelOptions = {}): ChatModel {
  const defaultRefusal = options.refusalSentence ?? REFUSAL_SENTENCE;
  const minCoverage = options.minCoverage ?? 0.4;
  const maxSentences = options.maxSentences ?? 4;

  const model: ChatModel = {
    provider: 'local',
    modelId: LOCAL_CHAT_MODEL_ID,
    async generate(call: ChatCallOptions): Promise<ChatResult> {
      const { systemMessage, userMessage } = promptParts(call);
      const message = parseQuestionMessage(userMessage);
      const refusal = parseRefusalRule(systemMessage) ?? defaultRefusal;
      let answer = refusal;
      if (message.documents !== null && message.documents.length > 0) {
        const sources = sourcesFromPrompt(message.documents);
        let meaning: Map<SourceUnit, number> | undefined;
        if (options.encoder) {
          const units = sources.flatMap((source) => source.units);
          const similarities = await options.encoder.similarities(message.question, units.map((unit) => unit.text));
          meaning = new Map(units.map((unit, index) => [unit, similarities[index] ?? 0]));
        }
        answer = answerExtractively(message.question, sources, {
          refusal,
          guardrail: parseGuardrailRule(systemMessage),
          minCoverage,
          maxSentences,
          wordCap: parseWordLimit(systemMessage) ?? 150,
          ...(meaning ? { meaning, meaningWeight: options.meaningWeight ?? 0.3 } : {}),
        }).text;
      }
      return localResult(call, answer, LOCAL_CHAT_MODEL_ID);
    },
  };
  // It computes the whole answer first: streamed, its pieces come at once (no earlier first token).
  model.stream = streamFromGenerate((call) => model.generate(call));
  return model;
}

/** The last user message and the system message of a call. */
export function promptParts(call: ChatCallOptions): { systemMessage: string; userMessage: string } {
  return {
    userMessage: [...call.messages].reverse().find((message) => message.role === 'user')?.content ?? '',
    systemMessage: call.messages.find((message) => message.role === 'system')?.content ?? '',
  };
}

/** A chat result for an answer computed offline: estimated tokens, no cost. */
export function localResult(call: ChatCallOptions, answer: string, modelId: string): ChatResult {
  const warnings: string[] = [];
  if (call.responseFormat?.type === 'json') warnings.push('the local extractive model cannot produce structured output; use the heuristic judge offline');
  const inputTokens = call.messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
  const outputTokens = estimateTokens(answer);
  return { text: answer, usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens }, finishReason: 'stop', costUsd: 0, warnings, modelId };
}
