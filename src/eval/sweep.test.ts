import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocuments, parseWordLimit } from '../contract/formats.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createOpenAI } from '../providers/openai.js';
import { CORPUS_DIR, onCleanup, tempDir } from '../test-support/fixtures.js';
import { chatReply, startMockOpenAIServer, type RecordedRequest } from '../testing/index.js';
import { openLlmCache } from './cache.js';
import { writeSweepReports } from './report-sweep.js';
import { markPareto, parseSweepFlag, runSweep, type SweepPoint } from './sweep.js';
import { scatterPlot } from './svg.js';
import { isGeneratedPage } from '../text/generated-mark.js';

const SMOKE_SUITE = join(CORPUS_DIR, '..', '..', 'evals/suites/smoke.json');

describe('runSweep', () => {
  it('a sweep over two values producing one report with the plot', async () => {
    const dir = tempDir();
    const sweep = await runSweep({
      suite: SMOKE_SUITE,
      generator: createLocalChatModel(),
      embedder: createLocalEmbedder(),
      indexPath: join(dir, 'index.db'),
      cwd: dir,
      option: 'wordCap',
      values: [12, 150],
    });
    expect(sweep.values).toEqual([12, 150]);
    expect(sweep.results.map((results) => results.config.pipeline)).toEqual([
      { topK: 8, wordCap: 12 },
      { topK: 8, wordCap: 150 },
    ]);
    const [short, long] = sweep.points as [SweepPoint, SweepPoint];
    // The offline generator reads the prompt's word cap (its citations come on top, and countWords
    // counts them): the sweep measures a real change.
    expect(short.meanWords!).toBeLessThan(20);
    expect(long.meanWords!).toBeGreaterThan(short.meanWords!);
    for (const point of sweep.points) {
      for (const metric of ['hallucinationRate', 'claimHallucinationRate', 'keywordHitRate', 'correctAnswerRate', 'meanWords', 'unsupportedWordShare'] as const) expect(point[metric], `${point.value} ${metric}`).not.toBeNull();
    }
    expect(sweep.paretoValues).toEqual(sweep.points.filter((point) => point.pareto).map((point) => point.value));
    expect(sweep.paretoValues.length).toBeGreaterThan(0);

    const paths = writeSweepReports(sweep, join(dir, 'out'));
    expect(paths.html).toMatch(/smoke-sweep-wordCap-\d{8}T[\d.]+Z\.html$/);
    const html = readFileSync(paths.html, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    // Marked as groundcheck's, so explainErrors never indexes it as the app's source.
    expect(isGeneratedPage(html.slice(0, 1024))).toBe(true);
    expect(html).toContain('<svg class="chart scatter" role="img" aria-label="Trade-off across wordCap"');
    expect(html).toContain('>keyword hit rate, RAG on (→ better)</text>');
    // One point per value, labelled; the Pareto-optimal ones starred and filled.
    expect(html.match(/<g class="scatter-point/g)).toHaveLength(2);
    for (const point of sweep.points) expect(html).toMatch(new RegExp(`class="chart-value">[^<]*\\b${point.value}${point.pareto ? ' ★' : ''}`));
    expect(html.match(/<g class="scatter-point pareto">/g)).toHaveLength(sweep.paretoValues.length);
    expect(html).not.toMatch(/<script|src="http|href="http/);
    const json = JSON.parse(readFileSync(paths.json, 'utf8'));
    expect(json).toMatchObject({ kind: 'sweep', option: 'wordCap', values: [12, 150], points: [{ value: 12 }, { value: 150 }] });
    expect(json.results).toHaveLength(2);
    expect(readFileSync(paths.markdown, 'utf8')).toContain('| wordCap | hallucination (answers) | hallucination (claims) |');
  });

  it('with a model: the cache makes a value already run free', async () => {
    // A model that quotes its first document, cut at the prompt's word limit.
    const answer = (request: RecordedRequest) => {
      const messages = request.body.messages as { content: string }[];
      const [document] = parseDocuments(messages.at(-1)!.content);
      if (!document) return chatReply(REFUSAL_SENTENCE);
      const cap = parseWordLimit(messages[0]!.content) ?? 150;
      return chatReply(document.text.split('\n').slice(1).join(' ').split(/\s+/).slice(0, cap).join(' '));
    };
    const server = await startMockOpenAIServer({ chat: answer });
    onCleanup(() => void server.close());
    const dir = tempDir();
    const cache = openLlmCache({ path: join(dir, 'cache.db') });
    onCleanup(() => cache.close());
    const base = {
      suite: SMOKE_SUITE,
      generator: createOpenAI({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }).chat('sweep-model'),
      embedder: createLocalEmbedder(),
      indexPath: join(dir, 'index.db'),
      cwd: dir,
      cache,
      option: 'wordCap',
    };
    const first = await runSweep({ ...base, values: [20, 150] });
    const afterFirst = server.requests.length;
    expect(afterFirst).toBe(first.usage.modelCalls);
    expect(first.usage.modelCalls).toBeGreaterThan(0);
    expect(first.points[0]!.meanWords!).toBeLessThanOrEqual(20);

    const second = await runSweep({ ...base, values: [150, 40] });
    const [repeated, fresh] = second.results;
    expect(repeated!.usage.models).toEqual([]);
    expect(repeated!.usage.cache).toMatchObject({ misses: 0 });
    expect(fresh!.usage.models[0]!.calls).toBeGreaterThan(0);
    expect(server.requests.length - afterFirst).toBe(fresh!.usage.models[0]!.calls);
    expect(second.points[0]).toEqual({ ...first.points[1]!, pareto: second.points[0]!.pareto });
  });
});

describe('Pareto front and the --sweep flag', () => {
  const point = (value: number, hallucinationRate: number | null, keywordHitRate: number | null): SweepPoint => ({
    value,
    hallucinationRate,
    keywordHitRate,
    claimHallucinationRate: null,
    unsupportedWordShare: null,
    correctAnswerRate: null,
    meanWords: null,
    refusalRate: null,
    falseRefusalRate: null,
    passed: true,
    pareto: false,
  });

  it('marks the values no other value beats on both axes; ties stay optimal; unmeasured never are', () => {
    const marked = markPareto([point(100, 0.1, 0.5), point(125, 0.12, 0.7), point(150, 0.12, 0.6), point(175, 0.2, 0.7), point(200, null, 0.9), point(225, 0.1, 0.5)]);
    expect(marked.map((entry) => [entry.value, entry.pareto])).toEqual([
      [100, true],
      [125, true],
      [150, false],
      [175, false],
      [200, false],
      [225, true],
    ]);
  });

  it('the plot gives points at the same place one label, and ticks enough digits to stay distinct', () => {
    const point = (label: string, x: number, highlighted: boolean) => ({ x, y: 0, label, highlighted, title: label });
    const svg = scatterPlot({ title: 't', xLabel: 'x', yLabel: 'y', points: [point('40', 0.25, false), point('100', 0.384, true), point('125', 0.384, true)], format: (value, digits) => `${(value * 100).toFixed(digits)}%`, highlightLabel: 'best', otherLabel: 'other' });
    expect(svg.match(/class="chart-value">[^<]*</g)).toEqual(['class="chart-value">40<', 'class="chart-value">100 ★, 125 ★<']);
    // y spans 0–2%: ticks 0.0%, 0.5%, 1.0%, 1.5%, 2.0%.
    expect(svg.match(/text-anchor="end" class="chart-axis">[^<]*/g)!.map((tick) => tick.split('>')[1])).toEqual(['0.0%', '0.5%', '1.0%', '1.5%', '2.0%']);
  });

  it('parses name=v1,v2', () => {
    expect(parseSweepFlag('wordCap=100,125,150,175')).toEqual({ option: 'wordCap', values: [100, 125, 150, 175] });
    expect(parseSweepFlag('minSimilarity=0.1, 0.2')).toEqual({ option: 'minSimilarity', values: [0.1, 0.2] });
    expect(() => parseSweepFlag('wordCap')).toThrow('--sweep wordCap: use name=value,value,… (e.g. wordCap=100,125,150,175)');
    expect(() => parseSweepFlag('wordCap=100,x')).toThrow('--sweep wordCap=100,x: "x" is not a number');
  });
});
