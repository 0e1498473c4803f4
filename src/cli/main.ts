import { askCommand } from './commands/ask.js';
import { evalCommand } from './commands/eval.js';
import { driftCommand } from './commands/drift.js';
import { ingestCommand } from './commands/ingest.js';
import { indexSourceCommand } from './commands/index-source.js';
import { spotcheckCommand } from './commands/spotcheck.js';
import { judgeWorkerCommand } from './commands/judge-worker.js';
import { EXIT, reportError, UsageError, type CliIO, type Command } from './io.js';

/** Every subcommand; add new ones here. */
export const COMMANDS: Command[] = [ingestCommand, askCommand, evalCommand, spotcheckCommand, judgeWorkerCommand, driftCommand, indexSourceCommand];

const HELP = () =>
  [
    'groundcheck: grounded answers from your documents, and proof that they stay grounded',
    '',
    'usage: groundcheck <command> [options]',
    '',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(14)}${command.summary}`),
    '',
    ...COMMANDS.map((command) => `  ${command.usage}`),
    '',
    'exit codes: 0 success, 1 the run failed (model or runtime error, failed gates), 2 usage or input error',
    'configuration: environment variables, see README.md',
  ].join('\n');

/** Run the CLI with `argv` (without `node` and the script) and return the exit code. */
export async function main(argv: string[], io: CliIO = defaultIO()): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${HELP()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(`groundcheck: unknown command "${name}"\n${HELP()}\n`);
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(`${command.summary}\nusage: ${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // parseArgs throws TypeErrors with codes for unknown or malformed flags.
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      return reportError(new UsageError((error as Error).message), io, command);
    }
    return reportError(error, io, command);
  }
}

export function defaultIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
