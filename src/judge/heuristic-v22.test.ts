import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkDocument, parseDocument } from '../rag/chunk.js';
import { CORPUS_DIR } from '../test-support/fixtures.js';
import { okJudgment } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { referenceClaims } from './heuristic-relevance.js';
import type { EvidencePassage } from './types.js';

// heuristic-v22: a yes/no question about a figure asks about that figure; heuristic-v23: a
// bracketed aside in a reference claim is a detail (METHODOLOGY.md, "Changes in v22", "Changes in v23").
const judge = createHeuristicFaithfulnessJudge();

const chunks = readdirSync(CORPUS_DIR).flatMap((file) => chunkDocument(parseDocument(file, readFileSync(join(CORPUS_DIR, file), 'utf8'))));
const passage = (id: string): EvidencePassage => ({ id, text: chunks.find((chunk) => chunk.chunkId === id)!.modelText, kind: 'chunk' });
const pension = [passage('pension-and-benefits#pension-contributions'), passage('pension-and-benefits#workplace-pension')];
const question = 'Has the employer pension contribution always been 6%?';

describe('a yes/no question about a figure (heuristic-v22)', () => {
  it.each([
    // About the pension, not about the 6%: v21 read it as an answer.
    ['no yes or no, no percentage', "You're automatically enrolled in the Harbourline Group Personal Pension from your first day, and you can opt out within a month.", 'partial'],
    ['a percentage', 'No, the employer pension contribution was 5% before 1 April 2025.', 'answers'],
    ['a percentage, without yes or no', 'The employer pension contribution was 5% before 1 April 2025.', 'answers'],
    ['a plain no', 'No. Before 1 April 2025 the company contribution was lower.', 'answers'],
  ])('%s', async (_case, answer, relevance) => {
    expect(okJudgment(await judge.judge({ question, evidence: pension, answer })).answerRelevance).toBe(relevance);
  });

  it('leaves yes/no questions without a figure alone', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'Am I enrolled in the workplace pension automatically?', evidence: pension, answer: "You're automatically enrolled in the Harbourline Group Personal Pension from your first day." }));
    expect(judgment.answerRelevance).toBe('answers');
  });
});

describe('a bracketed aside in a reference claim is a detail (heuristic-v23)', () => {
  const reference = 'The on-call allowance is £40 per weekday night (17:00 to 09:00), whether or not you are called out.';
  it('is left out of the claim an answer must state', () => {
    const claims = referenceClaims(reference, 'You get £40 for each weekday night on call, even if nobody calls you out.', analyze('How much do I get for being on call on a weekday night?').stemSet);
    expect(claims.map((claim) => [claim.text, claim.stated])).toEqual([['The on-call allowance is £40 per weekday night, whether or not you are called out', true]]);
  });
  it('still needs the claim\'s own figure', () => {
    expect(referenceClaims(reference, 'You get £50 for each weekday night on call.').map((claim) => claim.stated)).toEqual([false]);
  });
});
