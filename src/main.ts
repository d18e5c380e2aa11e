import { ConfigError } from './config/index.js';
import { UsageError, parseOptions } from './cli/args.js';
import { coreCommands, type Command } from './cli/commands.js';
import { tenantCommands } from './cli/tenants.js';
import { organisationCommands } from './cli/organisation.js';
import { baselineCommands } from './cli/baseline.js';
import { codehostCommands } from './cli/codehost.js';
import { biCommands } from './cli/bi.js';
import { loginCommands } from './cli/login.js';
import { notionCommands } from './cli/notion.js';
import { captureCommands } from './cli/capture/command.js';
import { SchemaBehindError } from './db/errors.js';

/** Every CLI command; capabilities add theirs to this table. */
const commands: Record<string, Command> = {
  ...coreCommands,
  ...tenantCommands,
  ...organisationCommands,
  ...baselineCommands,
  ...codehostCommands,
  ...biCommands,
  ...loginCommands,
  ...notionCommands,
  ...captureCommands,
};

function help(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${c.usage.padEnd(60)} ${c.summary}`);
  return `usage: delivery-analytics <command> [--option=value …]\n\ncommands:\n${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help') {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  try {
    return (await command.run(command.rawArguments ? {} : parseOptions(rest), process.env, rest)) ?? 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration problems:\n${error.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 1;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${error.message}\nusage: delivery-analytics ${command.usage}\n`);
      return 2;
    }
    if (error instanceof SchemaBehindError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: ${message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
