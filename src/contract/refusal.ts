/** The exact sentence the grounded prompt asks for when the documents lack the answer. */
export const REFUSAL_SENTENCE = "I don't know: the provided documents do not cover this.";

/**
 * The exact sentence the grounded prompt asks for when a question seeks a person's personal or
 * confidential data: a refusal that gives its reason (the guardrail), not "not covered".
 */
export const GUARDRAIL_REFUSAL_SENTENCE = "I can't share personal or confidential information about an individual.";

const EXACT_REPLY = 'reply with exactly this sentence and nothing else: ';
const EXACT_GUARDRAIL_REPLY = 'reply with exactly this sentence instead: ';

/** A sentence as a prompt quotes it: one line, in double quotes. */
function quoted(sentence: string): string {
  return `"${sentence.replace(/\s+/g, ' ').trim()}"`;
}

/**
 * The instruction naming the exact refusal sentence, as the prompts write it; the offline model
 * reads the sentence back with {@link parseRefusalRule}, so a custom sentence reaches it through
 * the prompt like it reaches any model.
 *
 * @example
 * renderRefusalRule('Not covered.') // 'reply with exactly this sentence and nothing else: "Not covered."'
 */
export function renderRefusalRule(sentence: string): string {
  return `${EXACT_REPLY}${quoted(sentence)}`;
}

/** The refusal sentence a prompt written with {@link renderRefusalRule} names; `null` when it names none. */
export function parseRefusalRule(prompt: string): string | null {
  return quotedAfter(prompt, EXACT_REPLY);
}

/** The instruction naming the exact guardrail sentence (see {@link GUARDRAIL_REFUSAL_SENTENCE}). */
export function renderGuardrailRule(sentence: string): string {
  return `${EXACT_GUARDRAIL_REPLY}${quoted(sentence)}`;
}

/** The guardrail sentence a prompt written with {@link renderGuardrailRule} names; `null` when it names none. */
export function parseGuardrailRule(prompt: string): string | null {
  return quotedAfter(prompt, EXACT_GUARDRAIL_REPLY);
}

function quotedAfter(prompt: string, lead: string): string | null {
  const start = prompt.indexOf(`${lead}"`);
  if (start === -1) return null;
  const from = start + lead.length + 1;
  const lineEnd = prompt.indexOf('\n', from);
  const line = lineEnd === -1 ? prompt.slice(from) : prompt.slice(from, lineEnd);
  const close = line.lastIndexOf('"');
  return close === -1 ? null : line.slice(0, close);
}

/** Where an answer says its knowledge comes from, as refusals name it ("the handbook does not say"). */
const SOURCE = String.raw`(?:documents?|docs?|handbook|sources?|context|information|info|policies|policy documents|guidelines|materials?|texts?|excerpts?|passages?|(?:[a-z-]+ )?sections?)`;
/** {@link SOURCE} with its determiner: "the provided documents", "these passages", "my sources". */
const THE_SOURCE = String.raw`(?:the |these |your |our |my )?(?:provided )?${SOURCE}`;
/**
 * What may follow {@link SOURCE} to say whose sources they are: "the documents provided", "the
 * policies I can see", "the docs I've got" (2026-12-05, v91 of the heuristic judge: chat wording).
 */
const HELD = String.raw`(?:(?:that )?i (?:have got|have|was given|can see|have access to|could find|can find|found|have found|looked at|have here) |provided |available (?:to me )?|given )?`;

/**
 * Paraphrases of a refusal, over the answer as {@link normalize} gives it (lowercase, contractions
 * written out: "i'm" → "i am", "couldn't" → "could not", "isn't" → "is not").
 */
const PARAPHRASES: RegExp[] = [
  /\bi (?:do not|cannot|can not|am unable to|am not able to) (?:know|say|find|answer|tell|determine|confirm|help with)\b/,
  // "I couldn't find anything about that", "I did not see any mention", "I wasn't able to locate it".
  /\bi (?:could not|was not able to|was unable to|did not|have not been able to) (?:find|locate|see|identify|spot)\b/,
  // "I don't have any information on that", "I have no details about it".
  /\bi (?:do not have|have no|do not hold) (?:any |enough |the |specific )?(?:information|details?|data|guidance|record|answer|knowledge)\b/,
  new RegExp(String.raw`\b${SOURCE} ${HELD}(?:do|does|did) not (?:seem to |appear to )?(?:cover|contain|mention|include|say|specify|address|state|provide|have|hold|give|list|explain|describe|discuss|answer)\b`),
  new RegExp(String.raw`\b(?:no|not enough|insufficient) (?:relevant )?(?:information|info|details?|mention|data)\b.*\b(?:${SOURCE}|provided|what i (?:have been given|have got|was given|have|can see))\b`),
  new RegExp(String.raw`\bnot (?:covered|mentioned|specified|addressed|stated|included|listed|described|explained) (?:in|by|anywhere in) ${THE_SOURCE}`),
  // "Nothing in the handbook covers this", "there is nothing in the documents about it".
  new RegExp(String.raw`\bnothing (?:in|within) ${THE_SOURCE} ${HELD}(?:covers|mentions|addresses|says anything about|is about|about|on)\b`),
  // v104: "Nothing in the documents I have says who pays"; not "Nothing in the handbook says you can't": that answers.
  new RegExp(String.raw`\bnothing (?:in|within) ${THE_SOURCE} ${HELD}(?:says|states|explains|specifies) (?!(?:that )?(?:you|staff|employees|we|people) (?:cannot|can not|must not|are not|have to|need to|should not|may not)\b)`),
  /\b(?:unable|not able) to (?:find|answer|locate)\b/,
  // "There's nothing I can find on that", "there is no mention of it".
  /\bnothing (?:that )?i (?:can|could) (?:find|see)\b/,
  // Not "There's nothing in the handbook that stops you": that answers (v98).
  /\bthere is (?:nothing|no (?:information|mention|details?|guidance|section)) (?:in|about|on|for|i can|i could|that)\b(?![^.;]*\b(?:stops?|prevents?|forbids?|bans?|rules? out)\b)/,
  // The guardrail's kind: "I can't share that", "I'm not able to give out …", "I'm not allowed to disclose …".
  /\bi (?:cannot|can not|will not|am not able to|am unable to|am not allowed to|am not permitted to|must not|should not) (?:share|disclose|provide|give out|give you|reveal|pass on|hand out)\b/,
  /^(?:sorry|unfortunately)[,.]? (?:i|the|there)\b.*\b(?:not|no)\b/,
  // Chat wording (2026-12-05): "I'm not finding anything on that", "I can't see that in the documents".
  /\bi am not (?:finding|seeing|able to see)\b/,
  new RegExp(String.raw`\bi (?:do not|cannot|can not) (?:see|find) (?:that|this|it) (?:anywhere|in ${THE_SOURCE})\b`),
  // "I don't have access to that information"; "they don't mention this" after "the documents".
  /\bi (?:do not|cannot|can not) (?:have|get) access to (?:that|this|the|any|those)\b/,
  new RegExp(String.raw`\bi can only (?:answer|help with|respond to) (?:questions )?(?:based on|from|using|about) ${THE_SOURCE}\b.*\b(?:not|no)\b`),
  // "There's no policy on that in the documents", "None of the documents mention it", "That information isn't available in the documents".
  /\bthere is no (?:policy|rule|guidance|section|mention|information|info) (?:on|about|for|covering) (?:that|this|it)\b/,
  // "There's no policy on dogs in what I've got", "no rule about pets in the handbook" (v60 of the heuristic judge).
  new RegExp(String.raw`\bthere is no (?:policy|rule|guidance|section|mention|information|info) (?:on|about|for|covering) [^.;:]{1,50}? in (?:what i (?:have|have got|can see|was given)|${THE_SOURCE})\b`),
  // "There isn't a policy on pet insurance that I can see", "There's no mention of a canteen anywhere in what I have" (v91).
  new RegExp(String.raw`\bthere is (?:no|not (?:a|an|any)) (?:policy|rule|guidance|section|mention|information|info)\b[^.;:]{1,60}? (?:that i (?:can|could) (?:see|find)|anywhere in (?:what i (?:have|have got|can see|was given)|${THE_SOURCE}))\b`),
  new RegExp(String.raw`^none of ${THE_SOURCE} ${HELD}(?:mentions?|covers?|says?|address(?:es)?|includes?)\b`),
  new RegExp(String.raw`\b(?:that|this|the) (?:information|info|detail|answer) (?:is not|is not available|is unavailable|cannot be found) (?:available )?in ${THE_SOURCE}\b`),
  // "It's not clear from the documents".
  new RegExp(String.raw`^(?:it is|that is) (?:not clear|unclear) (?:from|in) ${THE_SOURCE}\b`),
  // "I'm not aware of any policy on that"; "There doesn't seem to be anything about that".
  /\bi am not aware of (?:any|a) (?:policy|rule|information|mention|section|guidance)\b/,
  // v62: "I'm not aware of a gym discount." (a short clause that ends there), "Not that I can find."
  /\bi am not aware of (?:any|a|an) [\w-]+(?: [\w-]+){0,2}(?=[.!;]|$)/,
  /^not that i (?:can|could) (?:find|see)\b/,
  // "Not as far as I can tell from the handbook", "Birthdays aren't mentioned anywhere in the leave
  // policy", "There doesn't seem to be a birthday day off", "I don't see birthday leave in the
  // handbook I've got", "Can't find anything on birthday leave".
  /^not as far as i (?:can|could) (?:tell|see)\b/,
  /\bnot (?:mentioned|covered|listed|included) anywhere in (?:the |this |your |our |my )?(?:[a-z-]+ )?(?:policy|policies|handbook|documents?|docs?|sources?|information|info)\b/,
  /\bthere (?:does not|do not) (?:seem|appear) to be (?:a|an|any) [\w-]+(?: [\w-]+){0,3}(?=[.!;]|$)/,
  new RegExp(String.raw`\bi (?:do not|cannot|can not) (?:see|find) [^.;]{1,40}? (?:anywhere|in ${THE_SOURCE})\b`),
  /^(?:i )?(?:cannot|can not|could not) (?:find|see) (?:anything|any\b|a\b|an\b)/,
  /\bthere (?:does not|do not) (?:seem|appear) to be (?:anything|any (?:information|info|mention|details?|guidance|section|policy|rule))\b/,
  // "Nothing on that in the handbook", "The handbook has nothing on this", "The documents have no information about it".
  /^nothing (?:on|about) (?:that|this|it)\b/,
  new RegExp(String.raw`\b${SOURCE} (?:has|have|had) (?:nothing|no (?:info|information|mention|details?|section|guidance)) (?:on|about|for|regarding)\b`),
  // "Doesn't look like the handbook covers that", "I don't think the handbook covers that".
  new RegExp(String.raw`\b(?:does not (?:look|seem) like|i do not think) ${THE_SOURCE} (?:covers?|mentions?|says?|addresses|includes?)\b`),
  // "I can't see anything about that", "I don't see any mention of it".
  /\bi (?:do not|cannot|can not) (?:see|spot) (?:anything|any\b|a mention|mention)/,
  // "I don't have that information", "I don't have anything on that", "I haven't got any info on it".
  /\bi (?:do not have|have not got|have no|do not hold) (?:that|this|those|anything|any (?:info|information|details?|data|guidance))\b(?! (?:else|more))/,
  // "No idea, sorry", "I have no idea".
  /^(?:(?:sorry|hmm|honestly)[,.]? )?(?:i have )?no idea\b/,
  // "Not covered, sorry."; "Can't say from what I've got here."
  // Not "It's not covered." alone: to "Is dental covered?" that is an answer.
  new RegExp(String.raw`^(?:that is |this is |it is )?not covered(?:[,.!]?\s+(?:sorry|i am afraid)|\s+anywhere|\s+(?:in|by) ${THE_SOURCE})`),
  /^(?:i )?(?:cannot|can not) (?:say|tell)(?: (?:from|based on|for sure|for certain))?\b/,
  // "That's not something the handbook covers", "Not something I can help with", "That isn't something I have information on".
  new RegExp(String.raw`\bnot something (?:the |these |your |our |my )?(?:provided )?(?:${SOURCE} (?:${HELD})?(?:seems? to |appears? to )?(?:covers?|mentions?|says?|address(?:es)?|goes into|deals? with)|i (?:can|could) (?:help with|answer|find|see|say)|i have (?:got )?(?:any )?(?:info|information|details?) (?:on|about))\b`),
  // "The handbook is silent on this", "The handbook doesn't go into that / touch on that".
  new RegExp(String.raw`\b${SOURCE} (?:is|are) (?:silent|quiet) (?:on|about)\b`),
  new RegExp(String.raw`\b${SOURCE} ${HELD}(?:do|does|did) not (?:really |seem to |appear to )?(?:go into|touch on|talk about|deal with|get into|say anything)\b`),
  // "That's not in the documents I have", "It is not in the handbook".
  new RegExp(String.raw`^(?:hmm[,.]? )?(?:that|this|it)(?: one)? is not in ${THE_SOURCE}\b(?!'s| list| table)`),
  // "There isn't anything in the handbook about it", "There's no mention of that anywhere I can find".
  new RegExp(String.raw`\bthere is not (?:anything|any (?:information|info|mention|details?|guidance|section)) (?:in|about|on|that)\b`),
  /\bno mention of (?:that|this|it)\b.*\b(?:i (?:can|could) (?:find|see)|anywhere)\b/,
  // Chat wording (v60 of the heuristic judge): "Colleagues' pay isn't something I can share",
  // "Sorry, individual salaries are private", "… aren't available to me", "Hmm, not sure.",
  // "nothing I have covers that".
  /\bnot something i (?:can|could|am able to|am allowed to) (?:[a-z]+ or )?(?:share|give out|disclose|discuss|pass on|check|look up|look into)\b/,
  /^(?:sorry|unfortunately|i am afraid)[,.]? [^.]{0,60}\b(?:is|are) (?:private|confidential)\b/,
  /\b(?:is|are) not (?:available|accessible|visible) to me\b/,
  /^(?:(?:hmm|honestly|sorry)[,.]? )?(?:i am )?not (?:sure|certain)(?:[.!,;:\u2013\u2014]| -|$)/,
  /\bnothing (?:i have|i have got|i have here|i can see|i can find|i could find) (?:covers|mentions|says anything about|addresses|is about)\b/,
  // "That's outside what the handbook covers", "outside the scope of the documents".
  new RegExp(String.raw`\boutside (?:what ${THE_SOURCE} (?:covers?|says?)|the scope of ${THE_SOURCE}|what i (?:can|am able to) (?:answer|help with|say))\b`),
  // A fourth list of chat refusals (v98): "I've had a look and can't see anything about that",
  // "Nothing comes up for that", "That doesn't seem to be covered anywhere", "I don't think that's
  // covered, sorry", "It doesn't say in the handbook", "I don't see a policy for that", "No policy on
  // that that I could find", "That isn't in anything I've got", "There aren't any rules about that in the handbook".
  /(?:\bi|\band|\bbut) (?:cannot|can not|could not) (?:find|see|spot) (?:anything|any (?:info|information|mention|details?|rules?|polic(?:y|ies)|guidance|sections?))\b/,
  /^(?:(?:sorry|hmm)[,.]? )?nothing (?:comes|came) up\b/,
  /\b(?:that|this|it) (?:does not|do not) (?:seem|appear) to be (?:covered|mentioned|addressed|included)\b/,
  new RegExp(String.raw`\bi do not think (?:that|this|it) is (?:covered|mentioned|addressed)(?:[,.]?\s*(?:sorry|i am afraid)|\s+anywhere|\s+in ${THE_SOURCE})`),
  new RegExp(String.raw`\b(?:it|that|this) does not say (?:in|anywhere in) ${THE_SOURCE}`),
  /\bi (?:do not|cannot|can not) see (?:a|any) (?:policy|rule|section|mention|guidance) (?:on|for|about|covering) (?:that|this|it)\b/,
  /^no (?:policy|rule|guidance|section|mention|information|info) (?:on|about|for) (?:that|this|it)\b/,
  /\b(?:is|are) not in anything i (?:have|have got|can see|was given)\b/,
  new RegExp(String.raw`\bthere (?:are not|is not) any (?:rules?|polic(?:y|ies)|guidance|sections?|mentions?|information|info|details?) (?:on|about|for|covering) [^.;]{0,40}?(?:in ${THE_SOURCE}|that i (?:can|could) (?:see|find))`),
  // A fifth list (v104): what the answer lacks in more words ("I don't have contact details for
  // Payroll", "I don't have the bereavement leave rules to hand", "I don't seem to have anything on
  // that", "I've got nothing on the grievance process here", "Nothing on long-service awards in what I
  // can see", "I can't find the rules on …"), what it may not look into ("I can't pull up another
  // employee's payslip", "I can't look into a colleague's records", "Can't help with that one"),
  // doubt about the sources ("I'm not sure the handbook says whether …") and sources it does not
  // come up in ("Adoption appointments don't come up in the policies I can see").
  /\bi (?:do not have|have no|do not hold|have not got|do not seem to have) (?!to )(?:any |the |specific |enough )?(?:[\w-]+ ){0,3}?(?:information|info|details?|data|guidance|records?|rules?|polic(?:y|ies)|figures?|numbers?|limits?|rates?|dates?|process|procedure)\b(?! (?:else|more|here:|below))/,
  /\bi do not seem to have (?:anything|any\b)/,
  /\bi (?:have got|have) nothing (?:on|about|regarding|for)\b/,
  new RegExp(String.raw`^(?:(?:sorry|hmm)[,.]? )?nothing (?:on|about) [^.;]{1,40}? (?:in|from) (?:what i (?:have|have got|can see|was given|can find)|${THE_SOURCE})\b`),
  /\bi (?:cannot|can not|could not) find (?:the |any )?(?:rules?|polic(?:y|ies)|information|info|details?|guidance|sections?) (?:on|about|for|covering)\b/,
  /\bi (?:cannot|can not|am not able to|am unable to|am not allowed to) (?:look into|look up|pull up|access|check) (?:another|a colleague|colleagues|someone|other (?:people|employees|staff)|[a-z]+'s|his|her|their|that|this)\b/,
  /^(?:sorry[,.]? )?(?:i )?(?:cannot|can not) help (?:you )?(?:with|on) (?:that|this|it)\b/,
  /\bi (?:cannot|can not) (?:really )?(?:advise|comment)(?: on (?:that|this|it))?(?:[.!,;]|$)/,
  new RegExp(String.raw`\bi am not (?:sure|certain) (?:that |whether )?${THE_SOURCE} ${HELD}(?:says?|covers?|mentions?|address(?:es)?|goes into)\b`),
  new RegExp(String.raw`\b(?:does|do) not (?:come up|appear|feature|show up|get a mention) (?:in|anywhere in) (?:${THE_SOURCE}\b|what i (?:have|have got|can see|was given))`),
];

/** Contractions written out, so one pattern covers both spellings. */
const CONTRACTIONS: [RegExp, string][] = [
  [/\bi'm\b/g, 'i am'],
  [/\bcan't\b/g, 'cannot'],
  [/\bwon't\b/g, 'will not'],
  [/\b(do|does|did|is|are|was|were|could|would|should|has|have|had|must)n't\b/g, '$1 not'],
  [/\b(do|does|did|is|are|was|were|could|would|should|has|have|had|must)nt\b/g, '$1 not'],
  [/\bdont\b/g, 'do not'],
  [/\bcant\b/g, 'cannot'],
  [/\bim\b/g, 'i am'],
  [/\bi've\b/g, 'i have'],
  [/\bi haven't\b/g, 'i have not'],
  [/\bthere's\b/g, 'there is'],
  [/\bthat's\b/g, 'that is'],
  [/\bit's\b/g, 'it is'],
  [/\bone's\b/g, 'one is'],
];

/**
 * A pointer to someone who may know ("You could ask Payroll.", "Please contact HR for details.",
 * "Your manager will be able to help."): after a refusal it is where the answer sends the user,
 * not a statement about what the documents hold, so it is no claim to verify. Only after a
 * refusal: in an answer, "you can ask Payroll for a copy" may be the policy itself.
 */
const REFERRAL =
  /^(?:(?:but|however|instead|otherwise|so)[,]? )?(?:(?:for (?:more|further|specific) (?:information|details|help|guidance)|if (?:it matters|in doubt|you need (?:to know|more|an answer)|you(?: are|'re) (?:unsure|not sure)))[,]? )?(?:you (?:could|can|may|might|should|would|will|'d)(?: (?:want|need|like|have) to| be able to)? |please |try |maybe |perhaps |i (?:would|'d) (?:suggest|recommend)(?: that)?(?: you)? |i suggest(?: that)?(?: you)? |i(?: would|'d) |it (?:may|might|would|could) be (?:best|worth|a good idea) to |(?:it is |it's )?(?:probably |definitely )?(?:best|worth|a good idea) to |(?:your )?best bet (?:is|would be) to |consider )?(?:ask|asking|contact|contacting|check with|checking with|speak (?:to|with)|speaking (?:to|with)|talk (?:to|with)|talking (?:to|with)|e-?mail|drop|ping|message|reach out to|get in touch with|raise (?:it|this) with|consult|refer to|look at|see|try)\b|^(?:it (?:may|might|would|could) be |(?:it is |it's )?(?:probably |definitely )?)worth (?:asking|checking|contacting|speaking|talking|raising)\b|^(?:your |the |a |an )?[\w' -]{1,40}? (?:can|will|should|may|might|would|could) (?:be able to )?(?:help|tell you|know|advise|confirm|answer|assist|clarify|be the (?:people|person|ones?|team|place) to (?:ask|talk to|contact|check with))\b/i;

/**
 * After a refusal, what the answer says of itself rather than of the documents: what it has or
 * lacks ("I only have the current rate", "I don't have the limits in front of me") and why it
 * will not answer ("that's confidential").
 */
const SELF_REPORT = /^(?:i (?:only |just |do not |don't |did not |didn't )?(?:have|know|see|found|can see)\b|(?:that|this|it)(?: is|'s) (?:confidential|private|personal|sensitive|not something i can (?:share|give out|disclose))\b|i(?:'d| would) rather not (?:guess|speculate)\b|i (?:don't|do not) want to (?:guess|speculate)\b|i (?:won't|will not|can't|cannot) (?:guess|speculate)\b|i(?:'d| would)? (?:assume|guess|imagine|think|expect) (?:not|so)\b|(?:probably|presumably|likely) not\b)/i;

/**
 * After a refusal, what the sources are about rather than what they state (v60 of the heuristic
 * judge): "The handbook talks about phones and equipment, not pets", "The documents only cover
 * leave and pay", "it doesn't mention hot-desking". Not "The handbook says …": that reports what a
 * source states.
 */
const SOURCE_SCOPE = new RegExp(
  String.raw`^(?:(?:but|however|though)[,]? )?(?:${THE_SOURCE} ${HELD}(?:only |just |mainly |mostly )?(?:talks? about|covers?|mentions?|deals? with|discuss(?:es)?|focus(?:es)? on|goes into|(?:is|are|'s|'re) (?:only |just |mainly |mostly )?about)|(?:it|they|${THE_SOURCE}) (?:does not|doesn't|do not|don't|did not|didn't) (?:mention|cover|say|go into|talk about|address|specify))\b`,
  'i',
);

/**
 * What may follow a refusal without making it an answer: a pointer to someone who may know
 * ({@link REFERRAL}) or what the answer says of itself ({@link SELF_REPORT}). The judges do not
 * check such a clause as a claim when the answer refuses.
 *
 * @example
 * isRefusalAside('You could ask Payroll.') // true
 * isRefusalAside('Full-time staff get 25 days.') // false
 */
export function isRefusalAside(clause: string): boolean {
  // A contact in parentheses ("Compliance (compliance@harbourline.co.uk) should be able to tell you") is part of the pointer (v104).
  const text = clause.replace(/[\u2018\u2019]/g, "'").replace(/\s*\([^()]*\)/g, '').trim();
  if (REFERRAL.test(text) || SELF_REPORT.test(text) || SOURCE_SCOPE.test(text)) return true;
  // A pointer after the reason for it ("If you want to understand your own 3%, your manager can go
  // through it with you"; "For a definite answer, check with the People team").
  const pointer = text.replace(REFERRAL_REASON, '');
  return REFERRAL.test(pointer) || MORE_REFERRALS.some((pattern) => pattern.test(pointer));
}

/** What may lead a pointer: why or when to follow it ("If you need a definite answer, ", "For more detail, "). */
const REFERRAL_REASON = /^(?:(?:but|however|so|otherwise|instead)[,]? )?(?:(?:if|for|when|should)\b[^,.]{1,60},\s+)?/i;

/**
 * Pointers in the words chat models use after a refusal (v57 of the heuristic judge), besides
 * {@link REFERRAL}: advice to ask ("I'd recommend getting in touch with Facilities", "Feel free to
 * contact…", "Have a word with your manager", "Your best option is to email…", "You may want to
 * check the intranet"), someone who can take the user through it ("HR can talk you through your
 * options", "Your manager can explain how it was worked out", "… should be able to point you in the
 * right direction"), and who is the one to ask ("The People team would be the best people to ask",
 * "HR is the place to go", "the People team handles these requests").
 */
const MORE_REFERRALS: readonly RegExp[] = [
  /^(?:i (?:would |'d )?(?:recommend|suggest)(?: that)?(?: you)?|feel free to|you (?:may|might|could|can|should) (?:want|wish|like) to|your (?:best|easiest|quickest) (?:option|bet|move|route) (?:is|would be) to|the (?:best|easiest|quickest) (?:option|thing|way) (?:is|would be) to) (?:ask|asking|contact|contacting|check|checking|speak|speaking|talk|talking|e-?mail|e-?mailing|get(?:ting)? in touch|reach(?:ing)? out|raise|raising|consult|consulting|look|looking|visit|visiting|drop|dropping|message|messaging|call|calling|ring|ringing|phone|phoning)\b/i,
  /^have a (?:word|chat|quick word|quick chat) with\b/i,
  /^[\w' -]{1,50}? (?:can|will|should|may|might|would|could) (?:be able to )?(?:explain|go through|talk you through|walk you through|take you through|point you|look into|sort (?:it|this|that)(?: out)?)\b/i,
  /^(?:ring|call|phone|e-?mail|message|text) (?:the|your|them|him|her|hr|it)\b/i,
  /^[\w' -]{1,50}?(?: (?:is|are|would be|will be)|'s|'re) (?:probably |likely |definitely |really )?(?:the |your )?(?:best |right |ones? )?(?:place|people|person|team|ones?|contact) (?:to (?:ask|go|go to|contact|check with|talk to|speak to)|for (?:this|that|these|those|questions|queries))\b/i,
  /^[\w' -]{1,50}? (?:handles?|deals? with|looks? after|manages?) (?:these|such|this|that|those) (?:requests?|questions?|queries|enquiries|matters)\b/i,
  // v62: "You could check MyHarbour", "Have a look at the benefits page", "Worth a quick message to
  // the People team", "It might be worth looking on the intranet".
  /^(?:you (?:could|can|might|may|should)|maybe|perhaps) (?:also )?(?:check|look (?:at|on|in)|have a look (?:at|on|in)|search)\b/i,
  /^(?:have|take) a (?:quick )?look (?:at|on|in|through)\b/i,
  /^(?:it(?:'s| is| might be| may be| could be| would be) )?(?:(?:might|may|could|would) be )?(?:probably |definitely |still |also )?worth (?:(?:a |an )?(?:quick )?(?:message|call|email|e-mail|word|chat|look|check|ask)|looking|having a look|checking|dropping|giving|sending|pinging|messaging|e-?mailing|ringing|calling|phoning|asking|mentioning|raising|flagging|contacting)\b/i,
  // v99: "Give the Service Desk a shout", "HR are best placed to answer that", "That's one for the People team".
  /^give (?:the |your |them |him |her )?[\w' -]{0,40}?a (?:shout|call|ring|buzz|bell|nudge|message|e-?mail|quick call)\b/i,
  /^[\w' -]{1,50}? (?:is|are|would be|will be|'s|'re) (?:probably |likely )?(?:best|better|well) placed to (?:answer|help|advise|say|confirm|tell you)\b/i,
  /^(?:(?:that|this|it)(?:'s| is| would be| might be) )?(?:probably |definitely |really |more )?(?:one|a question) for (?!each\b|every\b|all\b|any\b)(?:the |your )?[\w' -]{1,40}?[.!]?$/i,
  // v104: someone who can pass a message on ("The People team can contact him for you", "HR might be
  // able to pass a message on for you"), who has the answer ("Your manager should have the dates"),
  // why the answer will not tell ("individual pay is confidential", "home addresses are private") and
  // who handles such things ("The People team handles internal moves").
  /^[\w' -]{1,50}? (?:can|could|will|may|might|should|would) (?:be able to )?(?:contact|get in touch with|reach|pass (?:a message|it|this|that|your message) on|pass on (?:a|your) message)\b.*\b(?:for you|on your behalf)\b/i,
  /^[\w' -]{1,50}? (?:should|will|would|may|might|could) (?:have|know)(?: (?:the|that|this|those|these|more)\b|[.!]?$)/i,
  /^[\w' -]{1,60}? (?:is|are) (?:kept )?(?:strictly )?(?:confidential|private|sensitive)\b/i,
  /^(?:the |your )?[\w' -]{0,40}?\b(?:team|desk|department|hr|payroll|compliance|facilities|finance)\b (?:handles?|deals? with|looks? after|is responsible for|manages?) (?:all )?(?:these |those |such |that |this |the )?[a-z' -]{1,30}[.!]?$/i,
  // v104: "Maybe flag it to your office manager", "you'd need to ask Payroll", "Easiest is just to ask
  // Ben", "Liam should contact Payroll himself", "The People team is the right contact", "Payroll can
  // check it for you", "Finance should be able to give you a straight answer", "… could confirm".
  /^(?:maybe|perhaps) (?:flag|raise|mention|bring up) (?:it|this|that)\b/i,
  /^(?:you(?:'d| would)? (?:need|have) to|(?:the )?easiest (?:thing |option )?(?:is|would be)(?: just)? to|[\w' -]{1,30}? should) (?:ask|contact|check with|speak to|talk to|e-?mail|message)\b/i,
  /^[\w' -]{1,50}?(?: (?:is|are|would be|will be)|'s|'re) (?:probably |likely |definitely |really )?(?:the |your )?(?:best |right )?(?:contact|person to ask|people to ask|ones to ask)[.!]?$/i,
  /^[\w' -]{1,60}? (?:can|will|should|may|might|would|could) (?:be able to )?(?:check (?:it|this|that) for you|give you (?:a|an|the) (?:straight |proper |definite |clear |full )?answer|confirm|tell you)\b/i,
  // v60: "Your office manager is your best bet", "Facilities would be your best option".
  /^[\w' -]{1,50}? (?:is|are|would be|will be|'s|'re) (?:probably |likely )?your (?:best|safest) (?:bet|option|person to ask|place to start|port of call)\b/i,
];

/**
 * Whether an answer is a refusal: the exact sentence, or a common paraphrase ("I don't know",
 * "the documents do not cover…", "I can't share…"). Case and curly quotes are ignored.
 */
export function isRefusal(answer: string, refusalSentence: string = REFUSAL_SENTENCE): boolean {
  const normalized = normalize(answer);
  if (normalized === '') return false;
  if (normalized.includes(normalize(refusalSentence)) || normalized.includes(normalize(GUARDRAIL_REFUSAL_SENTENCE))) return true;
  // Only short answers can be refusals by paraphrase; a long answer that says "I don't know
  // the exact date" somewhere is an answer with a caveat.
  if (normalized.split(' ').length > 45) return false;
  // A short answer that refuses and then turns ("…, but you can see your own band in the portal")
  // stays a refusal: read that way, a refusal offering something related is one (the check labels
  // say so), at the price of a caveat followed by an answer ("I couldn't find the form's name, but
  // you submit it through the portal") read as a refusal too (tried in v10 and dropped).
  const written = expanded(answer);
  return PARAPHRASES.some((pattern) => pattern.test(written));
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ').trim();
}

/** {@link normalize}, with contractions written out (for the paraphrase patterns). */
function expanded(text: string): string {
  let result = normalize(text);
  for (const [pattern, replacement] of CONTRACTIONS) result = result.replace(pattern, replacement);
  return result;
}
