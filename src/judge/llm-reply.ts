import { z } from 'zod';
import { extractJsonObject } from '../providers/json.js';
import { escapeAttribute } from '../contract/formats.js';
import type { EvidencePassage, JudgedClaim } from './types.js';

const ClaimSchema = z.object({
  text: z.string().trim().min(1, 'claim text is empty'),
  verdict: z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.enum(['verified', 'contradicted', 'absent'])),
  evidenceId: z.string().nullable().optional(),
  note: z.string().optional(),
});

const ReplySchema = z.object({
  evidenceRelevant: z.boolean(),
  claims: z.array(ClaimSchema),
});

export type ParsedReply = { ok: true; claims: JudgedClaim[]; evidenceRelevant: boolean } | { ok: false; error: string };

/**
 * Validate a judge reply: a JSON object (taken from the provider's parsed `json`, or extracted from
 * prose or code fences in the raw text), with allowed verdicts, and evidence ids that exist.
 *
 * A `verified` or `contradicted` claim must name a passage that is in the evidence: a verdict that
 * rests on a passage we never showed cannot be checked, so the reply is invalid (and retried). An
 * `absent` claim's evidence id is ignored (set to `null`).
 *
 * @example
 * parseFaithfulnessReply('```json\n{"evidenceRelevant":true,"claims":[]}\n```', undefined, evidence) // { ok: true, claims: [], evidenceRelevant: true }
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
  const ids = new Map<string, string>();
  for (const passage of evidence) {
    ids.set(passage.id, passage.id);
    ids.set(escapeAttribute(passage.id), passage.id);
  }
  const claims: JudgedClaim[] = [];
  for (const [index, claim] of parsed.data.claims.entries()) {
    const named = claim.evidenceId?.trim() || null;
    const id = named === null ? null : (ids.get(named) ?? null);
    if (claim.verdict !== 'absent') {
      if (named === null) return { ok: false, error: `claim ${index + 1} is ${claim.verdict} but names no evidence passage` };
      if (id === null) return { ok: false, error: `claim ${index + 1} names evidence id "${named}", which is not one of the passages` };
    }
    claims.push({ text: claim.text, verdict: claim.verdict, evidenceChunkId: claim.verdict === 'absent' ? null : id, note: claim.note?.trim() ?? '' });
  }
  return { ok: true, claims, evidenceRelevant: parsed.data.evidenceRelevant };
}
