import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeVersionOf, parseJudgeVersion, type JudgeInfo } from './judgment.js';

describe('the judge version string', () => {
  it('round-trips any judge whose kind and prompt version hold no colon; the model may', () => {
    const part = fc.string({ minLength: 1, maxLength: 12 }).filter((text) => !text.includes(':'));
    const judge: fc.Arbitrary<JudgeInfo> = fc.record({
      kind: fc.constantFrom('heuristic' as const, 'llm' as const, 'mock' as const),
      model: fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(':')),
      promptVersion: part,
    });
    fc.assert(fc.property(judge, (info) => { expect(parseJudgeVersion(judgeVersionOf(info))).toEqual(info); }));
    expect(parseJudgeVersion('llm:openai:gpt-4o-mini:faithfulness-v3')).toEqual({ kind: 'llm', model: 'openai:gpt-4o-mini', promptVersion: 'faithfulness-v3' });
  });

  it.each(['', 'heuristic', 'heuristic:heuristic', ':a:b', 'a::', 'heuristic:heuristic:', 'robot:model:v1'])('%j is not a judge version', (text) => {
    expect(parseJudgeVersion(text)).toBeNull();
  });
});
