/** `herdr schema` (and `herdr api schema`): the protocol's JSON Schema (docs/protocol.schema.json), no server needed. */
import type { Command } from 'commander';

export const SCHEMA_DESCRIPTION = "print the JSON Schema of every method's params and result, every subscription, event line and error code";

/** The schema as `herdr schema` prints it. */
export async function schemaText(): Promise<string> {
  // Loaded here: other commands need not pay for zod's tables at start-up.
  const { protocolJsonSchema } = await import('../../protocol/json-schema.js');
  return `${JSON.stringify(protocolJsonSchema(), null, 2)}\n`;
}

export function addSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description(SCHEMA_DESCRIPTION)
    .action(async () => {
      process.stdout.write(await schemaText());
    });
}
