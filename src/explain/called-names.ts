/**
 * The names a line of code calls (`findPost` in `const post = findPost(id);`), less the words of
 * the language and of Express that say nothing about where a value came from. Shared by the
 * offline explainer (which quotes the `return` of a called function) and source retrieval (which
 * brings that function's excerpt to the model).
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
