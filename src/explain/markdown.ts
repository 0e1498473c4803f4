/**
 * A small Markdown renderer for model output on the error page, safe by order of operations: the
 * text is HTML-escaped first, and only then are Markdown marks (code spans and blocks, bold,
 * italics, lists, headings, paragraphs) turned into tags. Nothing the model writes can become a
 * tag or an attribute: `<script>` arrives as `&lt;script&gt;` before any Markdown is read. Links
 * and images are not rendered (their text stays as written), so no URL from a model is clickable.
 */

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * @example
 * renderMarkdown('Use `await` <script>') // '<p>Use <code>await</code> &lt;script&gt;</p>'
 */
export function renderMarkdown(markdown: string): string {
  const lines = escapeHtml(markdown.replace(/\r\n?/g, '\n')).split('\n');
  const html: string[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length > 0) html.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list.length > 0) html.push(`<ul>${list.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    list = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flushParagraph();
      flushList();
      const code: string[] = [];
      for (index += 1; index < lines.length && !lines[index]!.trimStart().startsWith(fence[1]!); index++) code.push(lines[index]!);
      html.push(`<pre><code>${code.join('\n')}</code></pre>`);
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushParagraph();
      list.push(item[1]!);
      continue;
    }
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      html.push(`<h3>${inline(heading[1]!)}</h3>`);
      continue;
    }
    if (line.trim() === '') {
      flushParagraph();
      flushList();
      continue;
    }
    flushList();
    paragraph.push(line.trim());
  }
  flushParagraph();
  flushList();
  return html.join('\n');
}

/** Inline marks on already-escaped text: code spans first (nothing inside them is formatted). */
function inline(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part) => {
      if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) return `<code>${part.slice(1, -1)}</code>`;
      return part
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])_([^_\s][^_]*?)_(?=$|[\s).,;:!?])/g, '$1<em>$2</em>')
        .replace(/(^|[\s(])\*([^*\s][^*]*?)\*(?=$|[\s).,;:!?])/g, '$1<em>$2</em>');
    })
    .join('');
}
