import { describe, expect, it } from 'vitest';
import { evalModelsFromEnv } from './models.js';

// Building models opens no connection: these only check configuration.
describe('evalModelsFromEnv', () => {
  it('the judge takes its own endpoint, key and model; the generator keeps its own', () => {
    const models = evalModelsFromEnv(
      { OPENAI_API_KEY: 'sk-generator', OPENAI_BASE_URL: 'http://127.0.0.1:8/v1', GROUNDCHECK_JUDGE_API_KEY: 'sk-judge', GROUNDCHECK_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1', GROUNDCHECK_JUDGE_MODEL: 'judge-model' },
      { provider: 'openai', judgeProvider: 'openai' },
    );
    expect(models.cacheNamespace).toEqual({ generator: 'http://127.0.0.1:8/v1', judge: 'http://127.0.0.1:9/v1' });
    expect(models.judgeChat).toMatchObject({ provider: 'openai', modelId: 'judge-model' });
    expect(models.description.judge).toBe('llm openai:judge-model at http://127.0.0.1:9/v1');
  });

  it('an invalid timeout is a configuration error for the judge too, not silently ignored', () => {
    expect(() => evalModelsFromEnv({ OPENAI_API_KEY: 'k', GROUNDCHECK_TIMEOUT_MS: 'soon' }, { judgeProvider: 'openai' })).toThrow(/GROUNDCHECK_TIMEOUT_MS=soon is invalid/);
    expect(() => evalModelsFromEnv({ GROUNDCHECK_JUDGE_PROVIDER: 'anthropic' })).toThrow(/GROUNDCHECK_JUDGE_PROVIDER=anthropic is invalid: use local or openai/);
  });
});
