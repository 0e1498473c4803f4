import { parse, type ParserPlugin } from '@babel/parser';

/**
 * The units a source file is chunked into: functions, classes and their methods, object methods,
 * route handlers passed inline (`router.get('/x', (req, res) => …)`), multi-line top-level values,
 * and the module code between them. JavaScript and TypeScript are parsed with `@babel/parser`
 * (pure JavaScript, reads TS, JSX and the syntax proposals Node ships); a file it cannot parse,
 * and any other text file (templates, SQL), is cut into overlapping line windows instead.
 */

export type UnitKind = 'function' | 'method' | 'class' | 'value' | 'module' | 'window';

export interface SourceUnit {
  /** What the unit is: `showPost`, `User.toJSON`, `class User`, `router.get('/stats') handler`, `POSTS`, `lines 1–12`. */
  symbol: string;
  /** The name a call would use: `showPost`, `toJSON`; `null` for module code and windows. */
  name: string | null;
  kind: UnitKind;
  /** 1-based, inclusive; leading comments included. */
  startLine: number;
  endLine: number;
  /** Names this unit calls directly (`findPost` for `findPost(id)`, `json` for `res.json(x)`), each once. */
  callees: string[];
}

export interface ParsedSource {
  units: SourceUnit[];
  /** `true` when the parser read the file; `false` when it fell back to line windows. */
  parsed: boolean;
}

export interface UnitOptions {
  /** Lines per window for files that are not parsed, and for module code. [windowLines=40] */
  windowLines?: number;
  /** Lines repeated between consecutive windows. [overlapLines=10] */
  overlapLines?: number;
}

/** Extensions read with the parser. */
export const PARSED_EXTENSIONS: ReadonlySet<string> = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);

interface AstNode {
  type: string;
  start?: number | null;
  end?: number | null;
  loc?: { start: { line: number }; end: { line: number } } | null;
  leadingComments?: AstNode[] | null;
  [key: string]: unknown;
}

/**
 * The units of one file. `path` decides the parser plugins by its extension.
 *
 * @example
 * sourceUnits('src/a.js', 'export function f() {\n  return g();\n}').units
 * // [{ symbol: 'f', name: 'f', kind: 'function', startLine: 1, endLine: 3, callees: ['g'] }]
 */
export function sourceUnits(path: string, text: string, options: UnitOptions = {}): ParsedSource {
  const windowLines = Math.max(5, options.windowLines ?? 40);
  const overlapLines = Math.min(windowLines - 1, Math.max(0, options.overlapLines ?? 10));
  const lineCount = text.split('\n').length;
  const extension = /\.[^./]+$/.exec(path)?.[0]?.toLowerCase() ?? '';
  if (PARSED_EXTENSIONS.has(extension)) {
    const program = parseProgram(text, extension);
    if (program !== null) {
      const units = programUnits(program, text);
      const covered = new Array<boolean>(lineCount + 1).fill(false);
      for (const unit of units) for (let line = unit.startLine; line <= unit.endLine; line++) covered[line] = true;
      const lines = text.split('\n');
      const moduleUnits = uncoveredRanges(covered, lines, lineCount).flatMap(([start, end]) =>
        windows(start, end, windowLines, overlapLines).map(([from, to]) => ({ symbol: `lines ${from}–${to}`, name: null, kind: 'module' as const, startLine: from, endLine: to, callees: [] })),
      );
      return { units: [...units, ...moduleUnits].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine), parsed: true };
    }
  }
  const units = windows(1, lineCount, windowLines, overlapLines).map(([from, to]) => ({ symbol: `lines ${from}–${to}`, name: null, kind: 'window' as const, startLine: from, endLine: to, callees: [] }));
  return { units, parsed: false };
}

function parseProgram(text: string, extension: string): AstNode[] | null {
  const typescript = extension === '.ts' || extension === '.mts' || extension === '.cts' || extension === '.tsx';
  const plugins: ParserPlugin[] = typescript ? ['typescript', 'decorators-legacy'] : ['jsx'];
  if (extension === '.tsx') plugins.push('jsx');
  try {
    const file = parse(text, {
      sourceType: 'unambiguous',
      plugins,
      errorRecovery: true,
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      allowImportExportEverywhere: true,
      allowUndeclaredExports: true,
    }) as unknown as { program: { body: AstNode[] }; errors?: unknown[] };
    // With errorRecovery the parser returns what it could read; many errors mean the tree is guesswork.
    if ((file.errors?.length ?? 0) > 5) return null;
    return file.program.body;
  } catch {
    return null;
  }
}

function programUnits(body: AstNode[], text: string): SourceUnit[] {
  const units: SourceUnit[] = [];
  for (const statement of body) {
    const start = startLine(statement);
    const declaration = unwrapExport(statement);
    if (declaration === null) continue;
    const type = declaration.type;
    if (type === 'FunctionDeclaration' || type === 'TSDeclareFunction') {
      if (type === 'TSDeclareFunction') continue;
      const name = identifierName(declaration.id) ?? (statement.type === 'ExportDefaultDeclaration' ? 'default' : 'anonymous');
      units.push(unit(name, name, 'function', start, endLine(statement), declaration));
    } else if (type === 'ClassDeclaration') {
      units.push(...classUnits(declaration, identifierName(declaration.id) ?? 'default', start, endLine(statement)));
    } else if (type === 'VariableDeclaration') {
      for (const declarator of nodes(declaration.declarations)) units.push(...declaratorUnits(declarator, statement, body.length > 0 ? start : start));
    } else if (type === 'ExpressionStatement') {
      units.push(...callbackUnits(declaration, text));
    } else if (type === 'TSInterfaceDeclaration' || type === 'TSTypeAliasDeclaration' || type === 'TSEnumDeclaration') {
      const name = identifierName(declaration.id);
      const kindWord = type === 'TSInterfaceDeclaration' ? 'interface' : type === 'TSTypeAliasDeclaration' ? 'type' : 'enum';
      if (name !== null && endLine(statement) > start) units.push(unit(`${kindWord} ${name}`, name, 'value', start, endLine(statement), null));
    } else if (isFunctionNode(declaration)) {
      // `export default (req, res) => …` and friends
      units.push(unit('default', 'default', 'function', start, endLine(statement), declaration));
    } else if (declaration.type === 'ClassExpression') {
      units.push(...classUnits(declaration, 'default', start, endLine(statement)));
    }
  }
  return units;
}

function unwrapExport(statement: AstNode): AstNode | null {
  if (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') {
    const declaration = statement.declaration as AstNode | null | undefined;
    return declaration ?? null;
  }
  return statement;
}

function declaratorUnits(declarator: AstNode, statement: AstNode, start: number): SourceUnit[] {
  const name = identifierName(declarator.id);
  const init = declarator.init as AstNode | null | undefined;
  if (name === null || !init) return [];
  const end = endLine(statement);
  if (isFunctionNode(init)) return [unit(name, name, 'function', start, end, init)];
  if (init.type === 'ClassExpression') return classUnits(init, name, start, end);
  if (init.type === 'ObjectExpression') {
    const methods = objectMethodUnits(init, name);
    if (methods.length > 0) return [...methods, ...headerUnit(name, 'value', start, methods[0]!.startLine - 1)];
  }
  if (end > start && (init.type === 'ObjectExpression' || init.type === 'ArrayExpression' || init.type === 'CallExpression' || init.type === 'TemplateLiteral' || init.type === 'NewExpression')) {
    return [unit(name, name, 'value', start, end, init)];
  }
  return [];
}

function classUnits(node: AstNode, className: string, start: number, end: number): SourceUnit[] {
  const members = nodes((node.body as AstNode | undefined)?.body);
  const methods: SourceUnit[] = [];
  for (const member of members) {
    const key = propertyName(member.key as AstNode | undefined, member.computed === true);
    if (key === null) continue;
    const prefix = member.kind === 'get' ? 'get ' : member.kind === 'set' ? 'set ' : member.static === true ? 'static ' : '';
    if (member.type === 'ClassMethod' || member.type === 'ClassPrivateMethod' || member.type === 'TSDeclareMethod') {
      if (member.type === 'TSDeclareMethod') continue;
      methods.push(unit(`${className}.${prefix}${key}`, key, 'method', startLine(member), endLine(member), member));
    } else if ((member.type === 'ClassProperty' || member.type === 'ClassPrivateProperty') && isFunctionNode(member.value as AstNode | undefined)) {
      methods.push(unit(`${className}.${prefix}${key}`, key, 'method', startLine(member), endLine(member), member.value as AstNode));
    }
  }
  if (methods.length === 0) return [unit(`class ${className}`, className, 'class', start, end, node)];
  const header = headerUnit(`class ${className}`, 'class', start, methods[0]!.startLine - 1, className);
  return [...header, ...methods];
}

function headerUnit(symbol: string, kind: UnitKind, start: number, end: number, name: string | null = symbol): SourceUnit[] {
  return end >= start ? [{ symbol, name, kind, startLine: start, endLine: end, callees: [] }] : [];
}

function objectMethodUnits(object: AstNode, objectName: string): SourceUnit[] {
  const units: SourceUnit[] = [];
  for (const property of nodes(object.properties)) {
    const key = propertyName(property.key as AstNode | undefined, property.computed === true);
    if (key === null) continue;
    if (property.type === 'ObjectMethod') units.push(unit(`${objectName}.${key}`, key, 'method', startLine(property), endLine(property), property));
    else if (property.type === 'ObjectProperty' && isFunctionNode(property.value as AstNode | undefined)) {
      units.push(unit(`${objectName}.${key}`, key, 'method', startLine(property), endLine(property), property.value as AstNode));
    }
  }
  return units;
}

/** Functions passed to a call at the top level: `router.get('/posts/:id', async (req, res) => …)`. */
function callbackUnits(statement: AstNode, text: string): SourceUnit[] {
  const call = statement.expression as AstNode | undefined;
  if (!call || call.type !== 'CallExpression') return [];
  const callbacks = nodes(call.arguments).filter((argument) => isFunctionNode(argument));
  if (callbacks.length === 0) return [];
  const callee = call.callee as AstNode;
  const calleeText = sourceText(callee, text).replace(/\s+/g, ' ').slice(0, 40);
  const first = nodes(call.arguments)[0];
  const label = first && (first.type === 'StringLiteral' || first.type === 'TemplateLiteral') ? `(${sourceText(first, text).slice(0, 40)})` : '';
  return callbacks.map((callback, index) => {
    const symbol = `${calleeText}${label} ${callbacks.length > 1 ? `callback ${index + 1}` : 'handler'}`;
    return unit(symbol, null, 'function', index === 0 ? startLine(statement) : startLine(callback), index === callbacks.length - 1 ? endLine(statement) : endLine(callback), callback);
  });
}

function unit(symbol: string, name: string | null, kind: UnitKind, start: number, end: number, node: AstNode | null): SourceUnit {
  return { symbol, name, kind, startLine: start, endLine: Math.max(start, end), callees: node ? calleesOf(node) : [] };
}

/** Names called directly inside `node` (nested functions included: they run as part of it). */
function calleesOf(node: AstNode): string[] {
  const names = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object' || typeof (value as AstNode).type !== 'string') return;
    const current = value as AstNode;
    if (current.type === 'CallExpression' || current.type === 'NewExpression' || current.type === 'OptionalCallExpression') {
      const callee = current.callee as AstNode;
      const name = callee.type === 'Identifier' ? (callee.name as string) : callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression' ? propertyName(callee.property as AstNode, callee.computed === true) : null;
      if (name !== null) names.add(name);
    }
    for (const [key, child] of Object.entries(current)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra') continue;
      if (child !== null && typeof child === 'object') visit(child);
    }
  };
  visit(node);
  return [...names];
}

function isFunctionNode(node: AstNode | null | undefined): boolean {
  return node?.type === 'ArrowFunctionExpression' || node?.type === 'FunctionExpression';
}

function identifierName(node: unknown): string | null {
  const candidate = node as AstNode | null | undefined;
  return candidate?.type === 'Identifier' ? (candidate.name as string) : null;
}

function propertyName(key: AstNode | undefined, computed: boolean): string | null {
  if (!key) return null;
  if (key.type === 'Identifier' && !computed) return key.name as string;
  if (key.type === 'PrivateName') return `#${identifierName(key.id) ?? ''}`;
  if (key.type === 'StringLiteral' || key.type === 'NumericLiteral') return String(key.value);
  return null;
}

function nodes(value: unknown): AstNode[] {
  return Array.isArray(value) ? (value.filter((item) => item !== null && typeof item === 'object') as AstNode[]) : [];
}

function startLine(node: AstNode): number {
  const comments = node.leadingComments ?? [];
  const first = comments.length > 0 ? comments[0]!.loc?.start.line : undefined;
  return Math.min(first ?? Infinity, node.loc?.start.line ?? 1);
}

function endLine(node: AstNode): number {
  return node.loc?.end.line ?? startLine(node);
}

function sourceText(node: AstNode, text: string): string {
  return typeof node.start === 'number' && typeof node.end === 'number' ? text.slice(node.start, node.end) : '';
}

/** Line ranges no unit covers, without blank lines at their ends; empty ranges dropped. */
function uncoveredRanges(covered: boolean[], lines: string[], lineCount: number): [number, number][] {
  const ranges: [number, number][] = [];
  let start: number | null = null;
  for (let line = 1; line <= lineCount + 1; line++) {
    const free = line <= lineCount && !covered[line];
    if (free && start === null) start = line;
    if (!free && start !== null) {
      let from = start;
      let to = line - 1;
      while (from <= to && lines[from - 1]!.trim() === '') from += 1;
      while (to >= from && lines[to - 1]!.trim() === '') to -= 1;
      // A range of closing braces alone (the end of a class) says nothing on its own.
      if (from <= to && lines.slice(from - 1, to).some((text) => /[\p{L}\p{N}]/u.test(text))) ranges.push([from, to]);
      start = null;
    }
  }
  return ranges;
}

/** Windows of `size` lines over [start, end], each overlapping the previous by `overlap` lines. */
export function windows(start: number, end: number, size: number, overlap: number): [number, number][] {
  if (end < start) return [];
  const result: [number, number][] = [];
  for (let from = start; ; from += size - overlap) {
    const to = Math.min(end, from + size - 1);
    result.push([from, to]);
    if (to >= end) break;
  }
  return result;
}

/** The innermost function or method unit containing `line` (`null` when the line is in module code). */
export function unitAt(units: readonly SourceUnit[], line: number): SourceUnit | null {
  let best: SourceUnit | null = null;
  for (const candidate of units) {
    if (candidate.startLine > line || candidate.endLine < line) continue;
    if (candidate.kind === 'module' || candidate.kind === 'window') continue;
    if (best === null || candidate.endLine - candidate.startLine < best.endLine - best.startLine) best = candidate;
  }
  return best;
}
