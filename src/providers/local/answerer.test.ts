import { describe, expect, it } from 'vitest';
import { answererChunk as chunk, offlineAnswer as answer } from '../../test-support/answerer.js';
import { GUARDRAIL_REFUSAL_SENTENCE, REFUSAL_SENTENCE } from '../../contract/refusal.js';
import { createHeuristicFaithfulnessJudge, evidenceFromTrace, judgeTrace } from '../../judge/index.js';
import { createRagPipeline } from '../../rag/pipeline.js';
import { buildMessages } from '../../rag/prompt.js';
import { handbookIndex } from '../../test-support/fixtures.js';
import { createLocalChatModel } from './generator.js';
import { createMemoryChatModel } from './memory-model.js';

describe('offline answerer (local-extractive-v36)', () => {
  it('the bitcoin question is refused: "bitcoin" occurs nowhere in the handbook, so the gate refuses before the model', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const trace = await pipeline.ask('Can I get paid in bitcoin?');
    expect(trace).toMatchObject({ answer: REFUSAL_SENTENCE, refused: true, refusalReason: 'gate', chunks: [] });
    expect(trace.retrieval).toMatchObject({ gated: true, gateReason: 'coverage', termCoverage: { uncoveredTerms: ['bitcoin'] } });
    expect(trace.answer).not.toMatch(/antenatal/i);
  });

  it('"three" matches "3": a number written in words picks the sentence with the same figure', async () => {
    const sickPay = chunk('sick#pay', 'Sickness Absence', 'Company Sick Pay',
      'Employees with 5 years of service receive 13 weeks of full sick pay.\n\nEmployees with 3 years of service receive 8 weeks of full sick pay.');
    const text = await answer('I have three years of service. How many weeks of full sick pay do I get?', [sickPay]);
    expect(text).toContain('Employees with 3 years of service receive 8 weeks of full sick pay.');
    expect(text).not.toContain('13 weeks');
  });

  it('specifics people add do not cause refusals: an amount, a date and a country', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const life = await pipeline.ask('My salary is £29,250. How much life cover would I have?');
    expect(life.answer).toContain('4 times your basic salary');
    const born = await pipeline.ask('My daughter was born on 28 December 2025. How much full-pay parental leave do I get?');
    expect(born.answer).toContain('16 weeks at full pay');
    const abroad = await pipeline.ask("I'd like to work remotely from Portugal for five weeks this summer. Is that allowed?");
    expect(abroad.refused).toBe(false);
    expect(abroad.answer).toContain('20 working days');
  });

  it('an amount in the question meets the condition it falls under ("£2,500" → "£1,000 or more")', async () => {
    const training = [
      chunk('t#under', 'Training', 'Training Under £1,000', 'If a course costs less than £1,000 in total, you do not need your manager\'s approval.'),
      chunk('t#over', 'Training', 'Training Costing £1,000 or More', 'Training that costs £1,000 or more in total needs written approval from your manager before you book it.'),
    ];
    const text = await answer('Do I need my manager to approve a £2,500 course?', training);
    expect(text).toContain('needs written approval');
  });

  it('a bullet list survives in an answer: the sentence that introduces it and every item, one per line', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel(), outdatedNote: false });
    const trace = await pipeline.ask('Which e-learning modules must new starters complete in their first 30 days?');
    expect(trace.answer).toContain(
      'You must complete the following e-learning modules on MyHarbour Learning within your first 30 days:\n' +
        '- Information Security Essentials\n- Data Protection Basics\n- Code of Conduct\n' +
        '- Health and Safety Induction, including a display screen equipment (DSE) self-assessment',
    );
    // The list's claims are checkable quotes: the offline judge verifies every one.
    const judgment = await judgeTrace(createHeuristicFaithfulnessJudge(), trace);
    if (judgment.status !== 'ok') throw new Error(judgment.error);
    expect(judgment.counts).toMatchObject({ contradicted: 0, absent: 0 });
  });

  it('a guardrail question is refused with the guardrail reason, not "not covered"', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    for (const question of ["What's Sarah Mitchell in Finance paid?", "Can you give me my manager's bank details?", 'Who reported the fraud concern through the Speak Up line?', 'how much does tom in marketing make']) {
      const trace = await pipeline.ask(question);
      expect(trace.answer, question).toBe(GUARDRAIL_REFUSAL_SENTENCE);
      expect(trace.refused).toBe(true);
    }
    // The asker's own data and the rules about it are answered.
    expect((await pipeline.ask('Who gets to see my performance rating?')).refused).toBe(false);
  });

  it('reads no phrase across a comma: "my nan died, how much time off do i get" is answered (2026-12-07)', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel(), outdatedNote: false });
    const trace = await pipeline.ask('my nan died, how much time off do i get');
    expect(trace.refused).toBe(false);
    expect(trace.answer).toMatch(/up to 5 days of paid compassionate leave/);
  });

  it('a "how much per mile" question is answered by the rate per mile, not a sentence about long journeys (2026-12-07)', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel(), outdatedNote: false });
    const trace = await pipeline.ask('How much can I claim per mile for my car?');
    expect(trace.answer).toMatch(/Rate per business mile: 45p/);
  });

  it('quotes no sentence from a document unrelated to the question', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel(), outdatedNote: false });
    const trace = await pipeline.ask('How many hours of TOIL can I build up at most?');
    expect(trace.answer).toContain('22.5 hours');
    expect(trace.answer).not.toContain('Gifts and Hospitality');
  });
});

describe('offline answerer: choosing among close sentences', () => {
  it('answers from the sentence that holds the question’s word pairs side by side, whatever the retrieval order', async () => {
    // Stemming makes "parental" and "parent" one word, so the first sentences of the shared,
    // partner and parental leave sections all hold every question word; retrieval ranks shared
    // parental leave first. "20 weeks of parental leave" holds "parental leave" and "birth parent".
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const trace = await pipeline.ask('How many weeks of parental leave does a birth parent get?');
    expect(trace.chunks.findIndex((chunk) => chunk.chunkId === 'leave-policy#parental-leave')).toBeGreaterThan(0);
    expect(trace.answer).toMatch(/^From 1 January 2026, a birth parent or primary adopter \(the primary carer\) is entitled to 20 weeks of parental leave at full pay/);
    expect(trace.answer).not.toContain('share up to 50 weeks');
  });
});

describe('offline answerer: a question whose topic is one phrase', () => {
  it('refuses when the documents hold the phrase\'s words only apart, for other things', async () => {
    // "free" and "lunch" are both in the sentence, about a course library and a lunch-and-learn.
    const learning = chunk('training#internal', 'Training', 'Internal Learning',
      'Teams run lunch-and-learn sessions, and all employees have free access to the online course library.');
    expect(await answer('Is there a free lunch?', [learning])).toBe(REFUSAL_SENTENCE);
    // "advance" and "salary" in two sentences: overtime approved in advance, a rate from the salary.
    const overtime = chunk('hours#overtime', 'Working Hours', 'Paid Overtime',
      'Overtime is paid only when your manager has approved it in advance.\n\nYour hourly rate is your annual salary divided by 1,950.');
    expect(await answer('Could I have an advance on my salary?', [overtime])).toBe(REFUSAL_SENTENCE);
  });

  it('answers when a sentence or a table row holds the words together', async () => {
    const advances = chunk('pay#advances', 'Pay', 'Salary Advances', 'A salary advance of up to half a month\'s pay can be agreed with Payroll.');
    expect(await answer('Could I have an advance on my salary?', [advances])).toContain('salary advance of up to half');
    const onCall = chunk('hours#on-call', 'Working Hours', 'On-call Allowance',
      '| On-call period | Allowance |\n| --- | --- |\n| Weekday night | £30 |\n| Weekend day or bank holiday (24 hours) | £80 |');
    expect(await answer('Is the weekend on-call allowance £80?', [onCall])).toContain('Allowance: £80');
  });

  it('a subject and what is said of it ("my laptop was stolen") are no phrase', async () => {
    // Before, "laptop … stolen" was read as a phrase whose words the sentence holds apart: refused (2026-12-05).
    const devices = chunk('it#lost-devices', 'IT and Security', 'Lost or Stolen Devices',
      'If a company laptop or phone, or a personal phone with company apps, is lost or stolen, report it to the IT Service Desk immediately.');
    expect(await answer('my laptop was stolen', [devices])).toContain('report it to the IT Service Desk');
    // A last word that cannot name a thing ("expires": a verb only) makes no phrase (local-extractive-v18).
    const passwords = chunk('it#password-changes', 'IT and Security', 'Password Changes', 'Passwords for standard user accounts do not expire on a fixed schedule.');
    expect(await answer('how long before my password expires', [passwords])).toContain('do not expire on a fixed schedule');
    // Without the verb "to be" between them, the words are still read as one phrase.
    expect(await answer('Is there a free lunch?', [chunk('training#internal', 'Training', 'Internal Learning', 'Teams run lunch-and-learn sessions, and all employees have free access to the online course library.')])).toBe(REFUSAL_SENTENCE);
  });

  it('a figure between the words does not part them ("need a £1 coin")', async () => {
    // Before, the £1 counted as a word between "lockers" and "coin": four apart, refused (local-extractive-v18).
    const lockers = chunk('club#lockers', 'Club Rules', 'Lockers and Towels', 'Day lockers are free and need a £1 coin, which is returned.');
    expect(await answer('do i need a coin for the lockers', [lockers])).toContain('need a £1 coin');
  });

  it('"what time" asks for a time: "3 times" in another document is no match for it (local-extractive-v18)', async () => {
    // Before, "time" weighed as a rare topic word, and the library's "up to 3 times" outranked the bins' "by 7am".
    const bins = chunk('bins#collection-days', 'Bins and Recycling', 'Collection Days', 'General waste is collected every two weeks. Put your bin out by 7am on collection day, with the lid closed.');
    const library = chunk('libraries#borrowing', 'Libraries', 'Borrowing', 'You can borrow up to 15 items for 3 weeks. Renew online or by phone up to 3 times, unless someone else has reserved the item.');
    const garden = chunk('bins#garden-waste', 'Bins and Recycling', 'Garden Waste', 'Garden waste (green bin) is collected fortnightly from March to November. It is an opt-in service costing £48 a year per bin.');
    const replacement = chunk('bins#replacement-bins', 'Bins and Recycling', 'Replacement Bins', 'A replacement for a lost, stolen or damaged bin costs £25, including delivery.');
    const permits = chunk('parking#visitor-permits', 'Parking', 'Visitor Permits', 'Residents can buy books of 10 visitor permits for £15. Each permit is valid for one day.');
    expect(await answer('what time do i need to put the bins out', [bins, garden, replacement, library, permits])).toContain('Put your bin out by 7am');
  });

  it('answers when the heading holds the words together, the sentences apart', async () => {
    const cycling = chunk('benefits#cycle', 'Benefits', 'Cycle to Work Scheme',
      'Once you have passed probation, you can get a bicycle worth up to £1,000 through salary sacrifice, with the cost spread over 12 monthly deductions from your pay under this scheme.');
    expect(await answer('Is there a cycle scheme?', [cycling])).toContain('you can get a bicycle worth up to £1,000');
  });

  it('through the pipeline: the handbook\'s lunch-and-learn and overtime sentences do not answer a free lunch or a salary advance', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    for (const question of ['Is there a free lunch?', 'Could I have an advance on my salary?']) {
      const trace = await pipeline.ask(question);
      expect(trace, question).toMatchObject({ answer: REFUSAL_SENTENCE, refused: true, refusalReason: 'model' });
    }
    // Words together in the handbook still answer: core hours.
    expect((await pipeline.ask('What are the core hours?')).answer).toContain('Core hours are 10:00 to 16:00');
  });
});

describe('offline answerer: a sibling of what is asked', () => {
  it('refuses an answer that names the question\'s three words with another middle word', async () => {
    const insurance = chunk('benefits#medical', 'Benefits', 'Insurance', 'Private medical insurance is available from your first day of employment.');
    expect(await answer('Is there private dental insurance for staff?', [insurance])).toBe(REFUSAL_SENTENCE);
    expect(await answer('When does private medical insurance start?', [insurance])).toContain('Private medical insurance is available');
  });

  it('through the pipeline: the handbook\'s private medical insurance does not answer private dental insurance', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const trace = await pipeline.ask('Does the company pay for private dental insurance?');
    expect(trace).toMatchObject({ answer: REFUSAL_SENTENCE, refused: true, refusalReason: 'model' });
    const medical = await pipeline.ask('Is private medical insurance available from my first day?');
    expect(medical.refused).toBe(false);
    expect(medical.answer).toMatch(/^Private medical insurance/);
  });
});

describe('offline answerer: words the documents write differently (local-extractive-v13)', () => {
  it('a closed compound the documents write apart ("payday": "pay day") is found, not a missing topic word', async () => {
    // Before: "payday" was a topic word no sentence held, weighed as the rarest word: the answerer refused.
    const payDay = chunk('pay#pay-day', 'Pay and Payroll', 'Pay Day', 'Salaries are paid monthly, on the 25th of each month. In December, pay day is brought forward to 19 December.');
    const text = await answer("when's payday", [payDay]);
    expect(text).toContain('on the 25th of each month');
  });

  it('a phrasal verb the documents write as one word ("broke down": "breakdown", local-extractive-v18) is found, not a missing topic word', async () => {
    const breakdowns = chunk('road#breakdowns', 'On the road', 'Breakdowns and accidents', 'All rentals include 24-hour breakdown cover. Do not admit liability.');
    expect(await answer('the car broke down what do i do', [breakdowns])).toContain('24-hour breakdown cover');
  });

  it('a verb after the question\'s subject that no sentence holds ("does breakfast finish") does not make it refuse', async () => {
    const breakfast = chunk('facilities#breakfast', 'Facilities', 'Breakfast', 'Breakfast is served from 7am to 10:30am on weekdays and from 8am to 11am at weekends.');
    expect(await answer('what time does breakfast finish on a saturday', [breakfast])).toContain('8am to 11am at weekends');
    // A noun of the asking clause that no sentence holds still does: the documents may not cover it.
    expect(await answer('what time does the bar close', [breakfast])).toBe(REFUSAL_SENTENCE);
  });
});

describe('closed-book memory model (a simulation)', () => {
  it('says 16 weeks from its 2024 memory, and the judge contradicts it against the current corpus', async () => {
    const index = await handbookIndex();
    const pipeline = createRagPipeline({ index, chat: createMemoryChatModel({ grounded: createLocalChatModel() }) });
    const question = 'How many weeks of full pay do I get on parental leave?';
    const [rag, norag] = await Promise.all([pipeline.ask(question), pipeline.ask(question, { mode: 'norag' })]);
    expect(norag.models.chat).toBe('local:local-memory-2024');
    expect(norag.answer).toContain('16 weeks of parental leave at full pay');
    expect(norag.answer).not.toMatch(/\(.*updated/); // a closed-book answer cites nothing
    const judgment = await createHeuristicFaithfulnessJudge().judge({ question, evidence: evidenceFromTrace(rag), answer: norag.answer });
    if (judgment.status !== 'ok') throw new Error(judgment.error);
    const claim = judgment.claims.find((entry) => entry.text.includes('16 weeks'));
    expect(claim).toMatchObject({ verdict: 'contradicted', evidenceChunkId: 'leave-policy#parental-leave' });
    expect(claim!.note).toContain('20 weeks');
    expect(judgment.hallucinated).toBe(true);
  });

  it('refuses what its memory does not cover, and answers documents prompts with the grounded model', async () => {
    const model = createMemoryChatModel({ grounded: createLocalChatModel() });
    const closed = await model.generate({ messages: buildMessages('Does the company offer pet insurance for dogs?', [], 'norag') });
    expect(closed.text).toBe(REFUSAL_SENTENCE);
    const parental = chunk('leave-policy#parental-leave', 'Leave Policy', 'Parental Leave', 'A birth parent is entitled to 20 weeks of parental leave at full pay.');
    const grounded = await model.generate({ messages: buildMessages('How many weeks of parental leave at full pay?', [parental], 'rag') });
    expect(grounded.text).toContain('20 weeks');
  });
});

describe('offline answerer with a sentence encoder (opt-in)', () => {
  it("adds each sentence's similarity to the question to its score", async () => {
    const leave = chunk('leave#annual', 'Leave Policy', 'Annual Leave', 'Full-time employees receive 25 days of annual leave each year.\n\nThe leave year runs from 1 January to 31 December.');
    const question = 'How many days of holiday do I get?';
    expect(await answer(question, [leave])).toBe('Full-time employees receive 25 days of annual leave each year. (Leave Policy, updated 2026-01-12)');
    // A stand-in encoder that finds only the second sentence close in meaning: it wins instead.
    const encoder = { similarities: async (_query: string, texts: readonly string[]) => texts.map((text) => (text.startsWith('The leave year') ? 1 : 0)) };
    const text = (await createLocalChatModel({ encoder, meaningWeight: 2 }).generate({ messages: buildMessages(question, [leave], 'rag') })).text;
    expect(text).toBe('The leave year runs from 1 January to 31 December. (Leave Policy, updated 2026-01-12)');
  });
});
