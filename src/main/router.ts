/**
 * Method dispatch: envelope checks, params validation against the method
 * table, then the registered handler. A handler throws ProtocolError for an
 * answerable failure; anything else becomes `internal_error` naming the method.
 */
import { isInteger, parse as parseLossless } from 'lossless-json';
import type { z } from 'zod';
import { type ErrorCode, ProtocolError } from '../protocol/errors.js';
import type { ResponseEnvelope } from '../protocol/envelope.js';
import { isPlainObject } from '../protocol/envelope.js';
import { clip } from '../protocol/text.js';
import { BASE_PROTOCOL, CURRENT_PROTOCOLS, type Dialect, dialectOfProtocol } from '../protocol/dialect.js';
import {
  METHOD_PARAMS,
  type MethodName,
  type MethodParams,
  type MethodResults,
  describeParamsError,
  isMethodName,
} from '../protocol/methods.js';
import type { Connection } from './connection.js';
import type { EventBatch } from './event-hub.js';
import { withCurrentView } from './ids.js';

export interface RequestContext {
  /** The client's connection: `signal` aborts when it goes away. */
  connection: Connection;
  /** Which herdr the client speaks (docs/protocol.md §15): where the dialects answer differently, this decides. */
  dialect: Dialect;
  /** Events this request causes; published after its response is written. */
  batch: EventBatch;
  /** Runs after the response has been written (e.g. shutting down). */
  afterResponse(action: () => void): void;
}

export type Handler<M extends MethodName> = (
  params: MethodParams<M>,
  context: RequestContext,
) => MethodResults[M] | Promise<MethodResults[M]>;

type AnyHandler = (params: unknown, context: RequestContext) => unknown;

/** A method outside the protocol's table (the test-only fault injection), with its own params schema. */
interface ExtraMethod {
  params: z.ZodType;
  handler: AnyHandler;
}

/** A request line that passed the envelope checks. */
export interface ParsedRequest {
  id: string;
  method: string;
  params: unknown;
  keepAlive: boolean;
  /** The dialect the envelope's `protocol` asked for (docs/protocol.md §15.1); absent: the connection's. */
  dialect: Dialect | undefined;
}

/** A run of digits that may be an integer past 2^53 (hooks' nanosecond seqs, ~1.8e18). */
const LONG_DIGITS = /\d{16}/;

/** A number as JSON text: a number, or a bigint for an integer a double cannot hold exactly. */
function exactNumber(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) || !isInteger(text) ? value : BigInt(text);
}

/**
 * JSON.parse, except that a line with a long digit run is parsed losslessly
 * (slower, so only then); should that parser refuse the line, JSON.parse
 * decides (it takes duplicate keys, and its errors are the ones documented).
 */
function parseJsonLine(line: string): unknown {
  if (LONG_DIGITS.test(line)) {
    try {
      return parseLossless(line, null, exactNumber);
    } catch {
      // fall through
    }
  }
  return JSON.parse(line);
}

/** Parses one line into a request, or throws `invalid_request` carrying whatever id could be read. */
export function parseRequestLine(line: string): ParsedRequest {
  let value: unknown;
  try {
    value = parseJsonLine(line);
  } catch (error) {
    throw new RequestLineError('', `invalid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) throw new RequestLineError('', 'request must be a JSON object');
  const id = typeof value.id === 'string' ? value.id : '';
  if (typeof value.id !== 'string') throw new RequestLineError(id, 'field id is missing or not a string');
  if (typeof value.method !== 'string') throw new RequestLineError(id, 'field method is missing or not a string');
  if (!('params' in value)) throw new RequestLineError(id, 'field params is missing');
  if (!isPlainObject(value.params)) throw new RequestLineError(id, 'field params must be an object');
  return { id, method: value.method, params: value.params, keepAlive: value.keep_alive === true, dialect: declaredDialect(id, value.protocol) };
}

/** The envelope's `protocol`: absent or null says nothing; a number we do not speak is refused. */
function declaredDialect(id: string, protocol: unknown): Dialect | undefined {
  if (protocol === undefined || protocol === null) return undefined;
  const dialect = typeof protocol === 'number' ? dialectOfProtocol(protocol) : undefined;
  if (dialect) return dialect;
  throw new RequestLineError(
    id,
    `protocol ${quoted(JSON.stringify(protocol))} is not spoken here: ${BASE_PROTOCOL} (herdr 0.2.0) or ${CURRENT_PROTOCOLS.join(', ')} (herdr's current protocol)`,
  );
}

/** A client's string quoted back in an error, at most 100 characters of it. */
function quoted(text: string): string {
  const clipped = clip(text, 100);
  return clipped === text ? text : `${clipped}… (${text.length} characters)`;
}

export class RequestLineError extends ProtocolError {
  constructor(
    readonly requestId: string,
    message: string,
  ) {
    super('invalid_request', message);
  }
}

/**
 * An error's `{code, message}`. A message that names panes the server picked comes in two
 * forms (ids.ts errorNaming): a request that named a pane or workspace by position (`2-1`,
 * `2`) reads positions on the 0.2.0 wire; every other request, and the current wire, reads
 * the stable ids a person sees everywhere else (docs/protocol.md §3).
 */
function errorAnswer(error: ProtocolError, params: unknown): { code: ErrorCode; message: string } {
  if (error.currentMessage === undefined) return { code: error.code, message: error.message };
  if (!namesByPosition(params)) return { code: error.code, message: error.currentMessage };
  return withCurrentView({ code: error.code, message: error.message }, { message: error.currentMessage });
}

const POSITION_ID = /^[1-9]\d*(-[1-9]\d*)?$/;
const ID_KEY = /(^|_)(id|target)$/;

/** Whether a request's id params (`pane_id`, `target`, …) hold a compact id. */
function namesByPosition(params: unknown): boolean {
  if (!isPlainObject(params)) return false;
  return Object.entries(params).some(([key, value]) => ID_KEY.test(key) && typeof value === 'string' && POSITION_ID.test(value));
}

export class Router {
  private readonly handlers = new Map<MethodName, AnyHandler>();
  private readonly extras = new Map<string, ExtraMethod>();

  register<M extends MethodName>(method: M, handler: Handler<M>): void {
    this.handlers.set(method, handler as AnyHandler);
  }

  /** A method the protocol does not have; it exists only where it is registered. */
  registerExtra<S extends z.ZodType>(method: string, params: S, handler: (params: z.output<S>, context: RequestContext) => unknown): void {
    this.extras.set(method, { params, handler: handler as AnyHandler });
  }

  /** Methods of the table that have no handler: the server refuses to start with any. */
  unhandled(): MethodName[] {
    return (Object.keys(METHOD_PARAMS) as MethodName[]).filter((m) => !this.handlers.has(m));
  }

  async dispatch(request: ParsedRequest, context: RequestContext): Promise<ResponseEnvelope> {
    const { id, method } = request;
    try {
      const entry = isMethodName(method) ? { params: METHOD_PARAMS[method], handler: this.handlers.get(method) } : this.extras.get(method);
      const handler = entry?.handler;
      if (!entry || !handler) throw new ProtocolError('invalid_request', `unknown method ${quoted(method)}`);
      const parsed = entry.params.safeParse(request.params);
      if (!parsed.success) {
        throw new ProtocolError('invalid_request', `invalid params for ${method}: ${describeParamsError(parsed.error)}`);
      }
      return { id, result: await handler(parsed.data, context) };
    } catch (error) {
      if (error instanceof ProtocolError) return { id, error: errorAnswer(error, request.params) };
      const detail = error instanceof Error ? error.message : String(error);
      console.error(`herdr: ${method} failed:`, error);
      return { id, error: { code: 'internal_error', message: `${method} failed: ${detail}` } };
    }
  }
}
