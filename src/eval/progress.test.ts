import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, write: (text: string) => chunks.push(text), text: () => chunks.join(''), chunks };
}

describe('progress', () => {
  it('writes plain lines at each 10% and at the end when not a terminal', () => {
    const out = stream(false);
    let clock = 0;
    const progress = createProgress(out, { now: () => clock });
    progress.start('questions', 20);
    for (let step = 0; step < 20; step++) {
      clock += 100;
      progress.tick(`q${step}`);
    }
    progress.done();
    const lines = out.text().trimEnd().split('\n');
    expect(lines[0]).toBe('questions: 20 questions');
    expect(lines.at(-1)).toBe('questions: 20/20 questions (2.0s)');
    expect(lines).toHaveLength(12);
    expect(out.text()).not.toContain('\r');
  });

  it('redraws one bar on a terminal and keeps notes on their own lines', () => {
    const out = stream(true);
    const progress = createProgress(out, { now: () => 0, width: 10 });
    progress.start('run 1/2', 4);
    progress.tick('q1');
    progress.note('retry 1/2 in 500 ms: 503');
    progress.tick('q2');
    progress.done();
    expect(out.chunks.filter((chunk) => chunk.startsWith('\r'))).not.toHaveLength(0);
    expect(out.text()).toContain('run 1/2 █████░░░░░ 2/4 0.0s  q2');
    expect(out.text()).toContain('retry 1/2 in 500 ms: 503\n');
    expect(out.text().endsWith('\n')).toBe(true);
  });

  it('names the unit of its steps (questions by default)', () => {
    const out = stream(false);
    const progress = createProgress(out, { now: () => 0 });
    progress.start('explaining', 2, 'failures');
    progress.tick();
    progress.tick();
    expect(out.text()).toBe('explaining: 2 failures\nexplaining: 1/2 failures (0.0s)\nexplaining: 2/2 failures (0.0s)\n');
  });
});
