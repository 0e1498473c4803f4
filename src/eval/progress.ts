/** Where progress goes: a stream with `write` and, for a terminal, `isTTY`. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Progress {
  /** A new phase with `total` steps of `unit` (e.g. `run 1/3`, 78 questions). [unit='questions'] */
  start(label: string, total: number, unit?: string): void;
  /** One step done; `detail` names it (a question id). */
  tick(detail?: string): void;
  /** A message that must not be overwritten by the bar (a retry, a warning). */
  note(message: string): void;
  /** End the phase (ends the bar's line on a terminal). */
  done(): void;
}

export interface ProgressOptions {
  /** Clock in ms, for tests. [now=performance.now] */
  now?: () => number;
  /** Bar width in characters on a terminal. [width=28] */
  width?: number;
}

/**
 * Progress on stderr: a redrawn bar on a terminal; on anything else (CI logs, files) plain lines at
 * every 10% and at the end, so logs stay short and readable.
 *
 * @example
 * const progress = createProgress(process.stderr);
 * progress.start('run 1/1', questions.length);
 * progress.tick('q001');
 */
export function createProgress(stream: ProgressStream, options: ProgressOptions = {}): Progress {
  const now = options.now ?? (() => performance.now());
  const width = options.width ?? 28;
  const tty = stream.isTTY === true;
  let label = '';
  let unit = 'questions';
  let total = 0;
  let completed = 0;
  let started = 0;
  let lastDecile = -1;
  let barShown = false;

  const elapsed = () => `${((now() - started) / 1000).toFixed(1)}s`;
  const draw = (detail?: string) => {
    const share = total === 0 ? 1 : completed / total;
    const filled = Math.round(share * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    stream.write(`\r\x1b[2K${label} ${bar} ${completed}/${total} ${elapsed()}${detail ? `  ${detail}` : ''}`);
    barShown = true;
  };

  return {
    start(newLabel, newTotal, newUnit = 'questions') {
      label = newLabel;
      unit = newUnit;
      total = newTotal;
      completed = 0;
      lastDecile = -1;
      started = now();
      if (tty) draw();
      else stream.write(`${label}: ${total} ${unit}\n`);
    },
    tick(detail) {
      completed += 1;
      if (tty) return draw(detail);
      const decile = total === 0 ? 10 : Math.floor((completed / total) * 10);
      if (decile > lastDecile || completed === total) {
        lastDecile = decile;
        stream.write(`${label}: ${completed}/${total} ${unit} (${elapsed()})\n`);
      }
    },
    note(message) {
      if (tty && barShown) stream.write('\r\x1b[2K');
      stream.write(`${message}\n`);
      if (tty && barShown) draw();
    },
    done() {
      if (tty && barShown) stream.write('\n');
      barShown = false;
    },
  };
}

/** A progress reporter that prints nothing. */
export const silentProgress: Progress = { start() {}, tick() {}, note() {}, done() {} };
