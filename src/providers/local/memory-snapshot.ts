import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderChunkText } from '../../contract/formats.js';
import { InvalidInputError } from '../../errors.js';
import { sourcesFromPrompt, type Source } from './prompt-sources.js';

/** The bundled training snapshot (a simulation: README.md in that folder). */
export const DEFAULT_MEMORY_DIR = fileURLToPath(new URL('../../../fixtures/memory', import.meta.url));

/**
 * A closed-book model's "memory": Markdown files read into one source per section, with the
 * file's front-matter `title` and `updated` and the section heading as fields, exactly like
 * prompt documents, so the same extractive machinery answers from them. `README.md` is not memory.
 *
 * @throws InvalidInputError `not_found` when the folder does not exist or holds no Markdown file.
 */
export function loadMemorySnapshot(directory: string = DEFAULT_MEMORY_DIR): Source[] {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => /\.md$/i.test(name) && name.toLowerCase() !== 'readme.md').sort();
  } catch {
    throw new InvalidInputError(`memory folder ${directory} does not exist`, { code: 'not_found' });
  }
  if (names.length === 0) throw new InvalidInputError(`memory folder ${directory} holds no .md file`, { code: 'not_found' });
  const documents = names.flatMap((name) => sections(name, readFileSync(join(directory, name), 'utf8')));
  return sourcesFromPrompt(documents.map((section, index) => ({ id: `memory:${index}`, text: renderChunkText(section) })));
}

function sections(name: string, source: string): { title: string; section: string; updated: string | null; body: string }[] {
  const text = source.replace(/\r\n?/g, '\n');
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  const field = (key: string) => new RegExp(`^${key}:\\s*(.+)$`, 'm').exec(front?.[1] ?? '')?.[1]?.trim() ?? null;
  const title = field('title') ?? name.replace(/\.md$/i, '');
  const updated = field('updated');
  const body = front ? text.slice(front[0].length) : text;
  const result: { title: string; section: string; updated: string | null; body: string }[] = [];
  let heading = '';
  let lines: string[] = [];
  const flush = () => {
    const content = lines.join('\n').trim();
    if (content !== '') result.push({ title, section: heading, updated, body: content });
    lines = [];
  };
  for (const line of body.split('\n')) {
    const match = /^(#{2,6})\s+(.+)$/.exec(line);
    if (match) {
      flush();
      heading = match[2]!.trim();
    } else if (!/^#\s/.test(line)) {
      lines.push(line);
    }
  }
  flush();
  return result;
}
