import { beforeAll, describe, expect, it } from 'vitest';
import { okJudgment, claimVerdicts } from '../test-support/judgments.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { handbookPassages } from '../test-support/fixtures.js';
import { createHeuristicFaithfulnessJudge, HEURISTIC_JUDGE_VERSION } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

const PARENTAL = 'leave-policy#parental-leave';
const TRAINING = ['training-and-development#training-under-1-000', 'training-and-development#training-costing-1-000-or-more', 'training-and-development#training-over-5-000'];
const PARENTAL_QUESTION = 'How many weeks of parental leave does a birth parent get?';
const TRAINING_QUESTION = 'Do I need approval before booking training?';
const UNRELATED_QUESTION = 'What is the dress code for the Christmas party?';

let leave: EvidencePassage[];
let training: EvidencePassage[];
let handbook: (id: string) => EvidencePassage;

// The real handbook text, exactly as the pipeline puts it in a prompt (source line, section, body).
beforeAll(async () => {
  // Read every chunk now: the index is closed after the first test.
  handbook = await handbookPassages();
  leave = [handbook(PARENTAL)];
  training = TRAINING.map(handbook);
});

const judge = createHeuristicFaithfulnessJudge();

const ok = okJudgment;

const verdicts = (question: string, evidence: EvidencePassage[], answer: string) => claimVerdicts(judge, question, evidence, answer);

describe('heuristic judge: claim verdicts on the handbook', () => {
  it('"parental leave is 16 weeks" against the 20-week policy is contradicted, with the figure in the note', async () => {
    const judgment = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'Parental leave is 16 weeks.' }));
    expect(judgment.claims).toEqual([
      { text: 'Parental leave is 16 weeks.', verdict: 'contradicted', evidenceChunkId: PARENTAL, note: `${PARENTAL} says 20 weeks, not 16 weeks` },
    ]);
    expect(judgment).toMatchObject({ counts: { verified: 0, contradicted: 1, absent: 0 }, faithful: false, hallucinated: true, refused: false, contextSufficient: true, refusalVerdict: 'not_applicable', refusalCorrect: null, undetermined: false });
  });

  it('"training over £1,000 needs no approval" is contradicted: the negation disagrees', async () => {
    const judgment = ok(await judge.judge({ question: TRAINING_QUESTION, evidence: training, answer: 'Training over £1,000 needs no approval.' }));
    expect(judgment.claims).toHaveLength(1);
    expect(judgment.claims[0]).toMatchObject({ verdict: 'contradicted' });
    expect(judgment.claims[0]!.note).toMatch(/states the opposite: the claim negates "approval"/);
  });

  it('"a £2,500 course needs no approval" is contradicted: £2,500 falls outside the "less than £1,000" exception', async () => {
    const judgment = ok(await judge.judge({ question: TRAINING_QUESTION, evidence: training, answer: 'A £2,500 course needs no approval.' }));
    expect(judgment.claims).toEqual([
      { text: 'A £2,500 course needs no approval.', verdict: 'contradicted', evidenceChunkId: TRAINING[0], note: `${TRAINING[0]} says less than £1,000, not £2,500` },
    ]);
  });

  it('the same claim inside the exception (£500) is verified', async () => {
    expect(await verdicts(TRAINING_QUESTION, training, 'A £500 course needs no approval.')).toEqual(['verified']);
  });

  it('an invented policy is absent', async () => {
    const judgment = ok(await judge.judge({ question: TRAINING_QUESTION, evidence: training, answer: 'Every employee gets a free tablet for self-study.' }));
    expect(judgment.claims).toEqual([{ text: 'Every employee gets a free tablet for self-study.', verdict: 'absent', evidenceChunkId: null, note: expect.stringContaining('lacks') }]);
    expect(judgment).toMatchObject({ hallucinated: true, faithful: false });
  });

  it('a name the evidence does not hold makes a claim absent', async () => {
    const judgment = ok(await judge.judge({ question: TRAINING_QUESTION, evidence: training, answer: 'Training over £5,000 needs sign-off from the CEO.' }));
    expect(judgment.claims[0]).toMatchObject({ verdict: 'absent', note: 'not in the evidence: CEO' });
  });

  it('a name the evidence holds in another sentence than the one closest to the claim is named as missing from that sentence, not from the evidence', async () => {
    const answer = 'You have to put the request in on MyHarbour at least 2 months ahead.';
    const judgment = ok(await judge.judge({ question: 'How far in advance do I have to ask for 3 weeks off?', evidence: [handbook('leave-policy#booking-annual-leave')], answer }));
    expect(judgment.claims[0]).toMatchObject({ verdict: 'absent', note: 'closest sentence (leave-policy#booking-annual-leave) lacks MyHarbour (found elsewhere in the evidence)' });
  });

  it.each([
    ['a faithful paraphrase with a number word', PARENTAL_QUESTION, 'Birth parents get twenty weeks at full pay, then up to 19 weeks at the statutory rate and 13 weeks unpaid.'],
    ['a paraphrase citing its source', PARENTAL_QUESTION, 'A birth parent gets 20 weeks of parental leave at full pay (Leave Policy, updated 2026-01-12).'],
    ['a threshold stated as "or more"', TRAINING_QUESTION, 'Training that costs £1,000 or more needs written approval from your manager.'],
    ['"over" for "more than"', TRAINING_QUESTION, 'Training over £5,000 needs sign-off from the HR Director.'],
    ['a percentage and a period', TRAINING_QUESTION, 'If you resign within 12 months you repay 100% of the cost.'],
  ])('verified: %s', async (_name, question, answer) => {
    const judgment = ok(await judge.judge({ question, evidence: question === PARENTAL_QUESTION ? leave : training, answer }));
    // Every claim (", then …" starts a claim of its own) is verified.
    expect([...new Set(judgment.claims.map((claim) => claim.verdict))]).toEqual(['verified']);
    expect(judgment.claims[0]!.evidenceChunkId).not.toBeNull();
    expect(judgment).toMatchObject({ faithful: true, hallucinated: false });
  });

  it.each([
    ['a different figure for the same thing', PARENTAL_QUESTION, 'Parental leave is 19 weeks at full pay.', /says 20 weeks, not 19 weeks/],
    ['a bare figure read with the question', PARENTAL_QUESTION, '16 weeks.', /says 20 weeks, not 16 weeks/],
    ['a different percentage', TRAINING_QUESTION, 'If you resign within 12 months you repay 50% of the cost.', /says 100%, not 50%/],
    ['the opposite of "verbal approval is not enough"', TRAINING_QUESTION, 'Verbal approval is enough.', /the evidence negates "enough"/],
  ])('contradicted: %s', async (_name, question, answer, note) => {
    const judgment = ok(await judge.judge({ question, evidence: question === PARENTAL_QUESTION ? leave : training, answer }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
    expect(judgment.claims[0]!.note).toMatch(note);
  });

  it('judges each clause on its own: a true clause is verified, an invented one absent', async () => {
    const judgment = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'Parental leave is 20 weeks at full pay, and you also get a company car.' }));
    expect(judgment.claims.map((claim) => [claim.text, claim.verdict])).toEqual([
      ['Parental leave is 20 weeks at full pay', 'verified'],
      ['you also get a company car.', 'absent'],
    ]);
    expect(judgment.counts).toEqual({ verified: 1, contradicted: 0, absent: 1 });
  });

  it('a citation with the wrong date contradicts; a citation of a source not in the evidence is absent', async () => {
    const wrongDate = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'Birth parents receive 20 weeks at full pay (Leave Policy, updated 2025-01-12).' }));
    expect(wrongDate.claims.map((claim) => [claim.text, claim.verdict])).toEqual([
      ['Birth parents receive 20 weeks at full pay.', 'verified'],
      ['Cites "Leave Policy, updated 2025-01-12"', 'contradicted'],
    ]);
    const unknownSource = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'Birth parents receive 20 weeks at full pay (Family Handbook, updated 2026-01-12).' }));
    expect(unknownSource.claims[1]).toEqual({ text: 'Cites "Family Handbook, updated 2026-01-12"', verdict: 'absent', evidenceChunkId: null, note: 'no evidence passage has this title' });
  });
});

describe('heuristic judge: tables, codes and sentences with several clauses', () => {
  const MEALS = [
    '[Source: Travel and Expenses | Section: Meal Allowances | Last updated: 2025-09-01]',
    '| Region | Breakfast | Dinner |',
    '| --- | --- | --- |',
    '| London | £10 | £35 |',
    '| Elsewhere in the UK | £8 | £25 |',
  ].join('\n');
  const RATINGS = [
    '[Source: Performance Reviews | Section: Performance Ratings | Last updated: 2025-01-10]',
    '| Rating | Meaning |',
    '| --- | --- |',
    '| 3 | Good: fully meets expectations |',
    '| 2 | Developing: partly meets expectations |',
    '| 1 | Below expectations |',
  ].join('\n');
  const passage = (text: string): EvidencePassage[] => [{ id: 'e', text, kind: 'chunk' }];
  const judged = async (evidence: EvidencePassage[], question: string, answer: string) =>
    ok(await judge.judge({ question, evidence, answer })).claims.map((claim) => [claim.verdict, claim.note]);

  it.each([
    ['a quoted row, with its citation', 'Region: London; Breakfast: £10; Dinner: £35. (Travel and Expenses, updated 2025-09-01)', 'supported by e (£10, £35 agree)'],
    ['a row figure restated in prose', 'The London dinner allowance is £35.', 'supported by e (£35 agrees)'],
  ])('a table row is a statement about its row label in each column: verified, %s', async (_name, answer, note) => {
    expect(await judged(passage(MEALS), 'What are the meal limits in London?', answer)).toEqual([['verified', note]]);
  });

  it.each([
    ['a quoted row with one cell changed', MEALS, 'Region: London; Breakfast: £10; Dinner: £25.', 'e gives "Dinner: £35" for Region London, not "£25"'],
    ["another row's figure, in prose", MEALS, 'The London dinner allowance is £25.', 'e says £35, not £25'],
    ["a label paired with another row's cell", RATINGS, 'Rating: 2; Meaning: Below expectations.', 'e gives "Meaning: Developing: partly meets expectations" for Rating 2, not "Below expectations"'],
  ])('contradicted: %s', async (_name, evidence, answer, note) => {
    expect(await judged(passage(evidence), 'What does it say?', answer)).toEqual([['contradicted', note]]);
  });

  it('a phone number is one code, matched exactly: the right one is verified, a changed digit contradicts the number the passage gives', async () => {
    const evidence = passage('Use the independent Speak Up line, which is available 24 hours a day on 0808 157 0420.');
    expect(await judged(evidence, 'How do I reach the Speak Up line?', 'The Speak Up line is available 24 hours a day on 0808 157 0420.')).toEqual([['verified', 'supported by e (24 hours agrees)']]);
    expect(await judged(evidence, 'How do I reach the Speak Up line?', 'The Speak Up line is open 24 hours a day on 0808 157 0421.')).toEqual([['contradicted', 'e gives 0808 157 0420, not 0808 157 0421']]);
  });

  it('negation is compared clause by clause: the affirmed half of a sentence verifies, the negated half contradicts', async () => {
    const evidence = passage('IT can then remove company data from your phone, but cannot see or delete your personal data.');
    expect(await judged(evidence, 'Can IT wipe my phone?', 'IT can then remove company data from your phone.')).toEqual([['verified', 'supported by e']]);
    expect(await judged(evidence, 'Can IT see my data?', 'IT can see your personal data.')).toEqual([['contradicted', 'e states the opposite: the evidence negates "see personal data", the claim does not']]);
  });

  it.each([
    ['it-and-security#passwords-and-passphrases', 'Do passwords have to be unique?', 'Every password must be unique'],
    ['training-and-development#annual-training-budget', 'Who pays for travel to training?', "Travel and accommodation for training are claimed under the Travel and Expenses policy and paid from your team's budget"],
    ['leave-policy#annual-leave-entitlement', 'How much annual leave do I get?', 'You receive one extra day of annual leave for each completed year of service, up to a maximum of 30 days a year.'],
    ['leave-policy#annual-leave-entitlement', 'When does the leave year run?', 'The leave year runs from 1 January to 31 December.'],
  ])('a verbatim clause of %s is verified', async (chunkId, question, answer) => {
    const judgment = ok(await judge.judge({ question, evidence: [handbook(chunkId)], answer }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
  });

  it('the ends of a span share what they describe: a changed end date is contradicted', async () => {
    const judgment = ok(await judge.judge({ question: 'When does the leave year run?', evidence: [handbook('leave-policy#annual-leave-entitlement')], answer: 'The leave year runs from 1 January to 30 December.' }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
  });
});

describe('heuristic judge: refusals, relevance and undetermined answers', () => {
  it('a refusal when the evidence is irrelevant is correctly refused', async () => {
    const judgment = ok(await judge.judge({ question: UNRELATED_QUESTION, evidence: leave, answer: REFUSAL_SENTENCE }));
    expect(judgment).toMatchObject({ claims: [], refused: true, contextSufficient: false, refusalVerdict: 'correct_refusal', refusalCorrect: true, faithful: null, hallucinated: false, undetermined: false });
  });

  it('a refusal paraphrase with no evidence at all is correctly refused', async () => {
    const judgment = ok(await judge.judge({ question: UNRELATED_QUESTION, evidence: [], answer: "Sorry, the documents don't cover that." }));
    expect(judgment).toMatchObject({ refused: true, evidenceRelevant: false, contexts: [], refusalVerdict: 'correct_refusal' });
  });

  it.each([
    "I couldn't find anything about that in the handbook. You could ask Payroll.",
    "The handbook doesn't say, so I can't tell you. The People team would know.",
    "I'm not able to give out a colleague's details; that's confidential.",
    "I don't have those figures in front of me, so I can't say. Please contact HR for details.",
  ])('a refusal in other words, with a pointer to someone or a reason, is a refusal with no claims: %s', async (answer) => {
    const judgment = ok(await judge.judge({ question: UNRELATED_QUESTION, evidence: leave, answer }));
    expect(judgment).toMatchObject({ claims: [], refused: true, refusalVerdict: 'correct_refusal', hallucinated: false });
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('a pointer in an answer (not a refusal) is still a claim to check', async () => {
    const judgment = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'You get 20 weeks at full pay. You could ask Payroll for a copy of your contract.' }));
    expect(judgment.refused).toBe(false);
    expect(judgment.claims.map((claim) => claim.text)).toContain('You could ask Payroll for a copy of your contract.');
  });

  it('a refusal when the evidence answers the question is an over-refusal, and faithful is null, not a pass or a fail', async () => {
    const judgment = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: REFUSAL_SENTENCE }));
    expect(judgment).toMatchObject({ claims: [], refused: true, contextSufficient: true, refusalVerdict: 'over_refusal', refusalCorrect: false, ignoredChunks: [PARENTAL], faithful: null, hallucinated: false, undetermined: false });
  });

  it('invented content when the evidence is irrelevant should have been a refusal', async () => {
    const judgment = ok(await judge.judge({ question: UNRELATED_QUESTION, evidence: leave, answer: 'The dress code is black tie.' }));
    expect(judgment).toMatchObject({ refused: false, contextSufficient: false, refusalVerdict: 'should_have_refused', refusalCorrect: false, hallucinated: true, faithful: false });
    expect(judgment.claims).toEqual([{ text: 'The dress code is black tie.', verdict: 'absent', evidenceChunkId: null, note: 'no evidence sentence shares its words' }]);
  });

  it('a refusal that still slips in an unsupported claim is not a correct refusal', async () => {
    const judgment = ok(await judge.judge({ question: UNRELATED_QUESTION, evidence: leave, answer: "I don't know, but I think it is black tie." }));
    expect(judgment).toMatchObject({ refused: true, hallucinated: true });
    expect(outcomeOf(flagsOf(judgment))).toBe('hallucinated');
    expect(judgment.claims.map((claim) => claim.text)).toEqual(['I think it is black tie.']);
  });

  it('an answer with no checkable claim is undetermined', async () => {
    const judgment = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'Yes.' }));
    expect(judgment).toMatchObject({ claims: [], counts: { verified: 0, contradicted: 0, absent: 0 }, undetermined: true, faithful: null, hallucinated: false, refused: false });
  });

  it('the absent policy decides whether an unsupported claim is a hallucination', async () => {
    const answer = 'Parental leave is 20 weeks at full pay, and you also get a company car.';
    const lenient = createHeuristicFaithfulnessJudge({ policy: { absentIsHallucination: false } });
    const strictJudgment = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer }));
    const lenientJudgment = ok(await lenient.judge({ question: PARENTAL_QUESTION, evidence: leave, answer }));
    expect(lenientJudgment.claims).toEqual(strictJudgment.claims);
    expect(strictJudgment).toMatchObject({ hallucinated: true, faithful: false });
    expect(lenientJudgment).toMatchObject({ hallucinated: false, faithful: true });
    // A contradiction is a hallucination under either policy.
    const contradicted = ok(await lenient.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'Parental leave is 16 weeks.' }));
    expect(contradicted).toMatchObject({ hallucinated: true, faithful: false });
  });
});

describe('heuristic judge: contract', () => {
  it('stores who judged, costs nothing and reports its duration', async () => {
    const judgment = ok(await judge.judge({ question: PARENTAL_QUESTION, evidence: leave, answer: 'Parental leave is 20 weeks at full pay.' }));
    expect(judge.info).toEqual({ kind: 'heuristic', model: 'heuristic', promptVersion: HEURISTIC_JUDGE_VERSION });
    expect(judgment.judge).toEqual(judge.info);
    expect(judgment).toMatchObject({ usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: 0 });
    expect(judgment.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('never throws: a failure inside the judge is a judge error, not a pass or a zero', async () => {
    const broken = [{ id: 'x', text: undefined as unknown as string, kind: 'chunk' as const }];
    const judgment = await judge.judge({ question: PARENTAL_QUESTION, evidence: broken, answer: 'Parental leave is 20 weeks.' });
    expect(judgment).toMatchObject({ status: 'error', rawReply: null, attempts: 1, authError: false, judge: judge.info });
    expect(judgment).not.toHaveProperty('faithful');
    expect(judgment).not.toHaveProperty('claims');
  });

  it('validates options at construction, naming the option', () => {
    expect(() => createHeuristicFaithfulnessJudge({ policy: { absentIsHallucination: 'yes' as unknown as boolean } })).toThrow(/option policy.absentIsHallucination "yes" is invalid/);
    expect(() => createHeuristicFaithfulnessJudge({ refusalSentence: '  ' })).toThrow(/option refusalSentence/);
  });

  it('uses the app\'s own refusal sentence', async () => {
    const custom = createHeuristicFaithfulnessJudge({ refusalSentence: 'That is outside what I can answer from the handbook.' });
    const judgment = ok(await custom.judge({ question: UNRELATED_QUESTION, evidence: leave, answer: 'That is outside what I can answer from the handbook.' }));
    expect(judgment).toMatchObject({ refused: true, claims: [], refusalVerdict: 'correct_refusal' });
  });
});

describe('heuristic judge: known limits (documented in METHODOLOGY.md, not special-cased)', () => {
  it('KNOWN LIMIT: a claim that drops a condition ("training needs no approval") is verified by the sentence that states it with the condition', async () => {
    // The "less than £1,000" condition lives in the sentence's own words; the claim's words are all
    // there, its polarity agrees and it has no figure to compare. An LLM judge is needed to see
    // that the claim generalises an exception.
    expect(await verdicts(TRAINING_QUESTION, training, 'Training needs no approval.')).toEqual(['verified']);
  });

  it('KNOWN LIMIT: a paraphrase WordNet does not list as synonyms ("fully paid", "new mothers and fathers") is absent, not verified', async () => {
    expect(await verdicts(PARENTAL_QUESTION, leave, 'New mothers and fathers are fully paid for twenty weeks.')).toEqual(['absent']);
  });
});

describe('heuristic judge: synonyms from WordNet (heuristic-v6)', () => {
  const notice: EvidencePassage[] = [
    { id: 'leaving#notice', kind: 'chunk', text: 'Staff who resign must give four weeks of notice in writing to their manager.' },
    { id: 'leaving#payroll', kind: 'chunk', text: 'Anyone who resigns must tell payroll.' },
    { id: 'travel#mileage', kind: 'chunk', text: 'Motorcycles are reimbursed at 24p per business mile.' },
    { id: 'leave#holiday', kind: 'chunk', text: 'Full-time staff get 25 days of holiday a year.' },
  ];

  it.each([
    ['a synonym verifies the claim', 'Who do I tell if I quit?', 'Anyone who quits must tell payroll.', ['verified']],
    ['a synonym of a name of a thing', 'What do motorbikes get per mile?', 'Motorbikes get 24p per business mile.', ['verified']],
    ['a synonym does not change a figure', 'How much notice do I give if I quit?', 'If you quit, you must give six weeks of notice in writing.', ['contradicted']],
    ['nor a rate', 'What do motorbikes get per mile?', 'Motorbikes get 30p per business mile.', ['contradicted']],
    ['a word that is no synonym stays absent', 'What do bicycles get per mile?', 'Bicycles get 24p per business mile.', ['absent']],
  ])('%s', async (_case, question, answer, expected) => {
    expect(await verdicts(question, notice, answer)).toEqual(expected);
  });

  it('a question in other words finds the chunk that answers it', async () => {
    const judgment = ok(await judge.judge({ question: 'How many days of vacation do I get?', evidence: notice, answer: REFUSAL_SENTENCE }));
    expect(judgment.contexts.map((context) => context.verdict)).toEqual(['unrelated', 'unrelated', 'unrelated', 'answers']);
    expect(judgment.refusalVerdict).toBe('over_refusal');
  });
});

describe('heuristic judge: dates as bounds, compound words, "old" figures (heuristic-v7)', () => {
  const evidence: EvidencePassage[] = [
    {
      id: 'pension#contributions',
      kind: 'chunk',
      text: 'From 1 April 2025, the employer contributes 6% of basic salary. Before 1 April 2025, the employer contribution was 5%.',
    },
    { id: 'timesheets#weekly', kind: 'chunk', text: 'Send time sheets to your line manager.' },
  ];
  const parental: EvidencePassage[] = [
    {
      id: 'leave#parental',
      kind: 'chunk',
      text: 'Birth parents get 20 weeks at full pay. This replaces the previous entitlement of 16 weeks at full pay, which still applies to children born before 1 January 2026.',
    },
  ];

  it.each([
    ['a date inside a "before" bound', evidence, 'In March 2025 the employer contribution was 5%.', ['verified']],
    ['a date inside a "from" bound', evidence, 'In June 2025 the employer contributes 6% of basic salary.', ['verified']],
    ['a date outside the bound', evidence, 'In March 2025 the employer contributes 6% of basic salary.', ['contradicted']],
    ['the bound turned the other way', evidence, 'Before 1 April 2025, the employer contributes 6% of basic salary.', ['contradicted']],
    ['a compound word written apart', evidence, 'Send your timesheet to your line manager.', ['verified']],
    ['a compound does not stand in for another word', evidence, 'Send your timesheet to payroll.', ['absent']],
    ['"the old" figure is the previous one', parental, 'The old entitlement was 16 weeks at full pay.', ['verified']],
    ['and "old" changes no figure', parental, 'The old entitlement was 18 weeks at full pay.', ['contradicted']],
  ])('%s', async (_case, passages, answer, expected) => {
    expect(await verdicts('What does the handbook say?', passages, answer)).toEqual(expected);
  });
});

describe('heuristic judge: section words, table lead-ins and names (heuristic-v8)', () => {
  const probation = (header: string): EvidencePassage[] => [
    {
      id: 'onboarding#probation',
      kind: 'chunk',
      text: `${header}All new employees serve a probation period of 6 months. Your manager holds a formal review with you at 3 months and again before the end of the 6 months, and confirms the outcome in writing.`,
    },
  ];
  const SECTION = '[Source: Onboarding | Section: Probation Period | Last updated: 2025-03-10]\n';
  const meals: EvidencePassage[] = [
    {
      id: 'travel#meals',
      kind: 'chunk',
      text:
        '[Source: Travel and Expenses | Section: Meal Allowances | Last updated: 2025-09-01]\n' +
        'You may claim the actual cost of meals while travelling on business, with receipts, up to these daily limits:\n\n' +
        '| Location | Per night away | Day trip over 5 hours |\n| --- | --- | --- |\n| London | £45 | £10 |\n| Elsewhere in the UK | £35 | £8 |',
    },
  ];
  const annualLeave: EvidencePassage[] = [{ id: 'leave#annual', kind: 'chunk', text: 'Full-time employees receive 25 days of annual leave each year.' }];

  it.each([
    // v7: absent. The claim's words for 6 months ("probation lasts") describe no figure of the
    // sentence that states the review, but they are the section's.
    ['a figure pinned by the section heading', probation(SECTION), 'Probation lasts 6 months, with a formal review at 3 months and again before the end.', ['verified']],
    ['a figure the sentence does not give is still not verified', probation(SECTION), 'Probation lasts 9 months, with a formal review at 3 months and again before the end.', ['absent']],
    // v62: `verified` without the heading too: the claim states two figures, and the two sentences
    // together state both ("a probation period of 6 months", "a formal review with you at 3 months").
    ['without the heading the two sentences together state both figures', probation(''), 'Probation lasts 6 months, with a formal review at 3 months and again before the end.', ['verified']],
    ['without the heading a figure no sentence gives is still not verified', probation(''), 'Probation lasts 9 months, with a formal review at 3 months and again before the end.', ['absent']],
    // v7: absent ("claim", "cost" and "receipts" are in the table's lead-in sentence only).
    ["a table row read with the table's lead-in", meals, 'In London you can claim the cost up to £45 for each night away, with receipts.', ['verified']],
    ['the lead-in changes no cell', meals, 'In London you can claim the cost up to £55 for each night away, with receipts.', ['contradicted']],
    // v7: verified (a sentence-initial "Aisha" was a capitalized first word, not a name).
    ['a sentence-initial word that is no English word is a name', annualLeave, 'Aisha receives 25 days of annual leave each year.', ['absent']],
    ['a sentence-initial English word is not', annualLeave, 'Employees receive 25 days of annual leave each year.', ['verified']],
  ])('%s', async (_case, passages, answer, expected) => {
    expect(await verdicts('What does the handbook say?', passages, answer)).toEqual(expected);
  });
});

describe('heuristic judge: a chunk stating the rule for the question\'s own figure answers it (heuristic-v11)', () => {
  const passage = (id: string, section: string, body: string): EvidencePassage => ({ id, kind: 'chunk', text: `[Source: Staff Handbook | Section: ${section} | Last updated: 2025-06-01]\n${body}` });
  const overFiveThousand = passage('training#over-5000', 'Large Training Requests', 'Training that costs more than £5,000 needs written approval from the HR Director. You must sign a repayment agreement before booking.');
  const firstAid = passage('safety#first-aid', 'First Aid', 'Offices with more than 25 employees must have at least 2 trained first aiders.');
  const hospitality = passage('gifts#hospitality', 'Hospitality', 'You may accept occasional hospitality, such as a business meal, worth up to £100 per head.');

  it.each([
    // v10: correct_refusal (the question shares one word in six with the chunk, so no chunk answered).
    ['a condition range holds the figure, and its words share the question\'s', 'We are putting our team lead on a £7,500 management course. Who has to approve it?', [overFiveThousand], 'answers', 'over_refusal'],
    ['the same figure with no word of the question near it pins nothing', 'Is a £7,500 car loan available to staff?', [overFiveThousand], 'unrelated', 'correct_refusal'],
    ['a limit holds every smaller figure, so it pins only its own', 'A client offered me £40 of hospitality vouchers. May I accept them?', [hospitality], 'unrelated', 'correct_refusal'],
    ['a count pins no rule', "We're 30 employees here. Do we need a defibrillator?", [firstAid], 'unrelated', 'correct_refusal'],
  ])('%s', async (_case, question, evidence, verdict, outcome) => {
    const judgment = ok(await judge.judge({ question, evidence, answer: REFUSAL_SENTENCE }));
    expect({ verdict: judgment.contexts[0]!.verdict, outcome: outcomeOf(flagsOf(judgment)) }).toEqual({ verdict, outcome });
  });

  it('the note names the figure and the rule', async () => {
    const judgment = ok(await judge.judge({ question: 'We are putting our team lead on a £7,500 management course. Who has to approve it?', evidence: [overFiveThousand], answer: REFUSAL_SENTENCE }));
    expect(judgment.contexts).toEqual([{ chunkId: 'training#over-5000', verdict: 'answers', note: "a sentence states the rule for the question's £7,500 (more than £5,000)" }]);
  });
});

describe('heuristic judge: answers in the user\'s words (heuristic-v12)', () => {
  const annualLeave: EvidencePassage[] = [{ id: 'leave#annual', kind: 'chunk', text: 'Full-time employees receive 25 days of annual leave each year.' }];

  it.each([
    // v11: absent ("Since" starting the sentence, no WordNet word, was read as a name).
    ['a sentence-initial conjunction is not a name', annualLeave, 'Since you are full-time, you receive 25 days of annual leave each year.', ['verified']],
    ['and the figure is still compared', annualLeave, 'Since you are full-time, you receive 28 days of annual leave each year.', ['contradicted']],
  ])('%s', async (_case, passages, answer, expected) => {
    expect(await verdicts('What does the handbook say?', passages, answer)).toEqual(expected);
  });
});

describe('heuristic judge: negations that agree (heuristic-v12)', () => {
  const onCall: EvidencePassage[] = [
    { id: 'hours#on-call', kind: 'chunk', text: 'Employees on the rota receive £40 per weekday night on call, whether or not they are called out.' },
  ];
  const reporting: EvidencePassage[] = [
    { id: 'sickness#reporting', kind: 'chunk', text: 'A text, email or chat message is not enough unless you are physically unable to phone.' },
  ];
  const incomeProtection: EvidencePassage[] = [
    { id: 'benefits#income-protection', kind: 'chunk', text: 'If you are unable to work because of illness for more than 26 weeks in a row, income protection may pay 75% of your salary.' },
  ];

  it.each([
    // v11: contradicted ("nobody" negated "calls").
    ['a negation in a concession ("even if nobody…") is not the claim\'s', onCall, 'You get £40 for each weekday night on call, even if nobody calls you out.', ['verified']],
    ['a negation in a plain condition still is', onCall, 'You get £40 for each weekday night on call only if nobody calls you out.', ['contradicted']],
    // v11: contradicted ("won't do" negates what comes before it, "not enough" what comes after).
    ['both sides negate, with scopes read differently', reporting, "A text or email won't do unless you can't phone.", ['verified']],
    ['a negation dropped is still the opposite', reporting, 'A text or email is enough.', ['contradicted']],
    ['"unable" negates its verb only', incomeProtection, 'Income protection may pay 75% of your salary if you are unable to work for more than 26 weeks in a row.', ['verified']],
    ['a negation of the main clause beside it is still the opposite', incomeProtection, 'Income protection will not pay 75% of your salary if you are unable to work for more than 26 weeks in a row.', ['contradicted']],
  ])('%s', async (_case, passages, answer, expected) => {
    expect(await verdicts('What does the handbook say?', passages, answer)).toEqual(expected);
  });
});
