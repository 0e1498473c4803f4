import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InvalidInputError } from '../errors.js';
import { HTML_FILE_EXTENSION } from '../rag/chunk.js';
import { isGeneratedPage } from '../text/generated-mark.js';

/**
 * Which files of an app are its source: code (JavaScript and TypeScript) and the text files code
 * reads as templates or queries. Dependencies, version control and build output are never
 * included; neither are dot-files (`.env` holds secrets, not code).
 */

/** Folders never walked into, wherever they are. */
export const EXCLUDED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', 'out', 'coverage', 'tmp', 'temp', 'bower_components', 'jspm_packages', 'vendor']);

/** Extensions of the files indexed: code, templates, queries. */
export const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx',
  '.html', '.htm', '.ejs', '.hbs', '.handlebars', '.mustache', '.pug', '.njk', '.liquid', '.vue', '.svelte',
  '.sql', '.graphql', '.gql',
]);

/** Files larger than this are not indexed (generated bundles, fixtures). */
export const MAX_SOURCE_FILE_BYTES = 512 * 1024;

export interface SourceFileOptions {
  /** More folder names or root-relative paths (`src/generated`) to leave out. [exclude=[]] */
  exclude?: readonly string[];
}

/** One source file found under the root. */
export interface SourceFile {
  /** Absolute path. */
  path: string;
  /** Relative to the root, `/`-separated. */
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/**
 * Every source file under `root`, sorted by relative path.
 *
 * @throws InvalidInputError `not_found` or `not_a_folder` for a bad root.
 * @example
 * listSourceFiles('.', { exclude: ['scripts'] }).map((file) => file.relativePath)
 */
export function listSourceFiles(root: string, options: SourceFileOptions = {}): SourceFile[] {
  let stats;
  try {
    stats = statSync(root);
  } catch {
    throw new InvalidInputError(`folder ${root} does not exist`, { code: 'not_found' });
  }
  if (!stats.isDirectory()) throw new InvalidInputError(`${root} is not a folder`, { code: 'not_a_folder' });
  const excluded = new Set((options.exclude ?? []).map((entry) => entry.replace(/\\/g, '/').replace(/^\.\/|\/+$/g, '')));
  const files: SourceFile[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const full = join(folder, entry.name);
      const relativePath = relative(root, full).split(sep).join('/');
      if (excluded.has(entry.name) || excluded.has(relativePath)) continue;
      if (entry.isDirectory()) {
        if (!EXCLUDED_FOLDERS.has(entry.name)) walk(full);
        continue;
      }
      if (!entry.isFile() || !isSourceName(entry.name)) continue;
      const fileStats = statSync(full);
      if (fileStats.size > MAX_SOURCE_FILE_BYTES) continue;
      // A page groundcheck wrote (an eval report under the app's folder) is output, not source.
      if (HTML_FILE_EXTENSION.test(entry.name) && isGeneratedPage(fileHead(full))) continue;
      files.push({ path: full, relativePath, size: fileStats.size, mtimeMs: fileStats.mtimeMs });
    }
  };
  walk(root);
  return files;
}

/** The first kilobyte of a file, as text ('' when it cannot be read). */
function fileHead(path: string): string {
  let descriptor: number | null = null;
  try {
    descriptor = openSync(path, 'r');
    const buffer = Buffer.alloc(1024);
    return buffer.toString('utf8', 0, readSync(descriptor, buffer, 0, buffer.length, 0));
  } catch {
    return '';
  } finally {
    if (descriptor !== null) closeSync(descriptor);
  }
}

/** Whether a file name is one the index reads (minified bundles, maps and `.d.ts` declarations are not). */
export function isSourceName(name: string): boolean {
  if (/\.min\.[cm]?js$|\.d\.[cm]?ts$|\.map$/i.test(name)) return false;
  const extension = /\.[^.]+$/.exec(name)?.[0]?.toLowerCase();
  return extension !== undefined && SOURCE_EXTENSIONS.has(extension);
}
