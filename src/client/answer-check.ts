/**
 * Answers checked against their method's result schema (METHOD_RESULTS in
 * src/protocol): a server that answers in a shape this client does not know
 * (another herdr version, another program on the socket) is a
 * ConnectionError, never a silently wrong value. The answer itself is what
 * the caller gets, as it came: fields a newer server adds are kept.
 *
 * Cheaply. zod's full parse of a 300-pane `pane.list` answer (126 kB, node 20)
 * takes 0.15–0.29 ms once V8 has optimised it, but 17–42 ms as a process's
 * first answer and ~5–8 ms for the next ten or so, and a CLI command is just
 * those. So a top-level array is parsed through its first
 * element (the server builds every element with the same code), the others
 * only checked to be of its kind: 300 panes cost what one does, ~6 ms for the
 * first answer (mostly zod compiling the schema, once per method and process),
 * 0.2–0.8 ms for the next few, ~13 µs once warm.
 * The schemas, and zod with them, load at the first answer checked, not with
 * the library: `request` alone (the CLI's one-shot commands) does not need them.
 */
import type { ZodType } from 'zod';
import { type ResponseEnvelope, isPlainObject } from '../protocol/envelope.js';
import type { MethodName, MethodResults } from '../protocol/methods.js';
import { ConnectionError, successOrThrow } from './errors.js';

let schemas: typeof import('../protocol/methods.js') | undefined;

/** An answer as its method's result: an error answer throws HerdrError, one of another shape ConnectionError. */
export async function resultOf<M extends MethodName>(method: M, response: ResponseEnvelope, where: string): Promise<MethodResults[M]> {
  if (!isPlainObject(response)) throw new ConnectionError(`${where} answered ${method} with a line that is not an answer`);
  const { result } = successOrThrow(response);
  const { METHOD_RESULTS, describeParamsError, isMethodName } = (schemas ??= await import('../protocol/methods.js'));
  // A name outside the table (through the typed groups' proxy) is answered invalid_request, thrown above.
  if (!isMethodName(method)) return result as MethodResults[M];
  const { sample, stray } = sampled(result);
  let problem = stray;
  if (problem === undefined) {
    const schema: ZodType = METHOD_RESULTS[method];
    const parsed = schema.safeParse(sample);
    if (!parsed.success) problem = describeParamsError(parsed.error);
  }
  if (problem !== undefined) {
    throw new ConnectionError(`${where} answered ${method} with a result this client does not know (${problem}); is it another version of herdr?`);
  }
  return result as MethodResults[M];
}

/** The result with each top-level array cut to its first element; `stray` names an element of another kind than the first. */
function sampled(result: unknown): { sample: unknown; stray?: string } {
  if (!isPlainObject(result)) return { sample: result };
  let sample = result;
  for (const [key, value] of Object.entries(result)) {
    if (!Array.isArray(value) || value.length < 2) continue;
    const kind = kindOf(value[0]);
    const at = value.findIndex((item) => kindOf(item) !== kind);
    if (at !== -1) return { sample, stray: `${key}.${at}: expected ${kind}, received ${kindOf(value[at])}` };
    sample = { ...sample, [key]: value.slice(0, 1) };
  }
  return { sample };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
