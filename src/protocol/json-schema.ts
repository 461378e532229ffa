/**
 * The machine-readable half of docs/protocol.md: a JSON Schema (draft 2020-12,
 * zod's output) of every method's params and result, every subscription,
 * every event line and the error codes, generated from the same tables the
 * server validates with. `herdr schema` prints it; docs/protocol.schema.json is
 * that output, committed (a test keeps the two equal).
 */
import { z } from 'zod';
import { ERROR_CODES } from './errors.js';
import { eventLineSchema } from './events.js';
import { METHOD_PARAMS, METHOD_RESULTS, type MethodName, subscriptionSchema } from './methods.js';
import { paneStreamLineSchema } from './pane-stream.js';

type JsonSchema = Record<string, unknown>;

/** zod types JSON Schema cannot say (bigint aside, which the wire carries as an integer). */
const UNREPRESENTABLE = new Set(['symbol', 'undefined', 'void', 'date', 'map', 'set', 'function', 'nan', 'custom']);

/**
 * Params as a client may write them (`null` for an absent field allowed),
 * results as the server writes them. Objects stay open: unknown params are
 * ignored, and a later version may add fields to an answer (docs/protocol.md
 * promises extensions only ever add), so a client must not reject them.
 */
function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...body } = z.toJSONSchema(schema, {
    io,
    // Only bigints are let through, as what they are on the wire: integers (hooks' seqs).
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const type = zodSchema._zod.def.type;
      if (type === 'bigint') Object.assign(jsonSchema, { type: 'integer', minimum: 0 });
      else if (UNREPRESENTABLE.has(type)) throw new Error(`${type} cannot be represented in JSON Schema`);
      if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
    },
  });
  return body;
}

/** The params a client writes: `events.subscribe` validates each subscription after the envelope, here they are spelled out. */
function documentedParams(method: MethodName): z.ZodType {
  if (method === 'events.subscribe') return METHOD_PARAMS[method].extend({ subscriptions: z.array(subscriptionSchema) });
  return METHOD_PARAMS[method];
}

export function protocolJsonSchema(): JsonSchema {
  const methods: Record<string, { params: JsonSchema; result: JsonSchema }> = {};
  for (const method of Object.keys(METHOD_PARAMS) as MethodName[]) {
    methods[method] = { params: toJson(documentedParams(method), 'input'), result: toJson(METHOD_RESULTS[method], 'output') };
  }
  const events: Record<string, JsonSchema> = {};
  for (const line of eventLineSchema.options) events[line.shape.event.value] = toJson(line, 'output');
  const streamLines: Record<string, JsonSchema> = {};
  for (const line of paneStreamLineSchema.options) streamLines[line.shape.event.value] = toJson(line, 'output');
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'herdr socket protocol',
    description: 'Printed by `herdr schema`; described in docs/protocol.md. Each method: the params of its request, the result of its answer.',
    methods,
    subscription: toJson(subscriptionSchema, 'input'),
    events,
    pane_stream_lines: streamLines,
    error_codes: { ...ERROR_CODES },
  };
}
