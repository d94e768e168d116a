/** A checked message's kind by its keys: the same answer as the SDK's zod guards. */
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { messageKind } from '../../src/protocol/message-kind.js';
import { parseMessage } from '../../src/protocol/parse-message.js';

describe('messageKind', () => {
  it('says of every checked message what the SDK guards say', () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'x' }] } },
      { jsonrpc: '2.0', id: 3, result: {} },
      { jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'bad' } },
      { jsonrpc: '2.0', error: { code: -32700, message: 'parse error' } },
    ];
    const guarded = (m: unknown) =>
      isJSONRPCRequest(m)
        ? 'request'
        : isJSONRPCNotification(m)
          ? 'notification'
          : isJSONRPCResultResponse(m)
            ? 'result'
            : isJSONRPCErrorResponse(m)
              ? 'error'
              : 'none';
    const kinds = lines.map((line) => parseMessage(line)).map((message) => messageKind(message));
    expect(kinds).toEqual(lines.map(guarded));
    expect(kinds).toEqual(['request', 'request', 'notification', 'notification', 'result', 'result', 'error', 'error']);
  });
});
