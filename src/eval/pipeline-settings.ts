import { InvalidInputError } from '../errors.js';
import type { PromptOptions } from '../rag/prompt.js';
import type { RetrieveOptions } from '../rag/retrieve.js';

/**
 * The numeric options of groundcheck's pipeline that an eval can set (and `--sweep` can vary):
 * one table that says where each goes, its range and what it means, so the CLI, the runner and
 * the sweep agree.
 */
export const PIPELINE_SETTINGS = {
  wordCap: { where: 'prompt', integer: true, min: 1, max: 5000, meaning: "the prompt's word limit for an answer (default 150)" },
  topK: { where: 'retrieval', integer: true, min: 1, max: 100, meaning: 'chunks handed to the model (default: the suite\'s topK, 8)' },
  minSimilarity: { where: 'retrieval', integer: false, min: -1, max: 1, meaning: "the relevance gate (default: the suite's, else the embedder's)" },
  candidates: { where: 'retrieval', integer: true, min: 1, max: 10_000, meaning: 'candidates from each search before fusion (default max(50, 5·topK))' },
  vectorWeight: { where: 'retrieval', integer: false, min: 0, max: 100, meaning: 'weight of the vector ranking in the fusion (default 1)' },
  textWeight: { where: 'retrieval', integer: false, min: 0, max: 100, meaning: 'weight of the BM25 ranking in the fusion (default 1)' },
  temperature: { where: 'answer', integer: false, min: 0, max: 2, meaning: 'sampling temperature of answers (default 0)' },
  maxOutputTokens: { where: 'answer', integer: true, min: 1, max: 100_000, meaning: 'output token cap of answers (default 400)' },
} as const;

export type PipelineSettingName = keyof typeof PIPELINE_SETTINGS;

/** Values for some of {@link PIPELINE_SETTINGS}. */
export type PipelineSettings = Partial<Record<PipelineSettingName, number>>;

export function isPipelineSetting(name: string): name is PipelineSettingName {
  return Object.hasOwn(PIPELINE_SETTINGS, name);
}

/**
 * Check one value against its setting's range.
 *
 * @throws InvalidInputError `invalid_option` naming the setting, its range and the value.
 */
export function checkPipelineSetting(name: string, value: number, where = 'option'): number {
  if (!isPipelineSetting(name)) {
    throw new InvalidInputError(`${where} ${name} is not a numeric pipeline option; use one of ${Object.keys(PIPELINE_SETTINGS).join(', ')}`, { code: 'invalid_option' });
  }
  const setting = PIPELINE_SETTINGS[name];
  if (!Number.isFinite(value) || value < setting.min || value > setting.max || (setting.integer && !Number.isInteger(value))) {
    throw new InvalidInputError(`${where} ${name}=${String(value)} is invalid: use ${setting.integer ? 'a whole number' : 'a number'} from ${setting.min} to ${setting.max}`, { code: 'invalid_option' });
  }
  return value;
}

/** Check every value of a settings object. */
export function checkPipelineSettings(settings: PipelineSettings, where = 'option pipeline'): PipelineSettings {
  for (const [name, value] of Object.entries(settings)) if (value !== undefined) checkPipelineSetting(name, value, where);
  return settings;
}

/** The pipeline's options for the given settings (unset ones keep the pipeline's defaults). */
export function pipelineOptions(settings: PipelineSettings): { retrieval: RetrieveOptions; prompt: PromptOptions; temperature?: number; maxOutputTokens?: number } {
  const retrieval: RetrieveOptions = {};
  const prompt: PromptOptions = {};
  const answer: { temperature?: number; maxOutputTokens?: number } = {};
  for (const [name, value] of Object.entries(settings) as [PipelineSettingName, number | undefined][]) {
    if (value === undefined) continue;
    if (name === 'wordCap') prompt.wordCap = value;
    else if (name === 'temperature' || name === 'maxOutputTokens') answer[name] = value;
    else retrieval[name] = value;
  }
  return { retrieval, prompt, ...answer };
}
