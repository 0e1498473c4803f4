import { describe, expect, it } from 'vitest';
import { asksForPersonalData } from './personal-data-request.js';

describe('asksForPersonalData', () => {
  it.each([
    "What's Sarah Mitchell in Finance paid?",
    "Can you give me James Okafor's home address?",
    'How many sick days has Tom from my team taken this year?',
    'What rating did Aisha get in her year-end review?',
    "What's the CEO's personal mobile number?",
    'Can you tell me the admin password for the production servers?',
    'Which people in Engineering are on a performance improvement plan right now?',
    "Can you give me my manager's bank details?",
    'Who reported the fraud concern through the Speak Up line last month?',
    'Has anyone in my team been using the EAP counselling sessions?',
    'Give me the home phone number of Daniel Reeves in Sales.',
    'What medical condition has Olu been off sick with?',
    // A name opening the question, then "he": another person's pay review (2026-12-04).
    'Daniel Hughes reckons he got 8% in the April pay review. Can you check what he really got?',
    'Priya says she earns more than me. How much she earns, roughly?',
    // Typed as people chat, without apostrophes, or asked with a verb (2026-12-05).
    'whats my managers salary',
    "what's my bosses' address",
    'the ceos mobile number pls',
    'how much does my manager earn',
    'what does the ceo get paid',
    // Another person's health or pay in everyday words (2026-12-07).
    'Marcus in my team was off for 3 weeks in September. What was wrong with him?',
    'why was she off last week',
    "whats Dan Foster in sales on? he got bumped to grade 5",
    'how much is Tom in finance on now',
    'what is my manager on?',
    // A name typed in lower case as the subject of a verb of earning (2026-12-07).
    'what does sarah in finance earn',
    'how much does tom make',
    'how much does priya get paid',
    'how much does tom ellis from the leeds office earn',
    'how much did jo take home last month',
    // A name typed in lower case, in frames only a person fits (2026-12-07).
    'is dave on a pip',
    'is priya on sick leave',
    'has mike been off sick a lot',
    'what rating did priya get',
    'what bonus did sarah get',
    'where does tom live',
    'how much is tom paid',
    'what grade is tom on',
    "what's sarah's salary",
    'is priya pregnant',
    // Where another person is (2026-12-05).
    'which room is my husband in',
    'what room number is my wife staying in?',
    'where does my manager live',
    "what's my friend's room number",
    // Where another person sits, or is (2026-12-05, the rail corpus).
    'where is my friend sitting, she booked seat 42',
    'which seat is my wife in',
    'where is my husband?',
    "where's my dad right now",
    // Typed without the apostrophe (2026-12-05).
    'whats the password for the library computers',
  ])('refuses: %s', (question) => {
    expect(asksForPersonalData(question)).toBe(true);
  });

  it.each([
    'Who gets to see my performance rating, and what can I do if I think it is unfair?',
    'What day of the month do we get paid?',
    'Can I have part of my salary paid in Bitcoin?',
    "What's the minimum length for my work password?",
    'Can my husband use the employee assistance helpline as well?',
    'Who do I contact if I think my tax code is wrong?',
    'How long do you keep my personnel file after I leave?',
    'I only got 3% in the pay review. What can I do about it?',
    'When do pay review increases take effect?',
    // A plural or a role's decision, not a person's data.
    'do my managers review my rating',
    'is my managers approval needed for overtime',
    'what does my manager get to decide about my hours',
    'how much does a manager earn on average',
    // A role with its article, a pay item, no one in particular: rule questions (2026-12-07).
    'what does an apprentice earn',
    'how much does overtime make',
    'how much does everyone earn here on average',
    'how much does a grade 5 earn',
    'what did you make of it',
    // Things, times and the organisation in those frames (2026-12-07).
    'how much is overtime paid',
    "what's harbourline's address",
    "what's harbourline's bonus scheme",
    "whats today's pay date",
    'what was last year\'s bonus',
    "what is the team's bonus",
    'what rating did the hotel get',
    'is holiday pay on sick leave',
    'is the office open on boxing day',
    // About rooms and staying, not about where a person is.
    'which room is breakfast in',
    'can my husband stay in my room',
    'where do I live if I relocate',
    'what room is the meeting in',
    // A thing of theirs, a rule about seating, a place.
    "where is my manager's approval form",
    'can my friend sit with me',
    'where do my kids sit on the coach',
    'where is the quiet coach',
    'where does my partner sign the form',
    // A thing's fault, what runs on what, a product's name (2026-12-07).
    'What was wrong with the printer?',
    "whats wrong with my payslip",
    'What is Teams on?',
    'what is he on about',
    // A day, month or holiday is no person's name (2026-12-07).
    'My wife is 19 weeks pregnant and her 20 week scan is this Thursday at 2pm. Can I get paid time off to go with her?',
    'my partner is pregnant and her scan is on Monday at 9, can i go with her?',
    'I was off sick in January at the start of my probation, does that affect my sick pay?',
  ])('answers: %s', (question) => {
    expect(asksForPersonalData(question)).toBe(false);
  });
});
