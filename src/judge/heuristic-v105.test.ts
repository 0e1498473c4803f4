import { describe, expect, it } from 'vitest';
import { expandCasual } from '../text/casual.js';
import { claimVerdicts, sectionEvidence } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v105: an answer typed in lower case is split into its sentences; "one" standing for a
// thing already named; "must not exceed X" as an upper bound; "decline to" as a negation; clipped
// words ("comms", "quid"). The examples are written for these tests, not taken from the label files.
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v105', () => {
  it('splits an answer typed in lower case at its full stops, as it splits one typed with capitals', () => {
    expect(splitAnswer('the badge costs £10 to replace. and no, you cant share it with a visitor').claims).toEqual([
      'the badge costs £10 to replace.',
      "and no, you cant share it with a visitor",
    ]);
    // Not after an abbreviation.
    expect(splitAnswer('book it through the travel desk, e.g. for trains and hotels').claims).toEqual(['book it through the travel desk, e.g. for trains and hotels']);
  });

  const badges = sectionEvidence(
    'facilities#badges',
    'Building Badges',
    'A replacement badge costs £10. If your badge breaks, Reception will give you a new badge. Visitors must never use an employee badge.',
  );

  it('judges each lower-case sentence against its own sentence of the evidence', async () => {
    const answer = 'a replacement badge costs £10. if your badge breaks, reception will give you a new badge';
    expect(await claimVerdicts(judge, 'i lost my badge, what now?', badges, answer)).toEqual(['verified', 'verified']);
  });

  it('"a new one" stands for the thing named before it, no figure to find', async () => {
    expect(await claimVerdicts(judge, 'My badge broke. What do I do?', badges, 'Reception will give you a new one.')).toEqual(['verified']);
    // A count stays a figure to find: "only one" is not the pronoun.
    expect(await claimVerdicts(judge, 'My badge broke. What do I do?', badges, 'Reception will give you only one.')).not.toEqual(['verified']);
  });

  const meals = sectionEvidence('expenses#meals', 'Meals', 'When travelling on business, the cost of a single meal must not exceed £40, including drinks and service.');

  it('"must not exceed £40" is an upper bound: a claim of the £40 limit is verified, a £60 one contradicted', async () => {
    expect(await claimVerdicts(judge, 'How much can I spend on a meal when travelling?', meals, 'You can spend up to £40 on a single meal, including drinks and service.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How much can I spend on a meal when travelling?', meals, 'You can spend up to £60 on a single meal, including drinks and service.')).toEqual(['contradicted']);
  });

  const references = sectionEvidence(
    'people#references',
    'References',
    'If a recruiter asks about a former colleague, decline to give a reference and pass the request to the People team.',
  );

  it('"decline to give a reference" says what "don\'t give a reference" says', async () => {
    const question = 'A recruiter rang about my old teammate. Can I give a reference?';
    expect(await claimVerdicts(judge, question, references, "Don't give a reference yourself; pass the request to the People team.")).toEqual(['verified', 'verified']);
    expect(await claimVerdicts(judge, question, references, 'Give a reference yourself and pass the request to the People team.')).toContain('contradicted');
  });

  it('reads clipped words as the words they stand for', async () => {
    expect(expandCasual('the comms team sends 40 quid')).toBe('the communications team sends 40 pounds');
    const press = sectionEvidence('media#press', 'Press', 'The Communications team approves every press release before it is sent.');
    expect(await claimVerdicts(judge, 'who signs off press releases?', press, 'the comms team approves every press release before it goes out.')).toEqual(['verified']);
  });
});
