/**
 * Typed methods of the method table, grouped as the method names are:
 * `client.pane.sendText({...})` is `call('pane.send_text', {...})`. The
 * groups are proxies over `call`, so that the method table in src/protocol
 * stays the one list of methods; the types admit only its names.
 */
import type { MethodInput, MethodName, MethodResults } from '../protocol/methods.js';

/** `send_text` → `sendText`. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** `events.subscribe` is not a request-and-answer: `HerdrClient.subscribe` is its typed form. */
type Callable = Exclude<MethodName, 'events.subscribe'>;

/** Params may be left out where every field is optional. */
type ParamsArgs<M extends MethodName> = {} extends MethodInput<M> ? [params?: MethodInput<M>] : [params: MethodInput<M>];

type GroupOf<M> = M extends `${infer Group}.${string}` ? Group : never;
export type GroupName = GroupOf<Callable>;

export type MethodGroup<G extends GroupName> = {
  [M in Callable as M extends `${G}.${infer Name}` ? Camel<Name> : never]: (...params: ParamsArgs<M>) => Promise<MethodResults[M]>;
};

type Call = (method: MethodName, params: object) => Promise<unknown>;

/** `sendText` → `send_text`. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export function methodGroup<G extends GroupName>(group: G, call: Call): MethodGroup<G> {
  return new Proxy({} as MethodGroup<G>, {
    get: (_target, name) =>
      typeof name === 'string' ? (params: object = {}) => call(`${group}.${snake(name)}` as MethodName, params) : undefined,
  });
}
