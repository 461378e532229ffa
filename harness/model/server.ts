/**
 * The scripted model server: an HTTP server on 127.0.0.1 that answers the agent CLIs as
 * their vendor's API would (dialects.ts), from a script per agent (script.ts), and records
 * every request, so a test can say what reached the model and how often.
 *
 * It is also every CLI's proxy (HTTP_PROXY/HTTPS_PROXY point here): an update check or a
 * telemetry post that would leave the machine is refused at once and recorded as an
 * outbound attempt, so nothing in a test waits on the network or reaches it.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type Dialect, type DialectName, type JsonObject, type ParsedRequest, type Reply, dialectOf } from './dialects.js';
import { type AgentScript, ScriptPlayer, type Step } from './script.js';
import { sampleOf, shellArguments, shellTool } from './tools.js';

/** Text streamed in pieces of this many characters, one every this many ms, unless a step says otherwise. */
const DEFAULT_CHUNK_CHARS = 16;
const DEFAULT_INTERVAL_MS = 20;
/** Answers to a CLI's requests on the side (titles, summaries). */
const SIDE_REPLY = 'Scripted model';

export interface RecordedRequest {
  seq: number;
  /** Who asked: the API key it sent (each agent of a test gets its own), or '' when none. */
  key: string;
  dialect: DialectName;
  path: string;
  model: string;
  /** `turn`: a request of the agent's loop (it offers tools); `side`: anything else the CLI asks. */
  kind: 'turn' | 'side';
  newUserText: string | undefined;
  toolResult: string | undefined;
  /** The tool the answer called, if any. */
  called: string | undefined;
  status: number;
  /** Date.now() and performance.now() when the request arrived and when its answer's last byte was written. */
  receivedAt: number;
  lastByteAt: number | undefined;
  lastByteHr: number | undefined;
  body: JsonObject;
}

export interface OutboundAttempt {
  /** host:port the CLI tried to reach past the proxy. */
  target: string;
  at: number;
}

/** A request for something this server does not serve (a path no dialect knows). */
export interface UnknownRequest {
  method: string;
  path: string;
  at: number;
}

export class ModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly outbound: OutboundAttempt[] = [];
  readonly unknown: UnknownRequest[] = [];
  private readonly scripts = new Map<string, AgentScript>();
  private readonly players = new Map<string, ScriptPlayer>();
  private readonly sockets = new Set<Socket>();
  private readonly listeners = new Set<() => void>();
  private nextSeq = 1;

  private constructor(private readonly server: Server) {}

  static async start(port = 0): Promise<ModelServer> {
    const server = createServer();
    const model = new ModelServer(server);
    server.on('request', (req, res) => void model.handle(req, res));
    server.on('connect', (req: IncomingMessage, socket: Socket) => {
      model.outbound.push({ target: req.url ?? '', at: Date.now() });
      model.changed();
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    server.on('connection', (socket: Socket) => {
      model.sockets.add(socket);
      socket.on('close', () => model.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return model;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The base address, e.g. `http://127.0.0.1:41234`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Gives the agent that sends `key` (or `*`: any agent without its own) this script, from its first turn. */
  script(key: string, script: AgentScript): void {
    this.scripts.set(key, script);
    this.players.delete(key);
  }

  /** Requests of the agents' loops, of one key or all. */
  turnRequests(key?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'turn' && (key === undefined || r.key === key));
  }

  /** How many requests brought `text` to the model as new user input (a prompt reached it once: 1). */
  promptCount(text: string, key?: string): number {
    return this.turnRequests(key).filter((r) => r.newUserText?.includes(text)).length;
  }

  /** The prompts the model was given, in order (each request that started a turn). */
  prompts(key?: string): string[] {
    return this.turnRequests(key).flatMap((r) => (r.newUserText === undefined ? [] : [r.newUserText]));
  }

  /** Resolves once `predicate` holds over what was recorded, or rejects after `timeoutMs`. */
  until<T>(predicate: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = predicate();
        if (value === undefined || value === false) return false;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for the model to see ${what}`));
      }, timeoutMs);
      if (!check()) this.listeners.add(check);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // An absolute URL is a proxied plain-HTTP request: the network beyond this machine.
    if (req.url?.startsWith('http://') || req.url?.startsWith('https://')) {
      this.outbound.push({ target: new URL(req.url).host, at: Date.now() });
      this.changed();
      res.writeHead(403).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const dialect = dialectOf(url, req.method ?? 'GET');
    if (!dialect) return this.answerOther(req, res, url);
    let body: JsonObject;
    try {
      body = JSON.parse(raw || '{}') as JsonObject;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'body is not JSON' } }));
      return;
    }
    const parsed = dialect.parse(body, url);
    const key = keyOf(req, url);
    const kind = isTurn(parsed) ? 'turn' : 'side';
    const record: RecordedRequest = {
      seq: this.nextSeq++,
      key,
      dialect: dialect.name,
      path: url.pathname,
      model: parsed.model,
      kind,
      newUserText: parsed.newUserText,
      toolResult: parsed.toolResult,
      called: undefined,
      status: 200,
      receivedAt: Date.now(),
      lastByteAt: undefined,
      lastByteHr: undefined,
      body,
    };
    this.requests.push(record);
    this.changed();
    const step: Step = kind === 'side' ? sideStep(parsed, body) : this.stepFor(key, parsed);
    await this.answer(res, dialect, parsed, step, record);
    record.lastByteAt = Date.now();
    record.lastByteHr = performance.now();
    this.changed();
  }

  private stepFor(key: string, request: ParsedRequest): Step {
    const script = this.scripts.get(key) ?? this.scripts.get('*') ?? { turns: [] };
    let player = this.players.get(key);
    if (!player) {
      player = new ScriptPlayer(script);
      this.players.set(key, player);
    }
    return request.toolResult !== undefined && request.newUserText === undefined ? player.goOn() : player.start(request.newUserText ?? '');
  }

  private async answer(res: ServerResponse, dialect: Dialect, request: ParsedRequest, step: Step, record: RecordedRequest): Promise<void> {
    if ('stallMs' in step) {
      const gone = await stall(res, step.stallMs);
      if (gone || !step.then) {
        if (!res.headersSent && !res.destroyed) res.writeHead(504).end();
        return;
      }
      return this.answer(res, dialect, request, step.then, record);
    }
    if ('fail' in step) {
      record.status = step.fail;
      const message = step.message ?? (step.fail === 429 ? 'Rate limited (scripted)' : 'Server error (scripted)');
      res.writeHead(step.fail, { 'content-type': 'application/json', ...(step.fail === 429 ? { 'retry-after': '1' } : {}) });
      res.end(JSON.stringify({ type: 'error', error: { type: step.fail === 429 ? 'rate_limit_error' : 'api_error', message, code: step.fail, status: step.fail } }));
      return;
    }
    const text = 'say' in step ? (step.say ?? '') : '';
    let call: Reply['call'];
    // A side request that must call its one tool (a classifier's schema tool): called with what fits the schema.
    if ('say' in step && request.requiredTool && !shellTool(request.tools)) call = { name: request.requiredTool.name, args: sampleOf(request.requiredTool.schema) as JsonObject };
    if ('shell' in step) {
      const tool = shellTool(request.tools);
      if (tool) call = { name: tool.name, args: shellArguments(tool, step.shell) };
    }
    record.called = call?.name;
    const reply: Reply = { text, call };
    const writer = dialect.writer(request);
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(writer.whole(reply)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    for (const frame of writer.open()) res.write(frame);
    const chunkChars = ('chunkChars' in step ? step.chunkChars : undefined) ?? DEFAULT_CHUNK_CHARS;
    const intervalMs = ('intervalMs' in step ? step.intervalMs : undefined) ?? DEFAULT_INTERVAL_MS;
    const pieces = [...text];
    for (let at = 0; at < pieces.length; at += chunkChars) {
      if (at > 0 && intervalMs > 0) await sleep(intervalMs);
      if (res.destroyed) return;
      for (const frame of writer.text(pieces.slice(at, at + chunkChars).join(''))) res.write(frame);
    }
    for (const frame of writer.close(reply)) res.write(frame);
    res.end();
  }

  /** Model lists and token counts, which some CLIs ask before a turn; anything else is 404 and recorded. */
  private answerOther(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const path = url.pathname;
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (path.endsWith('/count_tokens')) return json(200, { input_tokens: 12 });
    if (path.endsWith(':countTokens')) return json(200, { totalTokens: 12 });
    if (req.method === 'GET' && /\/models\/?$/.test(path)) {
      return json(200, { object: 'list', data: [{ id: 'scripted', object: 'model', created: 0, owned_by: 'herdr' }], models: [{ name: 'models/scripted' }] });
    }
    this.unknown.push({ method: req.method ?? '', path: `${path}${url.search}`, at: Date.now() });
    this.changed();
    json(404, { error: { message: `not served here: ${req.method} ${path}` } });
  }
}

/**
 * Whether a request is the agent's own turn (it offers the agent's tools and is none of the
 * side requests the CLIs make with tools too: qwen's classifier that must answer through its one
 * schema tool, its follow-up suggestion, its memory subagent).
 */
function isTurn(request: ParsedRequest): boolean {
  if (request.tools.length === 0) return false;
  if (request.requiredTool && !shellTool(request.tools)) return false;
  if (request.systemText.includes('managed memory extraction subagent')) return false;
  return !(request.newUserText ?? '').includes('Reply with ONLY the suggestion');
}

/** A side request's answer: JSON that fits the schema it asked for, else a short text. */
function sideStep(request: ParsedRequest, body: JsonObject): Step {
  if (!request.wantsJson) return { say: SIDE_REPLY, intervalMs: 0 };
  const config = (body.generationConfig ?? {}) as JsonObject;
  const format = ((body.response_format ?? {}) as JsonObject).json_schema as JsonObject | undefined;
  const schema = config.responseJsonSchema ?? config.responseSchema ?? format?.schema ?? {};
  return { say: JSON.stringify(sampleOf(schema)), intervalMs: 0, chunkChars: 1_000_000 };
}

/** The API key a request carries, in whichever header its vendor uses. */
function keyOf(req: IncomingMessage, url: URL): string {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const bearer = /^Bearer\s+(.+)$/i.exec(header('authorization') ?? '')?.[1];
  return header('x-api-key') ?? header('x-goog-api-key') ?? bearer ?? url.searchParams.get('key') ?? '';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

/** Waits `ms` (negative or Infinity: until the client leaves); true when the client left first. */
function stall(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = Number.isFinite(ms) && ms >= 0 ? setTimeout(() => done(false), ms) : undefined;
    const done = (gone: boolean) => {
      clearTimeout(timer);
      res.off('close', onClose);
      resolve(gone);
    };
    const onClose = () => done(true);
    res.on('close', onClose);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
