/**
 * What common V8 and Node error messages mean, and the usual first fix: the rule table the offline
 * explainer reads. Each rule names the identifiers its message mentions, so the explainer can look
 * for them in the code.
 */

export interface ErrorReading {
  /** One or two plain sentences. */
  meaning: string;
  /** The usual first fix for this kind of error, in general terms. */
  fix: string;
  /** Identifiers or paths the message names (`id` in "reading 'id'"). */
  terms: string[];
}

interface Rule {
  pattern: RegExp;
  read(match: RegExpExecArray): ErrorReading;
}

const RULES: Rule[] = [
  {
    pattern: /Cannot read propert(?:y|ies) of (undefined|null) \(reading '([^']*)'\)/,
    read: (match) => ({
      meaning: `This means the code read \`.${match[2]}\` from a value that was \`${match[1]}\`: the object it expected is missing, so the value on the left of \`.${match[2]}\` is where to look.`,
      fix: `check that value before reading \`.${match[2]}\`; if it comes from a lookup, handle the not-found case (for example answer 404), and if it comes from the request, check the parameter or field name.`,
      terms: [match[2]!],
    }),
  },
  {
    pattern: /Cannot set propert(?:y|ies) of (undefined|null) \(setting '([^']*)'\)/,
    read: (match) => ({
      meaning: `This means the code assigned \`.${match[2]}\` on a value that was \`${match[1]}\`.`,
      fix: `make sure the object exists before assigning \`.${match[2]}\`.`,
      terms: [match[2]!],
    }),
  },
  {
    pattern: /(\S+?) is not a function/,
    read: (match) => ({
      meaning: `This means \`${match[1]}\` was called as a function, but at that moment it held something else: often a Promise that was not awaited, \`undefined\`, or a method name that does not exist on that value.`,
      fix: `check what \`${match[1]}\` holds at that line: add a missing \`await\`, or correct the name of the method.`,
      terms: identifiers(match[1]!),
    }),
  },
  {
    pattern: /(\S+) is not iterable/,
    read: (match) => ({
      meaning: `This means the code looped over or spread \`${match[1]}\`, which is not a list (it may be undefined, an object or a Promise).`,
      fix: `make sure \`${match[1]}\` is an array at that point (await it, or default it to \`[]\`).`,
      terms: identifiers(match[1]!),
    }),
  },
  {
    pattern: /ReferenceError: (\S+) is not defined/,
    read: (match) => ({
      meaning: `This means the name \`${match[1]}\` does not exist where it is used: it was never declared or imported there, or it is misspelled.`,
      fix: `declare or import \`${match[1]}\`, or correct its spelling to the name that exists.`,
      terms: [match[1]!],
    }),
  },
  {
    pattern: /Maximum call stack size exceeded/,
    read: () => ({
      meaning: 'This means a function kept calling itself, directly or through another function, until the call stack ran out: look at the frames that repeat.',
      fix: 'find the call that starts the cycle (in the repeated frames) and end it, so the function no longer calls itself.',
      terms: [],
    }),
  },
  {
    pattern: /Cannot assign to read only property '([^']*)'/,
    read: (match) => ({
      meaning: `This means the code changed \`${match[1]}\` on an object that cannot be changed (it was frozen with \`Object.freeze\`, or the property is read-only).`,
      fix: `keep the changing value in a separate, writable place instead of the frozen object, or copy the object before changing it.`,
      terms: [match[1]!],
    }),
  },
  {
    pattern: /Invalid time value|Invalid Date/,
    read: () => ({
      meaning: 'This means a `Date` was built from a value JavaScript cannot read as a date, and then formatted.',
      fix: 'store and pass dates in ISO 8601 (year-month-day), or parse the format explicitly before building the `Date`.',
      terms: [],
    }),
  },
  {
    pattern: /Cannot find (?:module|package) '([^']+)'/,
    read: (match) => ({
      meaning: `This means the module \`${match[1]}\` does not exist where the import or require looked for it.`,
      fix: 'correct the import path to a file or package that exists (or install the package).',
      terms: [lastSegment(match[1]!)],
    }),
  },
  {
    pattern: /ENOENT: no such file or directory, \w+ '([^']+)'/,
    read: (match) => ({
      meaning: `This means the file \`${match[1]}\` does not exist.`,
      fix: 'correct the file name or path in the code, or create the file.',
      terms: [lastSegment(match[1]!)],
    }),
  },
  {
    pattern: /is not valid JSON|in JSON at position|Unexpected (?:token|end of) .*JSON/,
    read: () => ({
      meaning: 'This means text that was parsed as JSON is not valid JSON.',
      fix: 'send valid JSON: double-quoted keys and strings, and no trailing commas.',
      terms: [],
    }),
  },
];

/**
 * How to read an error header; `null` when no rule knows its message.
 *
 * @example
 * readError("TypeError: Cannot read properties of undefined (reading 'id')")?.terms // ['id']
 */
export function readError(header: string): ErrorReading | null {
  for (const rule of RULES) {
    const match = rule.pattern.exec(header);
    if (match) return rule.read(match);
  }
  return null;
}

function identifiers(expression: string): string[] {
  return expression.match(/[A-Za-z_$][\w$]*/g) ?? [];
}

function lastSegment(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
