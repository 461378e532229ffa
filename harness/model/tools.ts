/**
 * Calling "the shell tool" of whichever CLI asked: each names and shapes it its own way
 * (claude `Bash {command}`, codex `shell {command: argv}` or `exec_command {cmd}`, opencode
 * `bash {command, description}`, gemini and qwen `run_shell_command {command}`). The tool is
 * found by name among those the request offers, and its arguments are built from its schema.
 */
import type { JsonObject, ToolSpec } from './dialects.js';

const SHELL_TOOL_NAMES = ['bash', 'shell', 'shell_command', 'exec_command', 'run_shell_command', 'local_shell', 'execute_command', 'run_command'];

/** The shell tool the request offers, if any. */
export function shellTool(tools: readonly ToolSpec[]): ToolSpec | undefined {
  for (const name of SHELL_TOOL_NAMES) {
    const tool = tools.find((t) => t.name.toLowerCase() === name);
    if (tool) return tool;
  }
  return undefined;
}

const asObject = (value: unknown): JsonObject => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {});

/** The arguments for running `command` through `tool`: its command field as the schema types it, its other required fields filled. */
export function shellArguments(tool: ToolSpec, command: string): JsonObject {
  const properties = asObject(tool.schema?.properties);
  const required = Array.isArray(tool.schema?.required) ? (tool.schema.required as unknown[]).filter((name): name is string => typeof name === 'string') : [];
  const field = ['command', 'cmd', 'script'].find((name) => name in properties) ?? 'command';
  const type = asObject(properties[field]).type;
  const args: JsonObject = { [field]: type === 'array' ? ['bash', '-lc', command] : command };
  for (const name of required) {
    if (name in args) continue;
    const property = asObject(properties[name]);
    if (name === 'description' || property.type === 'string') args[name] = name === 'description' ? `Runs ${command}` : '';
    else if (property.type === 'number' || property.type === 'integer') args[name] = 60_000;
    else if (property.type === 'boolean') args[name] = false;
  }
  return args;
}

/** A value that fits a JSON Schema, as small as it can be (the first of an enum): a side request's JSON answer. */
export function sampleOf(schema: unknown): unknown {
  const node = asObject(schema);
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  const type = typeof node.type === 'string' ? node.type.toLowerCase() : Array.isArray(node.type) ? String(node.type[0]).toLowerCase() : undefined;
  if (type === 'object' || node.properties !== undefined) {
    const out: JsonObject = {};
    for (const [name, sub] of Object.entries(asObject(node.properties))) out[name] = sampleOf(sub);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  return type === 'string' ? '' : null;
}
