import { analyze, type Analysis } from './heuristic-analysis.js';
import { judgeClaim } from './heuristic-match.js';
import type { EvidenceUnit } from './heuristic-units.js';
import type { JudgedClaim } from './types.js';
import { loadWordNet } from '../text/wordnet.js';

/**
 * A bare "yes" or "no" to a question about two things at once (v40): "Are both Tim McIlrath and
 * Spike Slawson American punk rock musicians?", "Are Wenling and Xinzheng both in China?". The
 * answer holds no word to check, so it was undetermined; but the question states two claims, one
 * per thing ("Tim McIlrath are American punk rock musicians", "Spike Slawson are American punk
 * rock musicians"), and the evidence can settle them the way it settles any claim:
 *
 * - both verified: "yes" is verified, "no" contradicted;
 * - one contradicted: "no" is verified, "yes" contradicted;
 * - anything else (a claim absent): nothing is decided, and the answer stays undetermined. Absent
 *   is not false: "Canadian" does not say "not American" to a word matcher, so a "no" is never
 *   verified by a missing word, and a "yes" is never flagged for one.
 *
 * Only the forms "both A and B P", "A and B both P" (with "are/is/were/was/do/does/did" first) are
 * read. In "A and B both P" the pair splits at the last " and " ("Gin and tonic and Paloma": "Gin
 * and tonic", "Paloma"); in "both A and B P" at the first, and B ends where P begins (below).
 */
const BOTH_FIRST = /^(are|is|were|was|do|does|did)\s+both\s+(.+?)\s+and\s+(.+?)\s+(\S.*?)[?.!\s]*$/i;
const NAME_LINKS: ReadonlySet<string> = new Set(['of', 'for', 'the', 'de', 'la', 'von', 'van', 'and']);
const BOTH_AFTER = /^(are|is|were|was|do|does|did)\s+(.+)\s+and\s+(.+?)\s+both\s+(\S.*?)[?.!\s]*$/i;

/** The two claims a "both" question states, or `null` for any other question. */
export function bothClaims(question: string): [string, string] | null {
  const text = question.trim().replace(/\s+/g, ' ');
  // Each claim keeps the question's verb ("Wenling are in China"): a claim with a verb is checked
  // word by word against a sentence, not read as a bare answer to the question.
  const after = BOTH_AFTER.exec(text);
  if (after) {
    const verb = after[1]!.toLowerCase();
    return [`${after[2]} ${verb} ${after[4]}`, `${after[3]} ${verb} ${after[4]}`];
  }
  const first = BOTH_FIRST.exec(text);
  if (!first) return null;
  const verb = first[1]!.toLowerCase();
  // "both A and B P": where B ends and P starts is not marked. B is taken as its capitalized words
  // and the small words between them ("Kings of Leon"), less a last one WordNet reads as an
  // adjective ("Spike Slawson American punk rock musicians": "American" starts P).
  const rest = `${first[3]} ${first[4]}`.split(' ');
  let end = 0;
  while (end < rest.length - 1 && (/^\p{Lu}/u.test(rest[end]!) || (NAME_LINKS.has(rest[end]!) && /^\p{Lu}/u.test(rest[end + 1] ?? '')))) end++;
  if (end > 1 && loadWordNet().lemmas(rest[end - 1]!.toLowerCase(), 'adj').length > 0) end--;
  if (end === 0) return null;
  const second = rest.slice(0, end).join(' ');
  const predicate = rest.slice(end).join(' ');
  return [`${first[2]} ${verb} ${predicate}`, `${second} ${verb} ${predicate}`];
}

const YES = /^(?:yes|yeah|yep|correct|true)\b[\s.!]*$/i;
const NO = /^(?:no|nope|false|incorrect)\b[\s.!]*$/i;

/**
 * The verdict on a bare yes/no answer to a "both" question, or `null` when the question is no
 * such question, the answer no bare yes/no, or the evidence settles nothing.
 *
 * @example
 * judgeBareYesNo('yes', 'Are Wenling and Xinzheng both in China?', units, analyze(question))
 * // { text: 'yes', verdict: 'verified', … } when the evidence places both in China
 */
export function judgeBareYesNo(answer: string, question: string, units: readonly EvidenceUnit[], questionAnalysis: Analysis): JudgedClaim | null {
  const yes = YES.test(answer.trim());
  if (!yes && !NO.test(answer.trim())) return null;
  const claims = bothClaims(question);
  if (claims === null) return null;
  const judged = claims.map((text) => judgeClaim(text, analyze(text), units, questionAnalysis));
  const contradicted = judged.find((claim) => claim.verdict === 'contradicted');
  if (contradicted) {
    const note = `the evidence contradicts "${contradicted.text}": ${contradicted.note}`;
    return { text: answer, verdict: yes ? 'contradicted' : 'verified', evidenceChunkId: contradicted.evidenceChunkId, note };
  }
  if (judged.every((claim) => claim.verdict === 'verified')) {
    const note = `the evidence states both "${claims[0]}" and "${claims[1]}"`;
    return { text: answer, verdict: yes ? 'verified' : 'contradicted', evidenceChunkId: judged[0]!.evidenceChunkId, note };
  }
  return null;
}
