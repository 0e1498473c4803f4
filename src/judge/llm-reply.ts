import { z } from 'zod';
import { extractJsonObject } from '../providers/json.js';
import { escapeAttribute } from '../contract/formats.js';
import { quoteInPassage } from './quote-check.js';
import type { AnswerRelevance, EvidencePassage, JudgedClaim, JudgedContext, ReferenceClaim } from './types.js';

const lowerEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : value), z.enum(values));

const ClaimSchema = z.object({
  text: z.string().trim().min(1, 'claim text is empty'),
  reason: z.string().optional(),
  verdict: lowerEnum(['verified', 'contradicted', 'absent'] as const),
  evidenceId: z.string().nullable().optional(),
  quote: z.string().nullable().optional(),
});

const ReplySchema = z.object({
  contexts: z.array(z.object({ id: z.string(), reason: z.string().optional(), verdict: lowerEnum(['answers', 'related', 'unrelated'] as const) })),
  personalData: z.object({ reason: z.string().optional(), value: z.boolean() }),
  answerRelevance: z.object({ reason: z.string().optional(), verdict: lowerEnum(['answers', 'partial', 'off_topic', 'refusal'] as const) }),
  claims: z.array(ClaimSchema),
  referenceClaims: z.array(z.object({ text: z.string().trim().min(1), reason: z.string().optional(), stated: z.boolean() })).optional().default([]),
});

export interface ParsedFindings {
  claims: JudgedClaim[];
  contexts: JudgedContext[];
  personalData: boolean;
  answerRelevance: AnswerRelevance;
  referenceClaims: ReferenceClaim[];
}

export type ParsedReply = ({ ok: true } & ParsedFindings) | { ok: false; error: string };

/**
 * Validate a judge reply: a JSON object (taken from the provider's parsed `json`, or extracted from
 * prose or code fences in the raw text) matching the schema, with:
 * - a context verdict for every chunk passage (ids as shown; other ids are an error);
 * - for each `verified` or `contradicted` claim, a passage that is in the evidence and a quote that
 *   is in that passage (`quoteInPassage`): a verdict resting on words we never showed cannot be
 *   checked, so the reply is invalid (and retried). An `absent` claim's id and quote are ignored.
 *
 * @example
 * parseFaithfulnessReply(text, undefined, evidence) // { ok: false, error: 'claim 2 quotes "…", which is not in passage "a"' }
 */
export function parseFaithfulnessReply(text: string, json: unknown, evidence: readonly EvidencePassage[]): ParsedReply {
  let value: unknown = json;
  if (value === undefined || value === null || typeof value !== 'object') {
    const extracted = extractJsonObject(text);
    if (!extracted.ok) return { ok: false, error: extracted.error };
    value = extracted.value;
  }
  const parsed = ReplySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `reply does not match the schema at ${issue.path.join('.') || 'the top level'}: ${issue.message}` };
  }
  // The model may echo an id as it appeared in the attribute (escaped) or as it is.
  const passages = new Map<string, EvidencePassage>();
  for (const passage of evidence) {
    passages.set(passage.id, passage);
    passages.set(escapeAttribute(passage.id), passage);
  }
  const verdicts = new Map<string, JudgedContext>();
  for (const [index, context] of parsed.data.contexts.entries()) {
    const passage = passages.get(context.id.trim());
    if (!passage) return { ok: false, error: `contexts[${index}] names passage "${context.id}", which is not one of the passages` };
    if (passage.kind === 'chunk') verdicts.set(passage.id, { chunkId: passage.id, verdict: context.verdict, note: context.reason?.trim() ?? '' });
  }
  const missing = evidence.filter((passage) => passage.kind === 'chunk' && !verdicts.has(passage.id));
  if (missing.length > 0) return { ok: false, error: `no context verdict for passage${missing.length === 1 ? '' : 's'} ${missing.map((passage) => `"${passage.id}"`).join(', ')}` };

  const claims: JudgedClaim[] = [];
  for (const [index, claim] of parsed.data.claims.entries()) {
    const note = claim.reason?.trim() ?? '';
    if (claim.verdict === 'absent') {
      claims.push({ text: claim.text, verdict: 'absent', evidenceChunkId: null, note, quote: null });
      continue;
    }
    const named = claim.evidenceId?.trim() || null;
    if (named === null) return { ok: false, error: `claim ${index + 1} is ${claim.verdict} but names no evidence passage` };
    const passage = passages.get(named);
    if (!passage) return { ok: false, error: `claim ${index + 1} names evidence id "${named}", which is not one of the passages` };
    const quote = claim.quote?.trim() ?? '';
    if (quote === '') return { ok: false, error: `claim ${index + 1} is ${claim.verdict} but quotes nothing from passage "${passage.id}"` };
    if (!quoteInPassage(quote, passage.text)) return { ok: false, error: `claim ${index + 1} quotes ${JSON.stringify(quote)}, which is not in passage "${passage.id}"` };
    claims.push({ text: claim.text, verdict: claim.verdict, evidenceChunkId: passage.id, note, quote });
  }
  return {
    ok: true,
    claims,
    contexts: evidence.filter((passage) => passage.kind === 'chunk').map((passage) => verdicts.get(passage.id)!),
    personalData: parsed.data.personalData.value,
    answerRelevance: parsed.data.answerRelevance.verdict,
    referenceClaims: parsed.data.referenceClaims.map((claim) => ({ text: claim.text, stated: claim.stated, note: claim.reason?.trim() ?? '' })),
  };
}
