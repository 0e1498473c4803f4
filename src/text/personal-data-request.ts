import { expandCasual } from './casual.js';

/**
 * Does a question ask for someone else's personal or confidential data? (Text only: the offline
 * answerer and the heuristic judge both read it.) The offline answerer
 * refuses those with the guardrail sentence its prompt names (a refusal with its reason), not
 * with "not covered": a handbook covers pay confidentiality, so the documents do hold something
 * relevant, and quoting them would be answering a question that must not be answered.
 *
 * The rule reads the question only: a request for a data item about a person other than the
 * asker (a name, "my manager's", "the CEO's", "Tom from my team", "which of my colleagues", "who
 * reported …"), or for a credential's value ("what's the password for …"). Questions about the
 * asker's own data ("my salary", "my performance rating") and about rules ("who can see my
 * rating?") are not requests for someone else's data.
 */

/** Data about a person that a colleague must not be given. */
const PERSONAL_DATA =
  /\b(?:salary|salaries|paid|earns?|earning|pay ?(?:rise|grade|band|review)|bonus|home address|address|(?:personal |home |mobile |phone )?(?:phone|mobile|telephone) number|number|mobile|bank (?:account )?details|bank account|account details|sort code|sick days|sickness|off sick|medical|health|condition|diagnosis|rating|rated|review (?:score|result)|disciplinary|warning|performance improvement plan|pip|pregnant|pregnancy|counselling|date of birth|birthday|age|national insurance|ni number|passport|emergency contact|personnel file|records?)\b/i;

/** One person named by their role (a regular expression's source). */
const ROLES = '(?:manager|boss|colleague|colleagues|co-?worker|team ?mate|teammate|ceo|cfo|director|supervisor|line manager|report|direct report|predecessor|successor)';

/**
 * Capitalized words that name no one (a regular expression's source): the asker, acronyms, and the
 * days, months and holidays ("her scan is this Thursday at 2pm", 2026-12-07). Written out rather
 * than read from `DATE_WORDS`, whose short forms are also names ("Jan", "Jun").
 */
const NOT_A_NAME =
  "(?!(?:I|I'm|I've|I'd|HR|IT|UK|EAP|CEO|CFO|MFA|DSE|VAT|GP|PIP|TOIL|USB|MBA|P45|P60|P11D|" +
  'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Christmas|Easter|New Year)\\b)';
/** A name (a regular expression's source): a capitalized word that is not one of {@link NOT_A_NAME}; case-sensitive on purpose. */
const NAME = `${NOT_A_NAME}\\p{Lu}\\p{Ll}+`;

/** A person other than the asker: a name, a role's or colleague's possessive, a colleague picked out. */
const OTHER_PERSON = [
  // "Sarah Mitchell", "Aisha", "Tom from my team", "James Okafor's" — a name that does not start the question.
  new RegExp(`(?<!^)(?<![.?!]\\s)\\b${NAME}(?:\\s\\p{Lu}\\p{Ll}+)?(?:['’]s)?(?=\\s+(?:in|from|on|at|get|got|paid|earn|earns|been|has|taken|had)\\b|['’]s\\b|\\s+\\w+\\s+(?:review|rating|salary|number|address|details)\\b)`, 'u'),
  new RegExp(`\\b(?:my|our|the|a|his|her|their)\\s+${ROLES}['’]s\\b`, 'i'),
  /\b(?:of|about|for)\s+(?:my|our|the)\s+(?:manager|boss|colleague|ceo|cfo|director|supervisor|line manager)\b/i,
  /\bwhich\s+(?:of\s+(?:my|our|the)\s+)?(?:people|colleagues|employees|staff|members|engineers|managers|team members|ones)\b/i,
  /\b(?:has|have|is|are|did)\s+(?:anyone|anybody|someone|somebody|any of (?:my|our|the) \w+)\b/i,
  /\b(?:his|her|him|their)\b.*\b(?:salary|address|number|details|rating|records?)\b/i,
  // "Can you check what he really got?", "how much she earns": another person's pay, told by a pronoun.
  /\b(?:what|how much)\s+(?:he|she)\s+(?:\w+\s+)?(?:got|gets|earns|earned|makes|made|was paid|is paid|was given)\b/i,
  // Typed without the apostrophe, as people chat: "whats my managers salary", "the ceos mobile number" (2026-12-05).
  new RegExp(`\\b(?:my|our|the|his|her|their)\\s+${ROLES}(?:e?s|e?s['’]|['’]s)\\s+(?:salary|salaries|pay|bonus|address|home address|(?:personal |home |mobile |phone )?(?:phone|mobile|telephone) number|number|mobile|bank details|rating|records?|sick days|medical|health|date of birth|birthday|age)\\b`, 'i'),
  // "how much does my manager earn", "what does the ceo get paid": a person's pay asked with a verb (2026-12-05).
  new RegExp(`\\b(?:what|how much)\\s+(?:does|did|do|is|was)\\s+(?:my|our|the)\\s+${ROLES}\\s+(?:earn|earns|get paid|gets paid|paid)\\b`, 'i'),
];

/** People close to the asker, named by how they are related ("my husband", "our daughter"). */
const RELATIONS = '(?:husband|wife|partner|spouse|son|daughter|child|kid|mum|mom|dad|mother|father|parents?|brother|sister|boyfriend|girlfriend|friend|ex|neighbour|neighbor|flatmate|housemate)';

/**
 * Asking where another person is: which room they are in or staying in, where they live or are
 * staying ("which room is my husband in", "what room is my manager staying in", "where does my
 * colleague live"), for a relative, a friend or a colleague (2026-12-05). Where someone is, is
 * theirs to tell; a guest list or an address book is no document a chatbot answers from.
 */
const WHEREABOUTS = new RegExp(
  [
    `\\b(?:which|what)\\s+(?:room|seat|carriage|coach|cabin|table|desk|bed|ward)(?:\\s+number)?\\s+(?:is|are|was|were)\\s+(?:my|our|the|his|her|their)\\s+(?:${RELATIONS}|${ROLES})\\b`,
    `\\bwhere\\s+(?:does|do|did|is|are|was|were)\\s+(?:my|our|the|his|her|their)\\s+(?:${RELATIONS}|${ROLES})\\s+(?:live|lives|living|stay|staying|sleeping|sit|sitting|seated|work|working|parked)\\b`,
    // "where is my friend?", "where's my husband right now": the person, not a thing of theirs (2026-12-05).
    `\\bwhere(?:\\s+(?:is|are|was|were)|['’]s)\\s+(?:my|our|his|her|their)\\s+(?:${RELATIONS}|${ROLES})\\s*(?:[?.!,]|$|\\s+(?:now|right now|at the moment|today|tonight)\\b)`,
    `\\b(?:my|our|the|his|her|their)\\s+(?:${RELATIONS}|${ROLES})(?:e?s|['’]s)\\s+(?:room|seat|cabin|table|desk)\\s+number\\b`,
  ].join('|'),
  'i',
);

/** A team or place after a name (a regular expression's source): "in sales", "from the Leeds office". */
const TEAM = '\\s+(?:in|from)\\s+(?:the\\s+)?\\p{L}+';

/** A person other than the asker by pronoun, role or name (a regular expression's source): "him", "my manager", "Marcus", "Dan Foster in sales". */
const SOMEONE = `(?:him|her|them|he|she|my\\s+${ROLES}|${NAME}(?:\\s${NAME})?(?:${TEAM})?)`;

/**
 * Whose pay "what's … on?" asks (a regular expression's source): a pronoun, a role, a full name, or
 * a name with its team ("Dan Foster", "Dan in sales"); one capitalized word alone may be a product
 * ("What is Teams on?").
 */
const SOMEONE_PAID = `(?:he|she|my\\s+${ROLES}|${NAME}\\s${NAME}(?:${TEAM})?|${NAME}${TEAM})`;

/**
 * Another person's health or pay asked in everyday words (2026-12-07): "What was wrong with him?"
 * (a colleague's sickness), "why was she off?", "whats Dan Foster in sales on?" (a colleague's
 * salary: "what's he on" asks what he earns). Case-sensitive but for the question word, so that a
 * name is a capitalized word.
 */
const OTHERS_HEALTH_OR_PAY = new RegExp(
  [
    `\\b[Ww]hat(?:['’]?s|\\s+is|\\s+was)\\s+wrong\\s+with\\s+${SOMEONE}`,
    `\\b[Ww]hy\\s+(?:is|was|has)\\s+${SOMEONE}\\s+(?:been\\s+)?off\\b`,
    `\\b(?:[Ww]hat|[Hh]ow much)(?:['’]?s|\\s+is)\\s+${SOMEONE_PAID}\\s+on\\s*(?:[?.!,]|$|\\s+(?:a|per|an)\\s+(?:year|month|hour|week)\\b|\\s+now\\b)`,
  ].join('|'),
  'u',
);

/**
 * Words that may be the subject of "what does … earn", or own a salary or a rating, without being
 * a person (a regular expression's source): indefinite pronouns, "it", "one", the pay items a
 * question may ask about ("how much does overtime make"), times and the organisation. Always read
 * with {@link DETERMINER} ("this", "each" are there).
 */
const NO_ONE_IN_PARTICULAR =
  '(?:everyone|everybody|anyone|anybody|someone|somebody|nobody|noone|one|it|staff|overtime|mileage|bonus|pension|savings|interest|shares?|i|you|we|they|' +
  // Time, and the organisation and its parts ("today's pay date", "last year's bonus", "the company's pension").
  'today|tonight|tomorrow|yesterday|day|week|month|quarter|year|company|business|firm|organisation|organization|team|department|office|everyones|everybodys)';

/** Articles and possessives (a regular expression's source): a role with one is no one in particular ("a manager"), or is read by the role patterns ("my manager"). */
const DETERMINER = '(?:a|an|the|my|our|your|his|her|their|its|every|any|some|each|this|that|these|those)';

/**
 * One person named by a word typed in lower case (a regular expression's source): any word but an
 * article, a possessive, "I", "you", "we", "it", an indefinite pronoun or a pay item; in the frames
 * of {@link LOWER_CASE_PERSON} only a person fits it ("is priya on a pip", "where does tom live").
 */
const ANY_ONE = `(?!(?:${NO_ONE_IN_PARTICULAR}|${DETERMINER})\\b)\\p{L}+`;

/**
 * Another person's data asked about a name typed in lower case, in frames only a person fits
 * (2026-12-07). Their pay by a verb of earning: "what does sarah in finance earn", "how much does
 * tom make", "how much does priya get paid": one word, or two, then optionally their team, as the
 * subject (a thing does not earn, and a rule question names a role with its article, "what does
 * an apprentice earn", which is not matched). And: on a plan or pregnant, off sick, the rating or
 * bonus they got, the grade they are on, where they live, what they are paid, and their salary,
 * rating or health by possessive with an apostrophe ("whats sarah's salary"). Not their address, phone number or e-mail by possessive: a
 * company or a team typed in lower case has those too ("what's harbourline's address"), as it has
 * a scheme, policy or process for pay ("harbourline's bonus scheme", "…'s pay review process").
 */
const LOWER_CASE_PERSON = new RegExp(
  [
    `\\b(?:what|how much)\\s+(?:does|did)\\s+${ANY_ONE}(?:\\s+(?!(?:in|from|earn|earns|make|get|take|bring)\\b)\\p{L}+)?(?:${TEAM}(?:\\s+(?:office|team|department|dept))?)?\\s+(?:earn|earns|make|get paid|take home|bring home)\\b`,
    `\\bis\\s+${ANY_ONE}\\s+(?:on\\s+(?:a\\s+)?(?:pip|performance improvement plan|(?:final\\s+)?(?:written\\s+)?warning|sick leave)|pregnant|off sick|being disciplined|under investigation)\\b`,
    `\\b(?:has|had)\\s+${ANY_ONE}\\s+been\\s+(?:off\\s+sick|signed\\s+off|on\\s+(?:a\\s+)?(?:pip|warning|sick leave)|disciplined)\\b`,
    `\\bwhat\\s+(?:rating|score|bonus|pay rise|raise|grade|warning|pay review)\\s+did\\s+${ANY_ONE}\\s+get\\b`,
    `\\bwhat\\s+grade\\s+is\\s+${ANY_ONE}\\s+on\\b`,
    `\\bwhere\\s+does\\s+${ANY_ONE}\\s+live\\b`,
    `\\bhow\\s+much\\s+(?:is|was)\\s+${ANY_ONE}(?:${TEAM})?\\s+paid\\b`,
    `(?<!\\b${DETERMINER}\\s)\\b${ANY_ONE}['’]s\\s+(?:salary|pay|bonus|pay rise|rating|review|sick days|sickness|medical|health|date of birth|birthday|bank details|grade)\\b(?!\\s+(?:review\\s+)?(?:scheme|policy|policies|rules?|structure|bands?|process|date|day|cycle|calendar|system|timetable)\\b)`,
  ].join('|'),
  'iu',
);

/** Asking who did something that is confidential about the person who did it ("who reported the concern?"). */
const WHO_DID = /\bwho\s+(?:has|have|had|was|were)?\s*(?:reported|complained|raised|made a complaint|filed|blew the whistle|(?:been|is|are) (?:off sick|on (?:a )?(?:pip|warning|performance|disciplinary|sick|leave))|used|using|contacted)\b/i;

/** Asking for a credential's value, not for the rules about credentials. */
const CREDENTIAL = /\b(?:what(?:'s| is)|tell me|give me|send me|share|let me have|need)\s+(?:the|a|an|our)?\s*(?:[\w-]+\s+){0,3}(?:password|passphrase|pin|login details|credentials)\s+(?:for|to|of|on)\b/i;

/**
 * Whether `question` asks for another person's personal or confidential data, or a credential.
 *
 * @example
 * asksForPersonalData("What's Sarah Mitchell in Finance paid?") // true
 * asksForPersonalData('Who gets to see my performance rating?') // false
 */
export function asksForPersonalData(question: string): boolean {
  // Read with chat spellings written out, so "whats the password for …" is "what's the password for …" (2026-12-05).
  const text = expandCasual(question).replace(/\s+/g, ' ').trim();
  if (CREDENTIAL.test(text) || WHO_DID.test(text) || WHEREABOUTS.test(text) || OTHERS_HEALTH_OR_PAY.test(text) || LOWER_CASE_PERSON.test(text)) return true;
  if (!PERSONAL_DATA.test(text)) return false;
  return OTHER_PERSON.some((pattern) => pattern.test(text));
}
