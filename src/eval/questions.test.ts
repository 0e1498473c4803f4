import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { QUESTIONS_DIR, handbookIndex, tempDir } from '../test-support/fixtures.js';
import { checkChunkIds, loadQuestionSet, parseQuestionSet, QUESTION_CATEGORIES } from './questions.js';

const valid = {
  id: 'x1',
  question: 'How long is probation?',
  category: 'single-chunk',
  relevantChunkIds: ['onboarding#probation-period'],
  keywords: ['6 months'],
  referenceAnswer: 'Six months.',
  mustRefuse: false,
};
const line = (overrides: Record<string, unknown> = {}) => JSON.stringify({ ...valid, ...overrides });

function problems(source: string): string[] {
  try {
    parseQuestionSet(source, 'fixtures/questions/x.jsonl');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message.split('\n');
  }
  throw new Error('expected the question set to be rejected');
}

describe('question sets', () => {
  it.each(['handbook.jsonl', 'smoke.jsonl'])('the shipped %s validates, covers every category and matches the index', async (file) => {
    const set = loadQuestionSet(join(QUESTIONS_DIR, file));
    expect(set.questions.length).toBeGreaterThan(0);
    expect(new Set(set.questions.map((question) => question.category))).toEqual(new Set(QUESTION_CATEGORIES));
    const index = await handbookIndex();
    expect(() => checkChunkIds(set, (chunkId) => index.getChunk(chunkId) !== undefined)).not.toThrow();
  });

  it('the handbook set has 78 questions with unique ids', () => {
    const set = loadQuestionSet(join(QUESTIONS_DIR, 'handbook.jsonl'));
    expect(set.questions).toHaveLength(78);
    expect(new Set(set.questions.map((question) => question.id)).size).toBe(78);
  });

  it.each([
    [line({ relevantChunkIds: 'onboarding#probation-period' }), 'fixtures/questions/x.jsonl:2: relevantChunkIds: expected array, received string'],
    [line({ category: 'trivia' }), 'fixtures/questions/x.jsonl:2: category: expected one of'],
    [line({ mustRefuse: 'no' }), 'fixtures/questions/x.jsonl:2: mustRefuse: expected boolean, received string'],
    [JSON.stringify({ ...valid, question: undefined }), 'fixtures/questions/x.jsonl:2: question: missing (expected string)'],
    [line({ extra: 1 }), 'fixtures/questions/x.jsonl:2: Unrecognized key: "extra"'],
    [line({ category: 'unanswerable', relevantChunkIds: [], mustRefuse: false }), 'fixtures/questions/x.jsonl:2: mustRefuse: must be true for category "unanswerable"'],
    [line({ relevantChunkIds: [] }), 'fixtures/questions/x.jsonl:2: relevantChunkIds: must name at least one chunk for an answerable question'],
    [line({ id: 'x0' }).replace('}', ''), 'fixtures/questions/x.jsonl:2: not valid JSON'],
    [line(), 'fixtures/questions/x.jsonl:2: id: "x1" is already used on line 1'],
  ])('a broken line gives a file:line message (%#)', (broken, expected) => {
    const source = `${line()}\n${broken}\n`;
    expect(problems(source).some((message) => message.startsWith(expected))).toBe(true);
  });

  it('reports every broken line, skips blank lines, and rejects an empty file', () => {
    const messages = problems(`${line({ id: 'a', keywords: 3 })}\n\n${line({ id: 'b', referenceAnswer: '' })}\n`);
    expect(messages).toEqual([
      'fixtures/questions/x.jsonl:1: keywords: expected array, received number',
      'fixtures/questions/x.jsonl:3: referenceAnswer: must be a non-empty string',
    ]);
    expect(problems('\n\n')).toEqual(['fixtures/questions/x.jsonl: holds no questions']);
  });

  it('only id, question and either a reference answer or mustRefuse are needed; the rest have defaults', () => {
    const lines = [
      { id: 'a', question: 'How long is probation?', relevantChunkIds: ['onboarding#probation-period'], referenceAnswer: 'Six months.' },
      { id: 'b', question: 'Who approves long trips?', relevantChunkIds: ['travel#a', 'travel#b'], referenceAnswer: 'Your manager and Finance.' },
      { id: 'c', question: 'Can I be paid in bitcoin?', mustRefuse: true },
      { id: 'd', question: 'What does Sarah earn?', mustRefuse: true, relevantChunkIds: ['pay#confidentiality'] },
    ];
    const set = parseQuestionSet(lines.map((value) => JSON.stringify(value)).join('\n'), 'q.jsonl');
    expect(set.questions.map(({ id, category, keywords, mustRefuse, referenceAnswer, relevantChunkIds }) => ({ id, category, keywords, mustRefuse, referenceAnswer, relevantChunkIds }))).toEqual([
      { id: 'a', category: 'single-chunk', keywords: [], mustRefuse: false, referenceAnswer: 'Six months.', relevantChunkIds: ['onboarding#probation-period'] },
      { id: 'b', category: 'multi-chunk', keywords: [], mustRefuse: false, referenceAnswer: 'Your manager and Finance.', relevantChunkIds: ['travel#a', 'travel#b'] },
      { id: 'c', category: 'unanswerable', keywords: [], mustRefuse: true, referenceAnswer: '', relevantChunkIds: [] },
      { id: 'd', category: 'guardrail', keywords: [], mustRefuse: true, referenceAnswer: '', relevantChunkIds: ['pay#confidentiality'] },
    ]);
    // An answerable question still needs its reference answer and its chunks.
    expect(problems(JSON.stringify({ id: 'e', question: 'How long is probation?', relevantChunkIds: ['onboarding#probation-period'] }))).toEqual([
      'fixtures/questions/x.jsonl:1: referenceAnswer: missing: an answerable question needs a correct answer written by a person (or set "mustRefuse": true)',
    ]);
    expect(problems(JSON.stringify({ id: 'f', question: 'How long is probation?', referenceAnswer: 'Six months.' }))).toEqual([
      'fixtures/questions/x.jsonl:1: relevantChunkIds: must name at least one chunk for an answerable question',
    ]);
  });

  it('names the question, its line and the unknown chunk id', () => {
    const set = parseQuestionSet(`${line()}\n${line({ id: 'x2', relevantChunkIds: ['onboarding#probation-period', 'nope#missing'] })}\n`, 'q.jsonl');
    expect(() => checkChunkIds(set, (chunkId) => chunkId !== 'nope#missing')).toThrow('q.jsonl:2: question x2: relevantChunkIds: no chunk "nope#missing" in the index');
  });

  it('a missing file or a folder is an input error', () => {
    const dir = tempDir();
    expect(() => loadQuestionSet(join(dir, 'none.jsonl'))).toThrow(/cannot read question file/);
    expect(() => loadQuestionSet(dir)).toThrow(/is a folder/);
    writeFileSync(join(dir, 'ok.jsonl'), `${line()}\n`);
    expect(loadQuestionSet(join(dir, 'ok.jsonl')).questions).toEqual([valid]);
  });
});
