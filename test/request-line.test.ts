/**
 * One request line parsed on its own (`parseRequestLine`, src/main/router.ts;
 * docs/protocol.md §2): what makes an envelope wrong, which request id the
 * error answer can still carry, and integers past 2^53 (hooks' nanosecond
 * `seq`) kept exact. No server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RequestLineError, parseRequestLine } from '../src/main/router.js';

/** The parse must fail as `invalid_request`, answerable with `id`, saying `message`. */
function rejects(line: string, id: string, message: RegExp): void {
  assert.throws(
    () => parseRequestLine(line),
    (error: unknown) => {
      assert.ok(error instanceof RequestLineError, `${line.slice(0, 80)}: ${String(error)}`);
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.requestId, id, `the id the answer carries, for ${line.slice(0, 80)}`);
      assert.match(error.message, message);
      return true;
    },
  );
}

const params = (line: string): Record<string, unknown> => parseRequestLine(line).params as Record<string, unknown>;

describe('request lines', () => {
  it('a request gives its id, method and params; keep-alive only for a literal true', () => {
    assert.deepEqual(parseRequestLine('{"id":"r1","method":"pane.get","params":{"pane_id":"1-1"}}'), {
      id: 'r1',
      method: 'pane.get',
      params: { pane_id: '1-1' },
      keepAlive: false,
      dialect: undefined,
    });
    // docs/protocol.md §15.1: the envelope's protocol, 0 or herdr's current numbers.
    assert.equal(parseRequestLine('{"id":"r","method":"ping","params":{},"protocol":22}').dialect, 'current');
    assert.equal(parseRequestLine('{"id":"r","method":"ping","params":{},"protocol":0}').dialect, '0.2.0');
    rejects('{"id":"r7","method":"ping","params":{},"protocol":"22"}', 'r7', /^protocol "22" is not spoken here/);
    assert.equal(parseRequestLine('{"id":"r","method":"ping","params":{},"keep_alive":true}').keepAlive, true);
    for (const value of ['"yes"', '1', 'false', 'null']) {
      assert.equal(parseRequestLine(`{"id":"r","method":"ping","params":{},"keep_alive":${value}}`).keepAlive, false, value);
    }
    // Unknown envelope fields and an empty id are the router's business, not the envelope's.
    assert.equal(parseRequestLine('{"id":"","method":"ping","params":{},"extra":1}').id, '');
  });

  it('a line that is not JSON, or not an object, is answered with an empty id', () => {
    rejects('{"id":"r","method":"ping","params":{},}', '', /^invalid JSON: /);
    rejects('{"id":"r","method":"ping"', '', /^invalid JSON: /);
    rejects('not json at all', '', /^invalid JSON: /);
    for (const line of ['[{"id":"r","method":"ping","params":{}}]', '"just a string"', '42', 'null', 'true']) {
      rejects(line, '', /^request must be a JSON object$/);
    }
  });

  it('an id that is not a string is not echoed; once the id is read, every later error carries it', () => {
    rejects('{"id":7,"method":"ping","params":{}}', '', /^field id is missing or not a string$/);
    rejects('{"method":"ping","params":{}}', '', /^field id is missing or not a string$/);
    rejects('{"id":null,"method":"ping","params":{}}', '', /^field id is missing or not a string$/);
    rejects('{"id":"mine","params":{}}', 'mine', /^field method is missing or not a string$/);
    rejects('{"id":"mine","method":["ping"],"params":{}}', 'mine', /^field method is missing or not a string$/);
    rejects('{"id":"mine","method":"ping"}', 'mine', /^field params is missing$/);
    for (const value of ['null', '[]', '[{}]', '"x"', '0']) {
      rejects(`{"id":"mine","method":"ping","params":${value}}`, 'mine', /^field params must be an object$/);
    }
  });

  it('integers a double cannot hold come back exact, as bigint; everything else as JSON.parse gives it', () => {
    const got = params(
      '{"id":"r","method":"pane.report_agent","params":{"seq":1800000000000000123,"past":9007199254740993,"neg":-9007199254740993,' +
        '"limit":9007199254740991,"sixteen":1234567890123456,"small":42,"fraction":1.5,"list":[18446744073709551616]}}',
    );
    assert.equal(got.seq, 1800000000000000123n);
    assert.equal(got.past, 9007199254740993n);
    assert.equal(got.neg, -9007199254740993n);
    assert.equal(got.limit, Number.MAX_SAFE_INTEGER, 'a safe integer stays a number, however many digits');
    assert.equal(got.sixteen, 1234567890123456);
    assert.equal(got.small, 42);
    assert.equal(got.fraction, 1.5);
    assert.deepEqual(got.list, [18446744073709551616n]);
    // Without a long run of digits the line is plain JSON.parse: numbers only.
    assert.equal(params('{"id":"r","method":"m","params":{"seq":123456789012345}}').seq, 123456789012345);
    // Digits inside a string are text.
    assert.equal(parseRequestLine('{"id":"18000000000000001230","method":"m","params":{}}').id, '18000000000000001230');
  });

  it('what the exact parser refuses is parsed as JSON.parse would: duplicate keys (the last wins), deep nesting', () => {
    assert.equal(parseRequestLine('{"id":"a","id":"b","method":"m","params":{"seq":1800000000000000123}}').id, 'b');
    assert.equal(parseRequestLine('{"id":"a","id":"b","method":"m","params":{}}').id, 'b');
    const depth = 100_000;
    const deep = params(`{"id":"r","method":"m","params":{"x":${'['.repeat(depth)}${']'.repeat(depth)},"seq":1800000000000000123}}`);
    let level = 0;
    for (let node: unknown = deep.x; Array.isArray(node); node = node[0]) level++;
    assert.equal(level, depth, 'the whole nesting, not a truncated value');
  });
});
