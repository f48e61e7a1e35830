#!/usr/bin/env -S node --max-semi-space-size=64
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { commands } from './cli/index.js';
import { CliError } from './cli/io.js';

const USAGE = `usage: groupnotes <command> [options]

commands:
${Object.values(commands)
  .map((command) => `  ${command.usage.padEnd(52)} ${command.summary}`)
  .join('\n')}`;

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return;
  }
  const command = commands[name];
  if (!command) throw new CliError(`unknown command "${name}" (try: groupnotes --help)`);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages go on with advice about '--'; the first sentence is what the user needs.
    throw new CliError(`${name}: ${(error as Error).message.split(/\.\s/)[0]}`);
  }
  if (parsed.positionals.length < command.positionals.min || parsed.positionals.length > command.positionals.max) {
    throw new CliError(`usage: groupnotes ${command.usage}`);
  }
  await command.run({ config: loadConfig(), args: parsed.positionals, options: parsed.values });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliError || error instanceof ConfigError) {
    console.error(`groupnotes: ${error.message}`);
  } else {
    console.error(`groupnotes: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
});
