/**
 * What lines of code call: the names a line calls (`findPost` in `const post = findPost(id);`),
 * less the words of the language and of Express that say nothing about where a value came from,
 * and the functions a failing line's values came from. Shared by the offline explainer (which
 * quotes the `return` of a called function) and source retrieval (which brings that function's
 * excerpt to the model).
 */

/** Words of code that say nothing about which line matters. */
export const CODE_NOISE: ReadonlySet<string> = new Set([
  'const', 'let', 'var', 'return', 'await', 'async', 'function', 'new', 'if', 'else', 'for', 'of', 'in', 'this', 'true', 'false', 'null', 'undefined',
  'req', 'res', 'next', 'export', 'import', 'from', 'default', 'class', 'throw', 'try', 'catch', 'typeof', 'json', 'status', 'send', 'type', 'Number', 'String',
]);

/**
 * @example
 * calledNames('const post = findPost(Number(req.params.id));') // ['findPost']
 */
export function calledNames(code: string): string[] {
  return [...code.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)].map((match) => match[1]!).filter((name) => !CODE_NOISE.has(name));
}

/**
 * Where the failing line's values came from: the functions it calls, then those called on the
 * lines above it (nearest first, within its own function) that assign a name the failing line
 * uses (`const post = findPost(id)` for `post.title`).
 *
 * @example
 * valueSources(['function showPost(req, res) {', '  const post = findPost(req.params.id);', '  res.json({ title: post.title });'], 2) // ['findPost']
 */
export function valueSources(lines: readonly string[], failing: number): string[] {
  const line = lines[failing] ?? '';
  const names = calledNames(line);
  const used = new Set(line.match(/[A-Za-z_$][\w$]*/g) ?? []);
  for (let index = failing - 1; index >= 0; index--) {
    const code = lines[index]!;
    // The failing function's own head: what is above it belongs to other code.
    if (/\bfunction\b|=>\s*\{\s*$/.test(code)) break;
    const assigned = /(?:\b(?:const|let|var)\s+)?([A-Za-z_$][\w$]*)\s*=(?![=>])/.exec(code)?.[1];
    if (assigned !== undefined && used.has(assigned)) names.push(...calledNames(code));
  }
  return [...new Set(names)];
}

/**
 * Whether an excerpt's symbol defines the function `name`: the function itself, or a method of
 * that name (`User.toJSON` for `toJSON`).
 */
export function definesName(symbol: string, name: string): boolean {
  return symbol === name || symbol.endsWith(`.${name}`);
}

/**
 * A stack frame's function as code calls it: without V8's `async ` mark and the receiver
 * (`async User.toJSON` → `toJSON`).
 */
export function calledAs(functionName: string): string {
  return functionName.replace(/^async /, '').split('.').pop()!;
}
