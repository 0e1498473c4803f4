import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatSpotCheck, readResults, spotCheck } from '../../eval/spotcheck.js';
import { EXIT, UsageError, type Command } from '../io.js';

export const spotcheckCommand: Command = {
  name: 'spotcheck',
  summary: 'List contradicted claims whose numbers, identifiers or names appear verbatim in their evidence (likely judge mistakes)',
  usage: 'groundcheck spotcheck <results.json> [--json]',
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'spotcheck needs a results .json file from groundcheck eval' : 'spotcheck takes one results file');
    const results = readResults(resolve(io.cwd, positionals[0]!));
    const items = spotCheck(results);
    io.stdout.write(`${values.json ? JSON.stringify(items, null, 2) : formatSpotCheck(items, results)}\n`);
    // A review list, not a gate: finding candidates is not a failure.
    return EXIT.ok;
  },
};
