import { excerptEndLine, parseCodeExcerpt, type CodeExcerpt } from '../contract/code.js';
import { isRefusal } from '../contract/refusal.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { statesCodeSpecifics } from './explanation-criteria.js';
import { deriveFaithfulness, resolvePolicy } from './faithfulness-score.js';
import type { ClaimVerdict, EvidencePassage, FaithfulnessInput, FaithfulnessJudge, FaithfulnessJudgment, FaithfulnessPolicy, JudgedClaim, JudgeInfo } from './types.js';

/**
 * Claim-level checking of an error explanation against code: the offline counterpart of the LLM
 * faithfulness judge for explanations. A claim is a sentence that states code specifics (a code
 * span, a `file:line`, a camelCase or dotted name); each specific is looked up in the evidence
 * (the code excerpts, numbered by line, and the error report):
 *
 * - a code span is `verified` when the evidence holds it (white space ignored), or when every name
 *   in it is a name the evidence uses (a proposed fix is written in the code's own names);
 *   `absent` when it names something the evidence never mentions;
 * - a `file:line` (or "line N of file") is `verified` when an excerpt of that file covers the
 *   line, `absent` when none does, and `contradicted` when the sentence quotes code that an
 *   excerpt of that file holds at another line, and not at the one cited;
 * - a bare name outside code spans is `verified` when the evidence has it, else `absent`.
 *
 * A sentence takes the worst verdict of its specifics. Sentences without specifics (plain
 * explanation) are not claims: this judge reads code, not meaning.
 */
// v2: refusals are recognised in more words (`isRefusal`).
// v3: refusals in chat wording and more pointers after a refusal (`isRefusal`, `isRefusalAside`; the heuristic judge's v46).
// v4: more refusal wordings ("I don't have access to that information", "None of the documents mention …", "It's not clear from the documents"; `isRefusal`; the heuristic judge's v50).
// v5: more refusal wordings ("There's no policy on dogs in what I've got", "Colleagues' pay isn't something I can share", "Hmm, not sure.", "… aren't available to me") and asides after a refusal ("The handbook talks about …", "I'd rather not guess"; `isRefusal`, `isRefusalAside`; the heuristic judge's v60).
// v6: questions back to the user are no claims ("Is it a particular gym you're thinking of?"); more refusal wordings ("I'm not aware of a gym discount.", "Not that I can find", "Not as far as I can tell from the handbook", "… aren't mentioned anywhere in the leave policy", "There doesn't seem to be a …", "Can't find anything on …") and pointers after a refusal ("You could check MyHarbour", "Have a look at …", "Worth a quick message to …", "I'd assume not"; `splitAnswer`, `isRefusal`, `isRefusalAside`; the heuristic judge's v62).
// v7: more refusal wordings that say whose sources they are ("There isn't a policy on pet insurance that I can see", "The policies I can see don't cover that", "Nothing in the documents I have covers …", "That isn't something the documents address", "The handbook is quiet on that one"; `isRefusal`; the heuristic judge's v91).
// v8: a fourth list of refusal wordings ("I've had a look and can't see anything about that", "Nothing comes up for that", "That doesn't seem to be covered anywhere", "It doesn't say in the handbook", "I don't see a policy for that", "No policy on that that I could find", "That isn't in anything I've got", "There aren't any rules about that in the handbook"), and "There's nothing in the handbook that stops you" is an answer; `isRefusal`; the heuristic judge's v98.
// v9: more pointers after a refusal are asides ("Might be worth dropping HR a line", "Give the Service Desk a shout", "HR are best placed to answer that", "That's one for the People team", "Probably one for your manager"; `isRefusalAside`; the heuristic judge's v99).
// v10: a fifth list of refusal wordings ("I don't have contact details for Payroll", "I've got nothing on that", "Nothing on sabbaticals in what I can see", "I can't pull up another employee's payslip", "Can't help with that one", "I'm not sure the handbook covers …", "… don't come up in the policies I can see") and pointers after a refusal ("The People team can contact him for you", "Your manager should have the dates", "individual pay is confidential", "you'd need to ask Payroll", a contact in parentheses); `isRefusal`, `isRefusalAside`; the heuristic judge's v104.
// v11: an explanation typed in lower case is split into its sentences (`splitAnswer`; the heuristic judge's v105).
// v12: social remarks with an interjection or an adverb ("ugh, sorry!") are no claims (`splitAnswer`; the heuristic judge's v107).
export const CODE_CLAIMS_JUDGE_VERSION = 'code-claims-v12';

/** Names every JavaScript program uses: mentioning them proves nothing and fabricates nothing. */
const COMMON_NAMES = new Set(
  (
    'const let var return await async function new if else for of in this true false null undefined typeof instanceof throw try catch ' +
    'req res next request response body params query status json send end type headers error err message stack ' +
    'Number String Boolean Object Array JSON Promise Map Set Date Math Error TypeError RangeError ReferenceError SyntaxError console ' +
    'parse stringify map filter find reduce forEach some every includes push slice split join trim toLowerCase keys values entries length ' +
    'then resolve reject import export from default module require process env get set has delete freeze assign'
  ).split(/\s+/),
);

/** @param [options.policy] whether absent claims count as fabrication (default: yes). */
export function createCodeClaimsJudge(options: { policy?: Partial<FaithfulnessPolicy> } = {}): FaithfulnessJudge {
  const policy = resolvePolicy(options.policy);
  const info: JudgeInfo = Object.freeze({ kind: 'heuristic', model: 'heuristic', promptVersion: CODE_CLAIMS_JUDGE_VERSION });
  return {
    info,
    async judge(input: FaithfulnessInput): Promise<FaithfulnessJudgment> {
      const started = performance.now();
      const evidence = readEvidence(input.evidence);
      const claims = explanationClaims(input.answer).map((sentence) => judgeSentence(sentence, evidence));
      const refused = isRefusal(input.answer);
      // Code excerpts are what the explanation is about: each one `answers` when there are excerpts
      // at all (judgment v2 fields; this judge checks code specifics, not relevance).
      const contexts = input.evidence
        .filter((passage) => passage.kind === 'chunk')
        .map((passage) => ({ chunkId: passage.id, verdict: evidence.excerpts.length > 0 ? ('answers' as const) : ('unrelated' as const), note: 'code excerpt' }));
      const derived = deriveFaithfulness({ claims, contexts, refused, answerRelevance: 'answers', personalData: false, referenceClaims: null }, policy);
      return { status: 'ok', judge: info, ...derived, usage: { ...EMPTY_USAGE }, costUsd: 0, durationMs: performance.now() - started };
    },
  };
}

/**
 * Wrap a faithfulness judge so that an explanation stating code specifics that comes back with no
 * claims at all is a judge failure, not "nothing fabricated": whatever the judge did, it did not
 * check the explanation.
 */
export function requireClaimsForCodeSpecifics(judge: FaithfulnessJudge): FaithfulnessJudge {
  return {
    info: judge.info,
    async judge(input, options) {
      const judgment = await judge.judge(input, options);
      if (judgment.status !== 'ok' || judgment.claims.length > 0 || !statesCodeSpecifics(input.answer)) return judgment;
      return {
        status: 'error',
        judge: judgment.judge,
        error: 'the explanation states code specifics but the judge returned no claims: it was not checked',
        rawReply: null,
        attempts: 1,
        authError: false,
        usage: judgment.usage,
        costUsd: judgment.costUsd,
        durationMs: judgment.durationMs,
      };
    },
  };
}

interface ReadEvidence {
  excerpts: { id: string; excerpt: CodeExcerpt }[];
  /** Every passage's text with white space collapsed, for looking up code spans. */
  texts: { id: string; text: string }[];
  /** Every name used in the evidence, with the first passage using it. */
  names: Map<string, string>;
}

function readEvidence(passages: readonly EvidencePassage[]): ReadEvidence {
  const excerpts: ReadEvidence['excerpts'] = [];
  const texts: ReadEvidence['texts'] = [];
  const names = new Map<string, string>();
  for (const passage of passages) {
    const excerpt = parseCodeExcerpt(passage.text);
    const body = excerpt === null ? passage.text : excerpt.lines.join('\n');
    if (excerpt !== null) excerpts.push({ id: passage.id, excerpt });
    texts.push({ id: passage.id, text: squash(excerpt === null ? passage.text : `${excerpt.path}\n${body}`) });
    for (const name of namesIn(excerpt === null ? passage.text : `${excerpt.path} ${excerpt.symbol}\n${body}`)) if (!names.has(name)) names.set(name, passage.id);
  }
  return { excerpts, texts, names };
}

/** The sentences of an explanation that state code specifics (one per list item or sentence). */
export function explanationClaims(answer: string): string[] {
  const sentences: string[] = [];
  for (const line of answer.replace(/\r\n?/g, '\n').split('\n')) {
    const text = line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/^#+\s*/, '').trim();
    if (text === '' || /^_?offline baseline/i.test(text.replace(/^_+/, ''))) continue;
    // Split sentences outside code spans only.
    const masked = text.replace(/`[^`]*`/g, (span) => span.replace(/[.!?]/g, '\u0000'));
    let start = 0;
    for (const match of masked.matchAll(/[.!?](?=\s+[A-Z*_`(])/g)) {
      sentences.push(text.slice(start, match.index + 1).trim());
      start = match.index + 1;
    }
    sentences.push(text.slice(start).trim());
  }
  return sentences.filter((sentence) => sentence !== '' && statesCodeSpecifics(sentence));
}

const LOCATION = /(?:\bline\s+(\d+)\s+of\s+([\w./-]+\.[a-z]{1,4}))|(?:([\w./-]*[\w-]+\.(?:[cm]?[jt]sx?|html|ejs|hbs|sql)):(\d+))/gi;

function judgeSentence(sentence: string, evidence: ReadEvidence): JudgedClaim {
  const verdicts: { verdict: ClaimVerdict; id: string | null; note: string }[] = [];
  const spans = [...sentence.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  for (const span of spans) verdicts.push(judgeSpan(span, evidence));
  for (const match of sentence.matchAll(LOCATION)) {
    const file = (match[2] ?? match[3])!;
    const line = Number(match[1] ?? match[4]);
    verdicts.push(judgeLocation(file, line, spans, evidence));
  }
  const outside = sentence.replace(/`[^`\n]*`/g, ' ').replace(LOCATION, ' ');
  for (const name of namesIn(outside)) {
    if (!looksLikeCode(name)) continue;
    const id = evidence.names.get(name);
    verdicts.push(id === undefined ? { verdict: 'absent', id: null, note: `${name} is not in the evidence` } : { verdict: 'verified', id, note: `${name} is in the evidence` });
  }
  const worst = verdicts.find((item) => item.verdict === 'contradicted') ?? verdicts.find((item) => item.verdict === 'absent') ?? verdicts[0];
  if (worst === undefined) return { text: sentence, verdict: 'absent', evidenceChunkId: null, note: 'no checkable code specific' };
  return { text: sentence, verdict: worst.verdict, evidenceChunkId: worst.verdict === 'absent' ? null : worst.id, note: worst.note };
}

function judgeSpan(span: string, evidence: ReadEvidence): { verdict: ClaimVerdict; id: string | null; note: string } {
  const wanted = squash(span);
  const holder = evidence.texts.find((passage) => passage.text.includes(wanted));
  if (holder) return { verdict: 'verified', id: holder.id, note: `\`${truncate(span)}\` is in ${holder.id}` };
  const unknown = namesIn(span).filter((name) => !COMMON_NAMES.has(name) && !evidence.names.has(name) && !/^\d/.test(name));
  if (unknown.length === 0) {
    const first = namesIn(span).map((name) => evidence.names.get(name)).find((id) => id !== undefined) ?? null;
    return { verdict: 'verified', id: first, note: `every name in \`${truncate(span)}\` is in the evidence` };
  }
  return { verdict: 'absent', id: null, note: `${unknown.slice(0, 3).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the evidence` };
}

function judgeLocation(file: string, line: number, spans: string[], evidence: ReadEvidence): { verdict: ClaimVerdict; id: string | null; note: string } {
  // A frame of the error report names this place: the claim repeats the stack.
  const frame = evidence.texts.find((passage) => passage.text.includes(`${file}:${line}:`) || passage.text.includes(`${file}:${line})`));
  const ofFile = evidence.excerpts.filter(({ excerpt }) => excerpt.path === file || excerpt.path.endsWith(`/${file}`));
  if (ofFile.length === 0) return frame ? { verdict: 'verified', id: frame.id, note: `${file}:${line} is a frame of the stack` } : { verdict: 'absent', id: null, note: `no excerpt of ${file}` };
  const covering = ofFile.find(({ excerpt }) => line >= excerpt.startLine && line <= excerptEndLine(excerpt));
  // Only quoted code is compared line by line; a bare name (`showPost`) is where it is defined, not where it runs.
  for (const span of spans) {
    const wanted = squash(span);
    if (wanted.length < 6 || /^[\w$.]+$/.test(span.trim())) continue;
    for (const { id, excerpt } of ofFile) {
      const at = excerpt.lines.findIndex((code) => squash(code).includes(wanted));
      if (at === -1) continue;
      const actual = excerpt.startLine + at;
      if (Math.abs(actual - line) <= 1) return { verdict: 'verified', id, note: `${file}:${line} holds \`${truncate(span)}\`` };
      const atCited = covering ? squash(covering.excerpt.lines[line - covering.excerpt.startLine] ?? '') : '';
      if (!atCited.includes(wanted)) return { verdict: 'contradicted', id, note: `\`${truncate(span)}\` is at ${file}:${actual}, not ${line}` };
    }
  }
  if (covering) return { verdict: 'verified', id: covering.id, note: `an excerpt of ${file} covers line ${line}` };
  if (frame) return { verdict: 'verified', id: frame.id, note: `${file}:${line} is a frame of the stack` };
  return { verdict: 'absent', id: null, note: `no excerpt covers ${file}:${line}` };
}

function namesIn(text: string): string[] {
  return [...new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? [])];
}

/** A name that reads as code rather than English: lower camelCase, snake_case, or with a `$` (`JavaScript` is a word). */
function looksLikeCode(name: string): boolean {
  return /^[a-z_$][\w$]*[a-z][A-Z]/.test(name) || /[a-z]_[a-z]/i.test(name) || name.includes('$');
}

function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
