/** `herdr schema`: the protocol's JSON Schema (docs/protocol.schema.json), no server needed. */
import type { Command } from 'commander';

export function addSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description("print the JSON Schema of every method's params and result, every subscription, event line and error code")
    .action(async () => {
      // Loaded here: other commands need not pay for zod's tables at start-up.
      const { protocolJsonSchema } = await import('../../protocol/json-schema.js');
      process.stdout.write(`${JSON.stringify(protocolJsonSchema(), null, 2)}\n`);
    });
}
