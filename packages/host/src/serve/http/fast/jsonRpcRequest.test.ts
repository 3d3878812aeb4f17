import { isJSONRPCRequest, RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isJsonRpcRequest } from './jsonRpcRequest.js';

/** Every shape the SDK's JSONRPCRequestSchema tells apart, as JSON text (the fast path only sees parsed JSON). */
const BODIES: readonly string[] = [
  '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}',
  '{"jsonrpc":"2.0","id":0,"method":"","params":{"cursor":"x","_meta":{}}}',
  '{"jsonrpc":"2.0","id":-7,"method":"tools/call","params":{"name":"t","arguments":{"a":1},"_meta":{"progressToken":3}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"p","other":[1,2]}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1.5}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":null}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":true}}}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":9007199254740993}}}',
  `{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"${RELATED_TASK_META_KEY}":{"taskId":"t1","more":1}}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"${RELATED_TASK_META_KEY}":{"taskId":7}}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"${RELATED_TASK_META_KEY}":null}}}`,
  `{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"${RELATED_TASK_META_KEY}":[]}}}`,
  '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":null}}',
  '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":[]}}',
  '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":"x"}}',
  '{"jsonrpc":"2.0","id":1,"method":"m","params":null}',
  '{"jsonrpc":"2.0","id":1,"method":"m","params":[]}',
  '{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}',
  '{"jsonrpc":"2.0","id":1,"method":"m","params":{"__proto__":{"a":1}}}',
  '{"jsonrpc":"2.0","id":1.5,"method":"m"}',
  '{"jsonrpc":"2.0","id":1e300,"method":"m"}',
  '{"jsonrpc":"2.0","id":9007199254740991,"method":"m"}',
  '{"jsonrpc":"2.0","id":9007199254740992,"method":"m"}',
  '{"jsonrpc":"2.0","id":-0,"method":"m"}',
  '{"jsonrpc":"2.0","id":null,"method":"m"}',
  '{"jsonrpc":"2.0","id":true,"method":"m"}',
  '{"jsonrpc":"2.0","id":{},"method":"m"}',
  '{"jsonrpc":"2.0","method":"m"}',
  '{"jsonrpc":"2.0","id":1}',
  '{"jsonrpc":"2.0","id":1,"method":7}',
  '{"jsonrpc":"1.0","id":1,"method":"m"}',
  '{"jsonrpc":2,"id":1,"method":"m"}',
  '{"id":1,"method":"m"}',
  '{"jsonrpc":"2.0","id":1,"method":"m","extra":1}',
  '{"jsonrpc":"2.0","id":1,"method":"m","__proto__":{"x":1}}',
  '{"jsonrpc":"2.0","id":1,"method":"m","result":{}}',
  '{"jsonrpc":"2.0","id":1,"method":"m","params":{},"params2":{}}',
  '[{"jsonrpc":"2.0","id":1,"method":"m"}]',
  'null',
  '"text"',
  '42',
];

describe('isJsonRpcRequest: the SDK\'s isJSONRPCRequest for parsed JSON, without its zod parse', () => {
  it.each(BODIES)('agrees with the SDK on %s', (text) => {
    const body: unknown = JSON.parse(text);
    expect(isJsonRpcRequest(body)).toBe(isJSONRPCRequest(body));
  });

  it('tells requests from everything else (the corpus is not one-sided)', () => {
    const verdicts = BODIES.map((text) => isJsonRpcRequest(JSON.parse(text)));
    expect(verdicts.filter(Boolean).length).toBeGreaterThanOrEqual(8);
    expect(verdicts.filter((v) => !v).length).toBeGreaterThanOrEqual(20);
  });
});
