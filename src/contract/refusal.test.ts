import { describe, expect, it } from 'vitest';
import { GUARDRAIL_REFUSAL_SENTENCE, isRefusal, isRefusalAside, REFUSAL_SENTENCE } from './refusal.js';

describe('isRefusalAside', () => {
  it('is a pointer to someone or what the answer says of itself, not a statement of policy', () => {
    for (const clause of ['You could ask Payroll.', 'Please contact HR for details', 'The People team would know.', "that's confidential", 'I only have the current rate']) expect({ clause, aside: isRefusalAside(clause) }).toEqual({ clause, aside: true });
    for (const clause of ['Full-time staff get 25 days.', 'You need to book leave two weeks ahead.', 'HR approves exceptions.']) expect({ clause, aside: isRefusalAside(clause) }).toEqual({ clause, aside: false });
  });
});

describe('isRefusalAside in chat wording (the heuristic judge v57)', () => {
  // The first twelve were the probe the patterns were written from; the last twelve were written after
  // them and missed 5 (v56) and 2 (first draft), which two more patterns fixed. The claims must stay claims.
  const asides = [
    'If you want to understand your own 3%, your manager or the People team can go through it with you.',
    'The People team would be the best people to ask.',
    'HR should be able to point you in the right direction.',
    'If you need a definite answer, HR is the place to go.',
    'For a definite answer, check with the People team.',
    'I would recommend getting in touch with Facilities.',
    'Your best option is to email hr@harbourline.co.uk.',
    'You may want to check the intranet.',
    'If it helps, the People team handles these requests.',
    'Feel free to contact the People team for clarification.',
    'Have a word with your manager.',
    'HR can talk you through your options.',
    'Your line manager is probably the right person to ask.',
    'I would suggest contacting the People team directly.',
    'If you need this urgently, ring the Service Desk.',
    'HR will be able to confirm the details.',
    'You might like to check with your manager first.',
    'The Payroll team should be able to look into it for you.',
    'For anything about your own pay, Payroll are the people to talk to.',
    'Best to ask your manager.',
    'You could try the People team.',
    'Your manager can walk you through the process.',
    'Please reach out to HR for more details.',
    'It might be best to speak with Facilities.',
  ];
  const claims = [
    'Your manager can approve up to 5 days of special leave.',
    'The People team handles parental leave requests within 5 working days.',
    'HR will pay the allowance in your next salary.',
    'You should book leave at least 2 weeks ahead.',
    'Facilities is the team that allocates parking spaces.',
    'Your manager will respond within 5 working days.',
  ];

  it('takes a pointer after a refusal, however a chat model words it, for an aside', () => {
    expect(asides.filter((clause) => !isRefusalAside(clause))).toEqual([]);
  });

  it('keeps statements of policy that name who does what as claims', () => {
    expect(claims.filter((clause) => isRefusalAside(clause))).toEqual([]);
  });
});

describe('isRefusal', () => {
  it('knows the exact sentences, and a refusal in other words, with or without contractions', () => {
    const refusals = [
      REFUSAL_SENTENCE,
      GUARDRAIL_REFUSAL_SENTENCE,
      "I don't know.",
      'I do not know the answer to that.',
      "I couldn't find anything about parking permits.",
      'I could not locate a rule on that in what I was given.',
      "I wasn't able to find a section on sabbaticals.",
      "I didn't see any mention of a cycle allowance.",
      "I don't have any information on company cars.",
      'I have no details about the Christmas party.',
      "The handbook doesn't mention season ticket loans.",
      "The documents don't seem to cover that.",
      'The sources provided do not say who organises it.',
      "This isn't covered in the handbook.",
      'That is not mentioned anywhere in the documents.',
      'Nothing in the handbook covers pet insurance.',
      "There's no information in the documents about it.",
      "I'm not able to give out a colleague's home address.",
      "I can't share that.",
      'I am not allowed to disclose that.',
      "Sorry, there's nothing I can find on that.",
      'im not able to find that',
      // A turn to a pointer keeps it a refusal.
      "I couldn't find anything on that, but you could ask Payroll.",
      "The handbook doesn't cover it, though your manager would know.",
    ];
    for (const answer of refusals) expect({ answer, refusal: isRefusal(answer) }).toEqual({ answer, refusal: true });
  });

  it('knows refusals in chat wording (2026-12-05, the judges\' v46)', () => {
    const refusals = [
      "I can't see anything about that in the docs.",
      "The docs don't say anything about wedding leave.",
      "That's not something the handbook covers.",
      'The handbook is silent on this.',
      "I don't have that information.",
      "I don't have anything on that, sorry.",
      'No idea, sorry. Try asking the People team.',
      "Hmm, that's not in the documents I have.",
      "The handbook doesn't go into that.",
      "There isn't anything in the handbook about prayer rooms.",
      'Nothing in the docs about that, sorry.',
      "That isn't something I have information on.",
      "Can't say from what I've got here.",
      "The info I have doesn't mention it.",
      "I don't see anything on that in the handbook.",
      'Not covered, sorry.',
      "That's outside what the handbook covers.",
      "Not something I can help with, I'm afraid.",
      "I haven't got any info on that.",
      "There's no mention of that anywhere I can find.",
      "I'm not aware of any policy on that.",
      "There doesn't seem to be anything about that in the handbook.",
      "Nothing on that in the handbook, I'm afraid.",
      'The handbook has nothing on this.',
      "Doesn't look like the handbook covers that.",
      "I don't think the handbook covers that, sorry.",
      "That one's not in the handbook.",
      "I'm not finding anything on that, sorry.",
      "Hmm, I can't see that in the documents.",
      // 2026-12-05, the judges' v50.
      "I don't have access to that information.",
      "I'm sorry, but I can only answer questions based on the provided documents, and they don't mention this.",
      "There's no policy on that in the documents I was given.",
      "That information isn't available in the documents.",
      'None of the documents mention a prayer room.',
      "It's not clear from the documents.",
      "Not covered by the handbook, I'm afraid.",
    ];
    for (const answer of refusals) expect({ answer, refusal: isRefusal(answer) }).toEqual({ answer, refusal: true });
    const answers = [
      "I don't see why not, as long as your manager agrees.",
      'No, you can\'t carry over more than 5 days.',
      "That's not something you need approval for if it's under £1,000.",
      "It isn't in the handbook's list of approved devices, so no.",
      "I don't think you need approval for that, it's under £1,000.",
      "There doesn't seem to be a limit, so book what you need within your 25 days.",
      'The handbook has a section on this: you get 5 days.',
      "I'm not aware of the exact date, but payday is the 25th.",
      // 2026-12-05, the judges' v50: a bare "not covered" answers "Is it covered?"; a caveat inside an answer stays an answer.
      "It's not covered.",
      "It's not covered by the pension scheme.",
      "The documents say you get 25 days; they don't mention extra days for long service.",
      "There's no policy limit on that in the documents, so any amount is fine if approved.",
      'I can only answer from the documents: you get 25 days.',
    ];
    for (const answer of answers) expect({ answer, refusal: isRefusal(answer) }).toEqual({ answer, refusal: false });
  });

  it("knows refusals that say whose sources they are (2026-12-05, the judges' v91)", () => {
    // A third list of 32 chat refusals, written after v90; these 7 were missed before.
    const refusals = [
      "There isn't a policy on pet insurance that I can see.",
      "There's no mention of a canteen anywhere in what I have.",
      "The policies I can see don't cover that.",
      'Nothing in the documents I have covers gym membership.',
      "That isn't something the documents address.",
      'The handbook is quiet on that one.',
      'None of the policies I have say anything about that.',
    ];
    expect(refusals.filter((answer) => !isRefusal(answer))).toEqual([]);
    const answers = [
      'The documents I have say you get 25 days.',
      "There isn't a policy limit on eye tests: the company pays the full cost.",
      'The policies I can see allow up to 20 days abroad a year.',
      'Nothing in the documents I have stops you, but you need approval in advance.',
      "There's no mention of a cap, so the company pays the whole fee.",
    ];
    expect(answers.filter((answer) => isRefusal(answer))).toEqual([]);
  });

  it("knows a fourth list of chat refusals, and a permissive 'nothing stops you' stays an answer (the judges' v98)", () => {
    // 40 refusals written after v97; these 11 were missed before. "That's not covered." alone stays an answer (v50).
    const refusals = [
      "I've had a look and can't see anything about that.",
      'Nothing comes up for that in the handbook.',
      "That doesn't seem to be covered anywhere.",
      "I don't think that's covered, sorry.",
      "No details on that in what I've been given.",
      "Sorry, that's outside what I can answer from the handbook.",
      "It doesn't say in the handbook.",
      "I don't see a policy for that.",
      'No policy on that that I could find.',
      "That isn't in anything I've got.",
      "There aren't any rules about that in the handbook.",
    ];
    expect(refusals.filter((answer) => !isRefusal(answer))).toEqual([]);
    const answers = [
      "There's nothing in the handbook that stops you, as long as your manager agrees.",
      "That's not covered.",
      "There aren't any rules about dress: wear what suits your day.",
      "I don't think that's covered by the pension scheme, so no.",
      "It doesn't say you need approval for courses under £1,000, so you can book it.",
    ];
    expect(answers.filter((answer) => isRefusal(answer))).toEqual([]);
  });

  it("knows a fifth list of refusals and pointers, and answers worded alike stay answers (the judges' v104)", () => {
    // Refusals and pointers written with v104's rules, in other words than the label files' (all but two of
    // the refusals and all but one of the pointers were missed before).
    const refusals = [
      "I don't have the expenses limits for that kind of trip.",
      "Sorry, I don't have the travel insurance details to hand.",
      "I don't seem to have anything about sabbaticals.",
      "I've got nothing on that one, I'm afraid.",
      "Nothing about car parking in what I've got.",
      'Nothing on sabbaticals in the handbook, sorry.',
      "I can't find the policy on sabbaticals.",
      "I can't look up another employee's salary.",
      "I'm not able to access colleagues' sickness records.",
      "I can't check his holiday balance for you.",
      "Sorry, can't help on that one.",
      "I'm not sure the handbook covers secondments at all.",
      "Sabbaticals don't come up anywhere in the handbook.",
      "Bike storage doesn't appear in the documents I've got.",
      "The handbook sections I have don't cover parking.",
      'Nothing in the handbook I have says how to book a locker.',
      "That isn't something the handbook seems to cover.",
      "That's not something I can look up or share.",
      "Locker rules aren't in anything I can see.",
      "I can't really comment on that.",
    ];
    expect(refusals.filter((answer) => !isRefusal(answer))).toEqual([]);
    const answers = [
      "I don't have to tell you the rules, they're on the intranet: 25 days a year.",
      "Nothing in the handbook says you can't work from a café, as long as the connection is secure.",
      "I don't have a problem with that: you can carry over 5 days.",
      "Can't claim for that, sorry: alcohol is never reimbursed.",
      "I'm not sure why you'd need to, but yes, you can take unpaid leave.",
      'The handbook sections on leave say you get 25 days.',
      "I don't have to process the claim myself: Payroll pays it with your salary.",
    ];
    expect(answers.filter((answer) => isRefusal(answer))).toEqual([]);
    const pointers = [
      'Payroll (payroll@harbourline.co.uk) can tell you.',
      'The Service Desk should be able to check it for you.',
      'Your manager will know.',
      'HR can get in touch with her on your behalf.',
      'Salaries are confidential.',
      'The People team deals with secondments.',
      "You'd need to ask Facilities.",
      'Maybe mention it to your line manager.',
    ];
    expect(pointers.filter((clause) => !isRefusalAside(clause))).toEqual([]);
    const statements = ['Payroll can pay you the overtime in the next salary run.', 'Your manager will approve it within 5 days.', 'The People team handles the first 3 days of an absence differently.'];
    expect(statements.filter((clause) => isRefusalAside(clause))).toEqual([]);
  });

  it("after a refusal, reads pointers in more chat wordings as asides (the judges' v99)", () => {
    // 30 pointers written after v98; these 5 were missed before (4 of them made a right refusal `hallucinated`).
    const pointers = ['Might be worth dropping HR a line.', 'Give the Service Desk a shout.', 'HR are best placed to answer that.', "That's one for the People team.", 'Probably one for your manager.'];
    expect(pointers.filter((clause) => !isRefusalAside(clause))).toEqual([]);
    for (const clause of ['One for each year of service.', 'HR are placed on the second floor.', 'Give your manager 2 weeks notice.']) expect({ clause, aside: isRefusalAside(clause) }).toEqual({ clause, aside: false });
  });

  it('after a refusal, reads more pointers to someone as asides (2026-12-05)', () => {
    for (const clause of ['maybe ask the People team', 'It might be worth checking with Facilities.', 'Best bet is to drop the People team an email.', "I'd ask the office manager.", 'HR would be the people to ask.', 'Worth asking Payroll.', 'If it matters, raise it with your manager.', 'Probably best to check with HR directly.', 'You could try the intranet.']) {
      expect({ clause, aside: isRefusalAside(clause) }).toEqual({ clause, aside: true });
    }
    for (const clause of ['You need to book it as annual leave.', 'HR approves it within 5 days.']) expect({ clause, aside: isRefusalAside(clause) }).toEqual({ clause, aside: false });
  });

  it('does not take an answer for a refusal, even one worded like one', () => {
    const answers = [
      'Full-time staff get 25 days of annual leave a year.',
      'Contractors are not covered by the pension scheme.',
      'The policy does not cover contractors.',
      "Nothing in the handbook says you can't, but you need your manager's approval first.",
      'You can ask Payroll for a copy of your payslip.',
      'The mileage rate is 45p per mile for the first 10,000 miles.',
      'There is no limit on how many days you can carry over in 2026.',
      'There is no policy cap on the number of training days.',
      '',
    ];
    for (const answer of answers) expect({ answer, refusal: isRefusal(answer) }).toEqual({ answer, refusal: false });
  });

  it('reads only short answers as refusals by paraphrase: a long answer with a caveat is an answer', () => {
    const long = `I couldn't find the exact form name, but ${'the policy explains each step of the process in detail and '.repeat(6)}that is all.`;
    expect(long.split(' ').length).toBeGreaterThan(45);
    expect(isRefusal(long)).toBe(false);
  });
});
