import { ConfigError } from "./config/index.js";
import { UsageError, parseOptions } from "./cli/args.js";
import { coreCommands } from "./cli/commands.js";
import { tenantCommands } from "./cli/tenants.js";
import { organisationCommands } from "./cli/organisation.js";
import { baselineCommands } from "./cli/baseline.js";
import { codehostCommands } from "./cli/codehost.js";
import { biCommands } from "./cli/bi.js";
import { loginCommands } from "./cli/login.js";
import { notionCommands } from "./cli/notion.js";
import { SchemaBehindError } from "./db/errors.js";
const commands = {
  ...coreCommands,
  ...tenantCommands,
  ...organisationCommands,
  ...baselineCommands,
  ...codehostCommands,
  ...biCommands,
  ...loginCommands,
  ...notionCommands
};
function help() {
  const lines = Object.entries(commands).map(([name, c]) => `  ${c.usage.padEnd(60)} ${c.summary}`);
  return `usage: delivery-analytics <command> [--option=value \u2026]

commands:
${lines.join("\n")}
`;
}
async function main(argv) {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`unknown command "${name}"

${help()}`);
    return 2;
  }
  try {
    return await command.run(parseOptions(rest), process.env) ?? 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration problems:
${error.problems.map((p) => `  ${p}`).join("\n")}
`);
      return 1;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${error.message}
usage: delivery-analytics ${command.usage}
`);
      return 2;
    }
    if (error instanceof SchemaBehindError) {
      process.stderr.write(`${error.message}
`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: ${message}
`);
    return 1;
  }
}
process.exitCode = await main(process.argv.slice(2));
