import { readFileSync } from 'node:fs';

import { renderCodeExcerpt } from '../contract/code.js';
import type { EvidencePassage } from '../contract/evidence.js';
import type { StackFrame } from '../explain/frames.js';
import { redactSecrets } from '../explain/redact-secrets.js';
import { listSourceFiles } from '../explain/source-files.js';
import { sourceUnits, unitAt, type SourceUnit } from '../explain/source-units.js';
import type { ExplanationReference } from '../judge/explanation-criteria.js';

/**
 * The judge's evidence for one failure: a small excerpt of the app, not the whole source. It is
 * the failing function, located by the line number of the innermost app frame, plus the functions
 * it calls directly (by name, anywhere in the app), plus the fix location's function when that is
 * elsewhere (so a correct fix can be checked). With no app frame in the stack, the fix location's
 * function stands in for the failing one. Each is a code excerpt as the generator sees code.
 */

/** Every unit of every source file of the app, parsed once per eval. */
export interface AppSource {
  files: Map<string, { lines: string[]; units: SourceUnit[] }>;
}

export function readAppSource(appDir: string): AppSource {
  const files = new Map<string, { lines: string[]; units: SourceUnit[] }>();
  for (const file of listSourceFiles(appDir)) {
    const text = redactSecrets(readFileSync(file.path, 'utf8').replace(/\r\n?/g, '\n'));
    files.set(file.relativePath, { lines: text.split('\n'), units: sourceUnits(file.relativePath, text).units });
  }
  return { files };
}

/** Where the fix goes, as lines of the app (`null` when it is outside the code or not found). */
export function fixLocationLines(source: AppSource, reference: ExplanationReference): [number, number] | null {
  const unit = fixUnit(source, reference);
  return unit === null ? null : [unit.unit.startLine, unit.unit.endLine];
}

function fixUnit(source: AppSource, reference: ExplanationReference): { path: string; unit: SourceUnit } | null {
  const { file, symbol } = reference.fixLocation;
  if (file === null) return null;
  const entry = source.files.get(file);
  if (!entry) return null;
  const unit = entry.units.find((candidate) => candidate.symbol === symbol || candidate.name === symbol);
  if (unit) return { path: file, unit };
  // Not a function (a template variable, a line of data): the window or line that holds it.
  const line = entry.lines.findIndex((text) => text.includes(symbol));
  return line === -1 ? null : { path: file, unit: { symbol, name: null, kind: 'window', startLine: line + 1, endLine: line + 1, callees: [] } };
}

/**
 * The excerpt passages for one failure (see the module comment), failing function first.
 *
 * @example
 * judgeExcerpt(source, explanation.frames, failure.reference).map((passage) => passage.id)
 * // ['src/routes/posts.js#showPost', 'src/db/posts.js#findPost']
 */
export function judgeExcerpt(source: AppSource, frames: readonly StackFrame[], reference: ExplanationReference): EvidencePassage[] {
  const chosen: { path: string; unit: SourceUnit }[] = [];
  const add = (entry: { path: string; unit: SourceUnit } | null) => {
    if (entry === null || chosen.some((known) => known.path === entry.path && known.unit.startLine === entry.unit.startLine && known.unit.endLine === entry.unit.endLine)) return;
    chosen.push(entry);
  };
  const innermost = frames.find((frame) => frame.kind === 'app' && frame.line !== null) ?? null;
  const failing = innermost === null ? null : unitAtFrame(source, innermost);
  add(failing ?? fixUnit(source, reference));
  const first = chosen[0];
  if (first) {
    const byName = new Map<string, { path: string; unit: SourceUnit }[]>();
    for (const [path, entry] of source.files) {
      for (const unit of entry.units) if (unit.name !== null) byName.set(unit.name, [...(byName.get(unit.name) ?? []), { path, unit }]);
    }
    for (const callee of first.unit.callees) for (const definition of byName.get(callee) ?? []) add(definition);
  }
  add(fixUnit(source, reference));
  return chosen.map(({ path, unit }) => {
    const lines = source.files.get(path)!.lines.slice(unit.startLine - 1, unit.endLine);
    return { id: `${path}#${unit.symbol}`, text: renderCodeExcerpt({ path, symbol: unit.symbol, startLine: unit.startLine, lines }), kind: 'chunk' as const, title: path, section: unit.symbol, updated: null };
  });
}

function unitAtFrame(source: AppSource, frame: StackFrame): { path: string; unit: SourceUnit } | null {
  const entry = source.files.get(frame.location);
  if (!entry || frame.line === null) return null;
  const unit = unitAt(entry.units, frame.line);
  return unit === null ? null : { path: frame.location, unit };
}

