/**
 * The input schemas the MCP tools declare, made fillable by any client. The socket's schemas
 * read an absent field from `null` too (herdr's clients send it, `protocol/optional.ts`), which
 * JSON Schema can only say as `anyOf: [T, null]`: a generic client (the MCP Inspector, a model)
 * then cannot see the type and sends a string. Here every optional field is plain `T`, left
 * out of `required`, and every property carries a description with an example.
 */
import { z } from 'zod';

/** Descriptions of the properties the tools share, by name, for those their schema leaves undescribed. */
const DESCRIBED: Record<string, string> = {
  target: 'the agent: its name, instance id or pane id, e.g. "alpha" or "w1:p2"',
  text: 'the prompt, as the agent should read it, e.g. "Fix the failing test in src/parse.ts"',
  key: 'a key of yours for this prompt, e.g. "task-42": sent again with the same key, it types nothing and answers the same turn',
  stall_ms: 'how long the agent has to take the prompt before the turn ends stalled, in ms (default 5000), e.g. 10000',
  until: 'the statuses that end the wait, e.g. ["done", "blocked"] (default: idle, done or blocked)',
  timeout_ms: 'how long to wait at most, in ms, e.g. 600000',
  name: 'a name to address it by later: a lowercase letter, then a-z 0-9 - _, e.g. "alpha"',
  kind: 'a known agent: claude, codex, gemini, opencode, pi, qwen, …, e.g. "claude"',
  args: 'arguments appended to the kind\'s command, e.g. ["--model", "sonnet"]',
  command: 'the whole command as argv instead of a kind, e.g. ["aider", "--yes"]',
  cwd: 'the directory it starts in, e.g. "/home/me/src/app" (default: where herdr mcp runs, on the local server)',
  env: 'environment variables added to its own, e.g. {"DEBUG": "1"}',
  label: 'a label for its pane, shown in herdr watch and herdr web, e.g. "reviewer"',
  lines: 'how many lines at most, e.g. 200',
  source: 'visible: the screen; recent: the last `lines` lines, scrollback included',
  strip_ansi: 'true (default): plain text; false: with colour escapes',
  format: 'the text\'s format: "text" (default) or "ansi"',
  keys: 'the keys, each a character or a name, e.g. ["1"], ["Down", "Enter"] or ["C-c"]',
  branch: 'the new branch of the worktree, e.g. "fix-login"',
  base: 'what the branch starts from, e.g. "main" (default: HEAD)',
  path: 'where the worktree goes (default: under the server\'s worktrees directory)',
  option: 'the option to choose, as `approvals` lists its key, e.g. "1"',
  question_hash: 'the question_hash `approvals` listed with it: an answer to a question that changed since is refused',
  pane: 'the pane as `approvals` lists it, e.g. "w1:p2"',
};

/** A schema as a generic client can fill it: optional fields plain, nulls not taken, every property described. */
export function toolInput<T extends z.ZodObject>(schema: T): T {
  // The output of a field is the same as before (absent reads as undefined); only null is no longer taken.
  return plain(schema) as unknown as T;
}

function plain(schema: z.ZodType, name?: string): z.ZodType {
  const description = schema.description ?? (name === undefined ? undefined : DESCRIBED[name]);
  const rebuilt = rebuild(schema, name);
  return description === undefined || rebuilt.description === description ? rebuilt : rebuilt.describe(description);
}

function rebuild(schema: z.ZodType, name: string | undefined): z.ZodType {
  if (schema instanceof z.ZodPipe && schema.out instanceof z.ZodTransform) {
    // herdr's optional(): nullish, then null read as absent.
    return plain(schema.in as z.ZodType, name);
  }
  if (schema instanceof z.ZodOptional) return plain(schema.unwrap() as z.ZodType, name).optional();
  if (schema instanceof z.ZodNullable) return plain(schema.unwrap() as z.ZodType, name);
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) shape[key] = plain(field, key);
    // Its checks (a refine: exactly one of two fields) kept.
    return schema.clone({ ...schema._zod.def, shape });
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const options = (schema.options as z.ZodType[]).map((option) => plain(option)) as [z.ZodObject, ...z.ZodObject[]];
    return z.discriminatedUnion(schema._zod.def.discriminator, options);
  }
  if (schema instanceof z.ZodUnion) return z.union((schema.options as z.ZodType[]).map((option) => plain(option)) as [z.ZodType, ...z.ZodType[]]);
  // Its checks (min, max) kept: the same array of plain elements.
  if (schema instanceof z.ZodArray) return schema.clone({ ...schema._zod.def, element: plain(schema.element as z.ZodType) });
  return schema;
}
