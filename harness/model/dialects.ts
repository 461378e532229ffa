/**
 * The four wire formats the agent CLIs speak to their model, each as a parser of the
 * request and a writer of the (streamed or whole) answer: Anthropic Messages, OpenAI Chat
 * Completions, OpenAI Responses, Gemini generateContent. Only what the CLIs read is
 * written; shapes follow each vendor's published API reference.
 */
import { randomBytes } from 'node:crypto';

export type DialectName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

export interface ToolSpec {
  name: string;
  /** The tool's parameters as JSON Schema, when the request gave them. */
  schema: JsonObject | undefined;
}

export type JsonObject = Record<string, unknown>;

/** What a request asks, in every dialect's terms. */
export interface ParsedRequest {
  model: string;
  stream: boolean;
  tools: ToolSpec[];
  /** The text of the last message when it is the user's own (not a tool's result). */
  newUserText: string | undefined;
  /** The last message is a tool's result: its output. */
  toolResult: string | undefined;
  /** The request asks for JSON by a schema (a CLI's classifier on the side). */
  wantsJson: boolean;
  /** The system prompt's text, to tell a CLI's side requests (a subagent) from its agent's turn. */
  systemText: string;
  /** The request requires a call of this tool, its only one (a classifier answering through a schema tool). */
  requiredTool: ToolSpec | undefined;
}

/** A whole answer: text, then optionally one tool call. */
export interface Reply {
  text: string;
  call: { name: string; args: JsonObject } | undefined;
}

/** Writes one answer as the dialect's frames (SSE events, or one JSON body). */
export interface AnswerWriter {
  /** Frames before any text. */
  open(): string[];
  /** Frames carrying one more piece of text. */
  text(delta: string): string[];
  /** Frames of the tool call and the end of the answer. */
  close(reply: Reply): string[];
  /** The whole answer as one JSON body (a request that did not ask to stream). */
  whole(reply: Reply): JsonObject;
}

export interface Dialect {
  name: DialectName;
  parse(body: JsonObject, url: URL): ParsedRequest;
  writer(request: ParsedRequest): AnswerWriter;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asObject = (value: unknown): JsonObject => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {});
const asString = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What a CLI adds to the user's message for the model (skills, the date, its tools): not the prompt. */
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>\s*/g;

/** The text of a content that is a string or a list of parts with `text` (any part type that has it), reminders left out. */
function textOf(content: unknown): string {
  const parts = typeof content === 'string' ? [content] : asArray(content).map((part) => asString(asObject(part).text));
  return parts
    .map((text) => text.replace(REMINDER, ''))
    .filter((text) => text.trim() !== '')
    .join('\n');
}

/** The last item that is not the system's or the developer's (some CLIs append an environment note after the user's message). */
function lastSpoken(items: JsonObject[]): JsonObject {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as JsonObject;
    if (item.role !== 'system' && item.role !== 'developer') return item;
  }
  return {};
}

const USAGE_TOKENS = { input: 12, output: 8 };

export const ANTHROPIC: Dialect = {
  name: 'anthropic',
  parse(body) {
    const last = lastSpoken(asArray(body.messages).map(asObject));
    const blocks = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : asArray(last.content).map(asObject);
    const result = blocks.find((block) => block.type === 'tool_result');
    const isUser = last.role === 'user';
    return {
      model: asString(body.model),
      stream: body.stream === true,
      tools: asArray(body.tools).map(asObject).map((tool) => ({ name: asString(tool.name), schema: asObject(tool.input_schema) })),
      newUserText: isUser && !result ? textOf(blocks) : undefined,
      toolResult: isUser && result ? textOf(result.content) : undefined,
      wantsJson: false,
      systemText: textOf(body.system),
      requiredTool: undefined,
    };
  },
  writer(request) {
    const messageId = id('msg');
    const toolId = id('toolu');
    const content = (reply: Reply) => [
      ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
      ...(reply.call ? [{ type: 'tool_use', id: toolId, name: reply.call.name, input: reply.call.args }] : []),
    ];
    const stopReason = (reply: Reply) => (reply.call ? 'tool_use' : 'end_turn');
    const usage = { input_tokens: USAGE_TOKENS.input, output_tokens: USAGE_TOKENS.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    let textOpen = false;
    return {
      open: () => [
        sse({ type: 'message_start', message: { id: messageId, type: 'message', role: 'assistant', model: request.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }, 'message_start'),
        sse({ type: 'ping' }, 'ping'),
      ],
      text: (delta) => {
        const frames: string[] = [];
        if (!textOpen) {
          textOpen = true;
          frames.push(sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'));
        }
        frames.push(sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: delta } }, 'content_block_delta'));
        return frames;
      },
      close: (reply) => {
        const frames: string[] = [];
        if (textOpen) frames.push(sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'));
        if (reply.call) {
          const index = textOpen ? 1 : 0;
          frames.push(
            sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: toolId, name: reply.call.name, input: {} } }, 'content_block_start'),
            sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.call.args) } }, 'content_block_delta'),
            sse({ type: 'content_block_stop', index }, 'content_block_stop'),
          );
        }
        frames.push(
          sse({ type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: USAGE_TOKENS.output } }, 'message_delta'),
          sse({ type: 'message_stop' }, 'message_stop'),
        );
        return frames;
      },
      whole: (reply) => ({ id: messageId, type: 'message', role: 'assistant', model: request.model, content: content(reply), stop_reason: stopReason(reply), stop_sequence: null, usage }),
    };
  },
};

export const OPENAI_CHAT: Dialect = {
  name: 'openai-chat',
  parse(body) {
    const messages = asArray(body.messages).map(asObject);
    const last = lastSpoken(messages);
    const format = asObject(body.response_format);
    const tools = asArray(body.tools).map(asObject).map((tool) => {
      const fn = asObject(tool.function);
      return { name: asString(fn.name), schema: asObject(fn.parameters) };
    });
    return {
      model: asString(body.model),
      stream: body.stream === true,
      tools,
      newUserText: last.role === 'user' ? textOf(last.content) : undefined,
      toolResult: last.role === 'tool' ? textOf(last.content) : undefined,
      wantsJson: format.type === 'json_schema' || format.type === 'json_object',
      systemText: messages.filter((message) => message.role === 'system').map((message) => textOf(message.content)).join('\n'),
      requiredTool: body.tool_choice === 'required' && tools.length === 1 ? tools[0] : undefined,
    };
  },
  writer(request) {
    const completionId = id('chatcmpl');
    const callId = id('call');
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: JsonObject, finish: string | null, extra: JsonObject = {}) =>
      sse({ id: completionId, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
    const usage = { prompt_tokens: USAGE_TOKENS.input, completion_tokens: USAGE_TOKENS.output, total_tokens: USAGE_TOKENS.input + USAGE_TOKENS.output };
    return {
      open: () => [chunk({ role: 'assistant', content: '' }, null)],
      text: (delta) => [chunk({ content: delta }, null)],
      close: (reply) => [
        ...(reply.call
          ? [chunk({ tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.args) } }] }, null)]
          : []),
        chunk({}, reply.call ? 'tool_calls' : 'stop'),
        sse({ id: completionId, object: 'chat.completion.chunk', created, model: request.model, choices: [], usage }),
        'data: [DONE]\n\n',
      ],
      whole: (reply) => ({
        id: completionId,
        object: 'chat.completion',
        created,
        model: request.model,
        choices: [{
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text || null,
            ...(reply.call ? { tool_calls: [{ id: callId, type: 'function', function: { name: reply.call.name, arguments: JSON.stringify(reply.call.args) } }] } : {}),
          },
          finish_reason: reply.call ? 'tool_calls' : 'stop',
        }],
        usage,
      }),
    };
  },
};

export const OPENAI_RESPONSES: Dialect = {
  name: 'openai-responses',
  parse(body) {
    const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : asArray(body.input).map(asObject);
    const last = lastSpoken(input);
    const isMessage = last.type === 'message' || (last.type === undefined && last.role !== undefined);
    const isResult = typeof last.type === 'string' && last.type.endsWith('_output');
    return {
      model: asString(body.model),
      stream: body.stream === true,
      tools: asArray(body.tools).map(asObject).filter((tool) => tool.type === 'function').map((tool) => ({ name: asString(tool.name), schema: asObject(tool.parameters) })),
      newUserText: isMessage && last.role === 'user' ? textOf(last.content) : undefined,
      toolResult: isResult ? (typeof last.output === 'string' ? last.output : JSON.stringify(last.output)) : undefined,
      wantsJson: asObject(asObject(body.text).format).type === 'json_schema',
      systemText: asString(body.instructions),
      requiredTool: undefined,
    };
  },
  writer(request) {
    const responseId = id('resp');
    const messageId = id('msg');
    const callItemId = id('fc');
    const callId = id('call');
    const created = Math.floor(Date.now() / 1000);
    let sequence = 0;
    let text = '';
    const event = (type: string, data: JsonObject) => sse({ type, sequence_number: sequence++, ...data }, type);
    const response = (status: string, output: JsonObject[]) => ({
      id: responseId,
      object: 'response',
      created_at: created,
      status,
      model: request.model,
      output,
      ...(status === 'completed'
        ? { usage: { input_tokens: USAGE_TOKENS.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: USAGE_TOKENS.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: USAGE_TOKENS.input + USAGE_TOKENS.output } }
        : {}),
    });
    const messageItem = (status: string) => ({
      type: 'message',
      id: messageId,
      role: 'assistant',
      status,
      content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
    });
    const callItem = (reply: Reply) =>
      reply.call ? { type: 'function_call', id: callItemId, call_id: callId, name: reply.call.name, arguments: JSON.stringify(reply.call.args), status: 'completed' } : undefined;
    const outputOf = (reply: Reply) => {
      const call = callItem(reply);
      return [...(reply.text ? [messageItem('completed')] : []), ...(call ? [call] : [])];
    };
    let messageOpen = false;
    return {
      open: () => [event('response.created', { response: response('in_progress', []) }), event('response.in_progress', { response: response('in_progress', []) })],
      text: (delta) => {
        const frames: string[] = [];
        if (!messageOpen) {
          messageOpen = true;
          frames.push(
            event('response.output_item.added', { output_index: 0, item: messageItem('in_progress') }),
            event('response.content_part.added', { item_id: messageId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }),
          );
        }
        text += delta;
        frames.push(event('response.output_text.delta', { item_id: messageId, output_index: 0, content_index: 0, delta }));
        return frames;
      },
      close: (reply) => {
        const frames: string[] = [];
        if (messageOpen) {
          frames.push(
            event('response.output_text.done', { item_id: messageId, output_index: 0, content_index: 0, text }),
            event('response.content_part.done', { item_id: messageId, output_index: 0, content_index: 0, part: { type: 'output_text', text, annotations: [] } }),
            event('response.output_item.done', { output_index: 0, item: messageItem('completed') }),
          );
        }
        const call = callItem(reply);
        if (call) {
          const index = messageOpen ? 1 : 0;
          frames.push(
            event('response.output_item.added', { output_index: index, item: { ...call, arguments: '', status: 'in_progress' } }),
            event('response.function_call_arguments.delta', { item_id: callItemId, output_index: index, delta: call.arguments }),
            event('response.function_call_arguments.done', { item_id: callItemId, output_index: index, arguments: call.arguments }),
            event('response.output_item.done', { output_index: index, item: call }),
          );
        }
        frames.push(event('response.completed', { response: response('completed', outputOf(reply)) }));
        return frames;
      },
      whole: (reply) => response('completed', outputOf(reply)),
    };
  },
};

export const GEMINI: Dialect = {
  name: 'gemini',
  parse(body, url) {
    const contents = asArray(body.contents).map(asObject);
    const last = contents[contents.length - 1] ?? {};
    const parts = asArray(last.parts).map(asObject);
    const result = parts.find((part) => part.functionResponse !== undefined);
    const model = /models\/([^:/]+)/.exec(url.pathname)?.[1] ?? '';
    const config = asObject(body.generationConfig);
    return {
      model,
      stream: url.pathname.includes(':streamGenerateContent'),
      tools: asArray(body.tools)
        .map(asObject)
        .flatMap((tool) => asArray(tool.functionDeclarations).map(asObject))
        .map((fn) => ({ name: asString(fn.name), schema: asObject(fn.parametersJsonSchema ?? fn.parameters) })),
      // gemini-cli puts a `<session_context>` part before the prompt of a session's first turn.
      newUserText: last.role === 'user' && !result ? textOf(parts.filter((part) => !asString(part.text).startsWith('<session_context>'))) : undefined,
      toolResult: result ? JSON.stringify(asObject(result.functionResponse).response ?? {}) : undefined,
      wantsJson: config.responseMimeType === 'application/json',
      systemText: textOf(asObject(body.systemInstruction).parts),
      requiredTool: undefined,
    };
  },
  writer(request) {
    const usageMetadata = { promptTokenCount: USAGE_TOKENS.input, candidatesTokenCount: USAGE_TOKENS.output, totalTokenCount: USAGE_TOKENS.input + USAGE_TOKENS.output };
    const chunk = (parts: JsonObject[], finishReason?: string) => ({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
      ...(finishReason ? { usageMetadata } : {}),
      modelVersion: request.model,
      responseId: id('resp'),
    });
    const partsOf = (reply: Reply) => [...(reply.text ? [{ text: reply.text }] : []), ...(reply.call ? [{ functionCall: { name: reply.call.name, args: reply.call.args } }] : [])];
    return {
      open: () => [],
      text: (delta) => [sse(chunk([{ text: delta }]))],
      close: (reply) => [sse(chunk(reply.call ? [{ functionCall: { name: reply.call.name, args: reply.call.args } }] : [{ text: '' }], 'STOP'))],
      whole: (reply) => chunk(partsOf(reply), 'STOP'),
    };
  },
};

/** The dialect a request path speaks, if any. */
export function dialectOf(url: URL, method: string): Dialect | undefined {
  if (method !== 'POST') return undefined;
  const path = url.pathname;
  if (path.endsWith('/messages')) return ANTHROPIC;
  if (path.endsWith('/chat/completions')) return OPENAI_CHAT;
  if (path.endsWith('/responses')) return OPENAI_RESPONSES;
  if (/:(?:streamGenerateContent|generateContent)$/.test(path)) return GEMINI;
  return undefined;
}
