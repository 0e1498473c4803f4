import { describe, expect, it } from 'vitest';
import type { FaithfulnessJudgment } from './types.js';
import { renderCodeExcerpt, renderErrorReport } from '../contract/code.js';
import type { EvidencePassage } from '../contract/evidence.js';
import { createOpenAI } from '../providers/openai.js';
import { onCleanup } from '../test-support/fixtures.js';
import { chatReply, startMockOpenAIServer } from '../testing/index.js';
import { seededRng } from '../metrics/random.js';
import { createCodeClaimsJudge, explanationClaims, requireClaimsForCodeSpecifics } from './code-claims.js';
import { explanationWinner, isExplanationJudgment, statesCodeSpecifics, type ExplanationCriteria, type ExplanationReference } from './explanation-criteria.js';
import { createHeuristicExplanationJudge, explanationCriteria } from './explanation-heuristic.js';
import { createLlmExplanationJudge } from './explanation-llm.js';
import { judgePair } from './pairwise-protocol.js';
import type { FaithfulnessJudge, JudgedClaim } from './types.js';

const EVIDENCE: EvidencePassage[] = [
  {
    id: 'src/routes/posts.js#relatedPosts',
    kind: 'chunk',
    text: renderCodeExcerpt({
      path: 'src/routes/posts.js',
      symbol: "postRoutes.get('/posts/:post_id/related') handler",
      startLine: 19,
      lines: ["postRoutes.get('/posts/:post_id/related', (req, res) => {", '  const post = findPost(Number(req.params.postId));', '  res.json(post.tags);', '});'],
    }),
  },
  { id: 'src/db/posts.js#findPost', kind: 'chunk', text: renderCodeExcerpt({ path: 'src/db/posts.js', symbol: 'findPost', startLine: 34, lines: ['export function findPost(id) {', '  return POSTS.find((post) => post.id === id);', '}'] }) },
  {
    id: 'error-report',
    kind: 'reference',
    text: renderErrorReport({ header: "TypeError: Cannot read properties of undefined (reading 'tags')", entries: [{ kind: 'app', functionName: null, location: 'src/routes/posts.js', line: 21, column: 17 }] }),
  },
];

const REFERENCE: ExplanationReference = {
  cause: 'The route parameter is post_id but the handler reads req.params.postId.',
  fix: 'Read req.params.post_id.',
  fixLocation: { file: 'src/routes/posts.js', symbol: "postRoutes.get('/posts/:post_id/related') handler", aliases: ['/posts/:post_id/related'], lines: [19, 22] },
  causeKeywords: [['post_id'], ['postId']],
  fixKeywords: [['post_id']],
};

const RAG_ON =
  'This means `post` is undefined when `.tags` is read, because the route parameter is named `post_id` but line 20 of src/routes/posts.js reads `req.params.postId`.\n' +
  '- Fix: use `req.params.post_id` in the handler at src/routes/posts.js:20.';
const RAG_OFF = 'This means a value was undefined when `.tags` was read at src/routes/posts.js:21. Check the request parameters.';
const INVENTED = 'The crash happens because `getRelated(postSlug)` returns null at line 20 of src/routes/posts.js: `const post = findPost(Number(req.params.postId));`.';

/** The code-claims judge's judgment of an explanation (what the pairwise judges read claims from). */
async function judged(answer: string): Promise<FaithfulnessJudgment> {
  return createCodeClaimsJudge().judge({ question: 'q', evidence: EVIDENCE, answer });
}

async function claims(answer: string, judge: FaithfulnessJudge = createCodeClaimsJudge()): Promise<JudgedClaim[]> {
  const judgment = await judge.judge({ question: 'q', evidence: EVIDENCE, answer });
  if (judgment.status !== 'ok') throw new Error(judgment.error);
  return judgment.claims;
}

describe('code claims against an excerpt', () => {
  it('verifies code that is in the excerpt or the stack, and line numbers the excerpts cover', async () => {
    expect((await claims(RAG_ON)).map((claim) => claim.verdict)).toEqual(['verified', 'verified']);
    expect((await claims(RAG_OFF)).map((claim) => [claim.verdict, claim.evidenceChunkId])).toEqual([['verified', 'src/routes/posts.js#relatedPosts']]);
    const fromStack = 'It was thrown at src/routes/users.js:6.';
    expect(await claims(fromStack)).toEqual([{ text: fromStack, verdict: 'absent', evidenceChunkId: null, note: 'no excerpt of src/routes/users.js' }]);
  });

  it('marks a name the excerpt never mentions absent, and quoted code cited at the wrong line contradicted', async () => {
    expect(await claims(INVENTED)).toEqual([{ text: INVENTED, verdict: 'absent', evidenceChunkId: null, note: 'getRelated, postSlug are not in the evidence' }]);
    const wrongLine = 'Line 22 of src/routes/posts.js is `const post = findPost(Number(req.params.postId));`.';
    expect(await claims(wrongLine)).toEqual([{ text: wrongLine, verdict: 'contradicted', evidenceChunkId: 'src/routes/posts.js#relatedPosts', note: '`const post = findPost(Number(req.params.postId));` is at src/routes/posts.js:20, not 22' }]);
  });

  it('plain explanation without code specifics makes no claim', () => {
    expect(explanationClaims('This happens when a value is missing. Check your inputs.')).toEqual([]);
    expect(statesCodeSpecifics('Check `findPost`.')).toBe(true);
    expect(statesCodeSpecifics('Check your inputs.')).toBe(false);
  });

  it('an explanation stating code specifics that gets no claims from a judge is a judge failure, not a pass', async () => {
    const silent: FaithfulnessJudge = { info: { kind: 'mock', model: 'mock', promptVersion: 'x' }, judge: async () => ({ ...(await createCodeClaimsJudge().judge({ question: '', evidence: [], answer: '' })), claims: [] }) };
    const guarded = requireClaimsForCodeSpecifics(silent);
    expect(await guarded.judge({ question: 'q', evidence: EVIDENCE, answer: RAG_ON })).toMatchObject({ status: 'error', error: 'the explanation states code specifics but the judge returned no claims: it was not checked' });
    expect(await guarded.judge({ question: 'q', evidence: EVIDENCE, answer: 'Check your inputs.' })).toMatchObject({ status: 'ok', claims: [] });
  });
});

describe('explanation criteria and the pairwise judges', () => {
  it('answers the explicit questions per explanation', async () => {
    expect(explanationCriteria(RAG_ON, await claims(RAG_ON), REFERENCE)).toEqual({ foundCause: true, pointsToFixLocation: true, proposesWorkingFix: true, explainsForLearner: true, noFabrication: true });
    expect(explanationCriteria(RAG_OFF, await claims(RAG_OFF), REFERENCE)).toEqual({ foundCause: false, pointsToFixLocation: true, proposesWorkingFix: false, explainsForLearner: true, noFabrication: true });
    expect(explanationCriteria(INVENTED, await claims(INVENTED), REFERENCE)).toMatchObject({ foundCause: false, noFabrication: false });
  });

  it('any fabrication loses to a clean explanation that says less (the weights)', () => {
    const all: ExplanationCriteria = { foundCause: true, pointsToFixLocation: true, proposesWorkingFix: true, explainsForLearner: true, noFabrication: false };
    const none: ExplanationCriteria = { foundCause: false, pointsToFixLocation: false, proposesWorkingFix: false, explainsForLearner: false, noFabrication: true };
    expect(explanationWinner(all, none)).toBe('B');
  });

  it('the heuristic judge is symmetric: swapping the explanations swaps the verdict, so both orders agree', async () => {
    const judge = createHeuristicExplanationJudge({ reference: REFERENCE });
    const sides = { rag: RAG_ON, norag: RAG_OFF, judgmentRag: await judged(RAG_ON), judgmentNorag: await judged(RAG_OFF) };
    const outcome = await judgePair({ judge, questionId: 'wrong-param', question: 'q', evidence: EVIDENCE, sides, rng: seededRng(3) });
    expect(outcome.outcome).toBe('rag');
    expect(outcome.consistent).toBe(true);
    const [first, second] = outcome.trials;
    expect(isExplanationJudgment(first!.judgment) && isExplanationJudgment(second!.judgment)).toBe(true);
    if (!isExplanationJudgment(first!.judgment) || !isExplanationJudgment(second!.judgment)) return;
    expect(first!.judgment.explanation.a).toEqual(second!.judgment.explanation.b);
    expect(first!.judgment.a).toEqual({ answersCorrectly: first!.judgment.explanation.a.foundCause, citesRightSource: first!.judgment.explanation.a.pointsToFixLocation, statesConditions: first!.judgment.explanation.a.proposesWorkingFix, noFabrication: first!.judgment.explanation.a.noFabrication });
  });

  it('a side with code specifics but no claim verdicts makes the pair a judge error', async () => {
    const judge = createHeuristicExplanationJudge({ reference: REFERENCE });
    const outcome = await judgePair({ judge, questionId: 'x', question: 'q', evidence: EVIDENCE, sides: { rag: RAG_ON, norag: RAG_OFF, judgmentRag: null, judgmentNorag: await judged('') }, rng: seededRng(1) });
    expect(outcome.outcome).toBe('error');
    expect(outcome.trials[0]!.judgment).toMatchObject({ status: 'error', error: expect.stringMatching(/states code specifics but has no claim verdicts/) });
  });

  it('the LLM judge asks the four questions through the real SDK, retries an unusable reply, and computes the winner in code', async () => {
    let calls = 0;
    const server = await startMockOpenAIServer({
      chat: () => {
        calls += 1;
        if (calls === 1) return chatReply('not json at all');
        const side = (found: boolean) => ({ foundCause: found, pointsToFixLocation: true, proposesWorkingFix: found, explainsForLearner: true });
        return chatReply(JSON.stringify({ reason: 'A names post_id.', a: side(true), b: side(false) }));
      },
    });
    onCleanup(() => void server.close());
    const judge = createLlmExplanationJudge({ chat: createOpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }).chat('judge-model'), reference: REFERENCE });
    const judgment = await judge.judge({ question: 'q', evidence: EVIDENCE, answerA: RAG_ON, answerB: INVENTED, judgmentA: await judged(RAG_ON), judgmentB: await judged(INVENTED) });
    expect(judgment).toMatchObject({ status: 'ok', winner: 'A', explanation: { a: { foundCause: true, noFabrication: true }, b: { foundCause: false, noFabrication: false } } });
    expect(calls).toBe(2);
    const prompt = server.requests[0]!.body.messages as { role: string; content: string }[];
    expect(prompt[1]!.content).toContain('Known cause: The route parameter is post_id');
    expect(prompt[1]!.content).toContain('<passage id="src/db/posts.js#findPost">');
  });
});
