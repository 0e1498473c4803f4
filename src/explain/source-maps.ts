import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { ParsedStack } from './frames.js';

/**
 * Source-map resolution of stack frames, so a frame in compiled output (`dist/routes/posts.js`)
 * names the TypeScript it came from (`src/routes/posts.ts:14`). Maps are read from the generated
 * file's `//# sourceMappingURL=` comment (a data URL or a file beside it) with
 * `@jridgewell/trace-mapping`; Node's own `module.findSourceMap` only knows maps when the process
 * was started with `--enable-source-maps`. A process that already maps its stacks (that flag,
 * tsx) gives frames in the original files, which have no map and pass through unchanged.
 */

type Frame = ParsedStack['frames'][number];

export interface SourceMapResolverOptions {
  /** Only files inside these folders are read (the app's root): no map is looked for elsewhere. */
  roots: readonly string[];
  /** Reads a file as text, `null` when it cannot. [readText=fs.readFileSync] */
  readText?: (path: string) => string | null;
  /** Generated files whose map is remembered (found or not). [cacheSize=256] */
  cacheSize?: number;
}

export interface SourceMapResolver {
  /** The frame at its original position, or as it was when its file has no usable map. */
  resolve(frame: Frame): Frame;
}

const MAPPING_URL = /\/[/*][#@]\s*sourceMappingURL=([^\s*]+)\s*(?:\*\/\s*)?$/;

/**
 * @example
 * const resolver = createSourceMapResolver({ roots: [appRoot] });
 * const frames = parseStack(error).frames.map((frame) => resolver.resolve(frame));
 */
export function createSourceMapResolver(options: SourceMapResolverOptions): SourceMapResolver {
  const readText = options.readText ?? defaultReadText;
  const cacheSize = options.cacheSize ?? 256;
  const maps = new Map<string, TraceMap | null>();

  function mapFor(file: string): TraceMap | null {
    if (maps.has(file)) return maps.get(file)!;
    let map: TraceMap | null = null;
    try {
      map = loadMap(file, readText);
    } catch {
      map = null; // a broken map must never break the error page
    }
    if (maps.size >= cacheSize) maps.delete(maps.keys().next().value!);
    maps.set(file, map);
    return map;
  }

  return {
    resolve(frame) {
      if (frame.line === null || !isAbsolute(frame.file) || !options.roots.some((root) => isWithin(frame.file, root))) return frame;
      const map = mapFor(frame.file);
      if (map === null) return frame;
      const original = originalPositionFor(map, { line: frame.line, column: Math.max(0, (frame.column ?? 1) - 1) });
      if (original.source === null || original.line === null) return frame;
      const source = original.source.startsWith('file://') ? fileURLToPath(original.source) : original.source;
      return {
        ...frame,
        file: source,
        line: original.line,
        column: original.column === null ? null : original.column + 1,
        generated: { file: frame.file, line: frame.line, column: frame.column },
      };
    },
  };
}

function loadMap(file: string, readText: (path: string) => string | null): TraceMap | null {
  const code = readText(file);
  if (code === null) return null;
  // The comment is on one of the last lines; reading only the end keeps this cheap for big bundles.
  const tail = code.slice(-4096).trimEnd().split('\n').slice(-3).reverse();
  const url = tail.map((line) => MAPPING_URL.exec(line)?.[1]).find((found) => found !== undefined);
  if (url === undefined) return null;
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const meta = url.slice(5, comma);
    const payload = url.slice(comma + 1);
    const json = meta.endsWith(';base64') ? Buffer.from(payload, 'base64').toString('utf8') : decodeURIComponent(payload);
    return new TraceMap(json, file);
  }
  const mapPath = url.startsWith('file://') ? fileURLToPath(url) : resolve(dirname(file), decodeURIComponent(url));
  const json = readText(mapPath);
  return json === null ? null : new TraceMap(json, mapPath);
}

function defaultReadText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function isWithin(path: string, root: string): boolean {
  const withSeparator = root.endsWith('/') ? root : `${root}/`;
  return path === root || path.startsWith(withSeparator);
}
