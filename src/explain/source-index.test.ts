import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCodeExcerpt } from '../contract/code.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { openIndex } from '../rag/store.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { GENERATOR_META } from '../text/generated-mark.js';
import { redactSecrets, SECRET_MARK } from './redact-secrets.js';
import { chunkSourceFile } from './source-chunks.js';
import { listSourceFiles } from './source-files.js';
import { indexSource } from './source-index.js';
import { sourceUnits } from './source-units.js';

const TS_SOURCE = `import { db } from './db';

/** Posts, by id. */
export class PostStore {
  private cache = new Map<number, Post>();

  constructor(private readonly prefix: string) {}

  async find(id: number): Promise<Post | undefined> {
    return this.cache.get(id) ?? (await db.load(this.prefix, id));
  }

  get size(): number {
    return this.cache.size;
  }
}

export interface Post {
  id: number;
  title: string;
}

export const handlers = {
  show(req: Request) {
    return render(req);
  },
};

export default function register(router: Router) {
  router.get('/posts/:id', (req, res) => res.json(handlers.show(req)));
}

router.post('/posts', async (req, res) => {
  res.status(201).json(await save(req.body));
});
`;

describe('chunking source by function, class and method', () => {
  it('reads TypeScript with the parser: classes split into methods, object methods, inline route handlers, interfaces, module code', () => {
    const { parsed, units } = sourceUnits('src/store.ts', TS_SOURCE);
    expect(parsed).toBe(true);
    expect(units.map((unit) => [unit.symbol, unit.kind, unit.startLine, unit.endLine])).toEqual([
      ['lines 1–1', 'module', 1, 1],
      ['class PostStore', 'class', 3, 6],
      ['PostStore.constructor', 'method', 7, 7],
      ['PostStore.find', 'method', 9, 11],
      ['PostStore.get size', 'method', 13, 15],
      ['interface Post', 'value', 18, 21],
      ['handlers', 'value', 23, 23],
      ['handlers.show', 'method', 24, 26],
      ['register', 'function', 29, 31],
      ["router.post('/posts') handler", 'function', 33, 35],
    ]);
    expect(units.find((unit) => unit.symbol === 'PostStore.find')?.callees).toEqual(['get', 'load']);
  });

  it('falls back to overlapping line windows for what it cannot parse, and for templates', () => {
    const broken = Array.from({ length: 50 }, (_, index) => (index === 10 ? 'function ((( {' : `const a${index} = ${index};`)).join('\n');
    const result = sourceUnits('src/broken.js', `${broken}\n}}}}}}}}`.replace(/const a(\d+) = \1;/g, (line) => `${line} )) ]] {{`));
    expect(result.parsed).toBe(false);
    expect(result.units.map((unit) => [unit.startLine, unit.endLine])).toEqual([[1, 40], [31, 51]]);
    expect(sourceUnits('views/post.html', '<h1>{{ title }}</h1>').units).toEqual([{ symbol: 'lines 1–1', name: null, kind: 'window', startLine: 1, endLine: 1, callees: [] }]);
  });

  it('renders each chunk as a numbered code excerpt with its path and symbol, and long units in windows', () => {
    const chunks = chunkSourceFile('src/store.ts', TS_SOURCE);
    const find = chunks.find((chunk) => chunk.section === 'PostStore.find')!;
    expect(find.chunkId).toBe('src/store.ts#PostStore.find');
    expect(parseCodeExcerpt(find.modelText)).toEqual({ path: 'src/store.ts', symbol: 'PostStore.find', startLine: 9, lines: TS_SOURCE.split('\n').slice(8, 11) });
    // Full-text search also reads identifiers split into words.
    expect(chunks.find((chunk) => chunk.section === 'class PostStore')!.text).toContain('post store');
    const long = `function big() {\n${Array.from({ length: 100 }, (_, index) => `  step${index}();`).join('\n')}\n}`;
    expect(chunkSourceFile('src/big.js', long, { maxUnitLines: 60 }).map((chunk) => chunk.section)).toEqual(['big (lines 1–60)', 'big (lines 51–102)']);
  });
});

describe('secret redaction', () => {
  it.each([
    ['const apiKey = "sk-proj-abcdefghijklmnopqrstuvwx";', `const apiKey = "${SECRET_MARK}";`],
    ["headers: { Authorization: 'Bearer eyJhbGciOi.eyJzdWIiOiIx.SflKxwRJSMeKKF2QT4' },", `headers: { Authorization: '${SECRET_MARK}' },`],
    ["send(['Bearer abcdefgh12345678'])", `send(['Bearer ${SECRET_MARK}'])`],
    ['OPENAI_API_KEY=sk-live-1234567890abcdef', `OPENAI_API_KEY=${SECRET_MARK}`],
    ['export DATABASE_URL=postgres://app:hunter2@db:5432/blog', `export DATABASE_URL=${SECRET_MARK}`],
    ["const url = 'postgres://app:hunter2@db:5432/blog';", `const url = 'postgres://app:${SECRET_MARK}@db:5432/blog';`],
    ['const aws = AKIAIOSFODNN7EXAMPLE;', `const aws = ${SECRET_MARK};`],
    ["password: 'correct horse',", `password: '${SECRET_MARK}',`],
    ['if (a == b) return x;', 'if (a == b) return x;'],
    ['const total = price * 2;', 'const total = price * 2;'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('masks private keys line by line, so line numbers stay right', () => {
    const text = 'a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----\nb';
    expect(redactSecrets(text)).toBe(`a\n-----BEGIN RSA PRIVATE KEY-----\n${SECRET_MARK}\n${SECRET_MARK}\n-----END RSA PRIVATE KEY-----\nb`);
  });
});

describe('the source index', () => {
  function app() {
    const root = tempDir();
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'config.js'), "export const config = {\n  apiKey: 'sk-abcdefghijklmnopqrstuvwxyz123456',\n  dsn: 'postgres://blog:s3cr3t-pass@localhost/blog',\n};\nexport function token() {\n  return 'Bearer abcdefghijklmnop0123';\n}\n");
    writeFileSync(join(root, 'src', 'posts.ts'), 'export function findPost(id: number) {\n  return posts.find((post) => post.id === id);\n}\n');
    writeFileSync(join(root, 'deploy.sh'), 'STRIPE_KEY=sk_live_abcdefghijklmnop\n');
    for (const folder of ['node_modules/lib', 'dist', 'build', '.git', 'coverage']) {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, folder, 'index.js'), 'export function excluded() {}\n');
    }
    writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx\n');
    writeFileSync(join(root, 'src', 'bundle.min.js'), 'function a(){}\n');
    return root;
  }

  it('lists source files only: no node_modules, dist, build, .git, coverage, dot-files, minified bundles or groundcheck reports', () => {
    const root = app();
    // A template is source; a report groundcheck wrote under the app's folder is not.
    mkdirSync(join(root, 'views'));
    writeFileSync(join(root, 'views', 'post.html'), '<!doctype html>\n<html><head><title>{{ post.title }}</title></head></html>\n');
    mkdirSync(join(root, 'evals', 'results'), { recursive: true });
    writeFileSync(join(root, 'evals', 'results', 'shop.html'), `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n${GENERATOR_META}\n<title>groundcheck eval · shop · passed</title>\n`);
    expect(listSourceFiles(root).map((file) => file.relativePath)).toEqual(['src/config.js', 'src/posts.ts', 'views/post.html']);
  });

  it('masks secrets before anything is indexed: no stored chunk, model text or search text holds one', async () => {
    const root = app();
    const index = openIndex({ path: join(tempDir(), 'source.db'), embedder: createLocalEmbedder() });
    onCleanup(() => index.close());
    const summary = await indexSource(index, root);
    expect(summary.added).toEqual(['src/config.js', 'src/posts.ts']);
    const stored = [...index.chunkHashes().keys()].map((chunkId) => index.getChunk(chunkId)!);
    const everything = stored.map((chunk) => `${chunk.text}\n${chunk.modelText}`).join('\n');
    for (const secret of ['sk-abcdefghijklmnopqrstuvwxyz123456', 's3cr3t-pass', 'abcdefghijklmnop0123', 'sk_live']) expect(everything).not.toContain(secret);
    expect(everything).toContain(`apiKey: '${SECRET_MARK}'`);
    expect(stored.map((chunk) => chunk.chunkId).sort()).toEqual(['src/config.js#config', 'src/config.js#token', 'src/posts.ts#findPost']);
    expect(index.textSearch('"excluded"', 5)).toEqual([]);
  });

  it('refreshes incrementally: unchanged files skipped, changed replaced, deleted removed', async () => {
    const root = app();
    const index = openIndex({ path: join(tempDir(), 'source.db'), embedder: createLocalEmbedder() });
    onCleanup(() => index.close());
    await indexSource(index, root);
    writeFileSync(join(root, 'src', 'posts.ts'), 'export function findPost(id: number) {\n  return undefined;\n}\nexport function listPosts() {\n  return [];\n}\n');
    rmSync(join(root, 'src', 'config.js'));
    writeFileSync(join(root, 'src', 'new.js'), 'export const x = () => 1;\n');
    const summary = await indexSource(index, root);
    expect({ added: summary.added, replaced: summary.replaced, skipped: summary.skipped, removed: summary.removed }).toEqual({ added: ['src/new.js'], replaced: ['src/posts.ts'], skipped: [], removed: ['src/config.js'] });
    const again = await indexSource(index, root);
    expect(again.skipped).toEqual(['src/new.js', 'src/posts.ts']);
    expect(index.getChunk('src/posts.ts#listPosts')).toBeDefined();
  });
});
