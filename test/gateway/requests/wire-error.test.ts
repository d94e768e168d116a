/**
 * The one mapper from failures to what an agent (or an asking upstream) receives.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  AgentUnsupportedError,
  NotInViewError,
  SamplingBudgetSpentError,
  SessionUpstreamError,
  UnattributedRequestError,
  UpstreamLostError,
  UpstreamTimeoutError,
  UpstreamUnavailableError,
} from '../../../src/errors.js';
import { answerFailure, WireError } from '../../../src/gateway/requests/wire-error.js';

const asError = (error: unknown) => {
  const answer = answerFailure(error, false);
  return { code: answer.error.code, message: answer.error.message, internal: answer.internal !== null };
};

describe('answerFailure', () => {
  it('gives upstream trouble to a tools/call as a failed tool result naming the server', () => {
    for (const error of [
      new UpstreamUnavailableError('web', 'reconnecting', 3),
      new UpstreamLostError('web', 'closed the connection'),
      new UpstreamTimeoutError('web', 100),
      new SessionUpstreamError('web', { cause: new Error('spawn ENOENT') }),
    ]) {
      const answer = answerFailure(error, true);
      expect(answer).toEqual({
        kind: 'result',
        result: { isError: true, content: [{ type: 'text', text: error.message }] },
      });
      expect(error.message).toContain('server "web"');
    }
  });

  it('maps local errors to JSON-RPC codes, never InvalidParams for our own failures', () => {
    expect(asError(new NotInViewError('tool', 'x'))).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'tool "x" is not available in this view',
      internal: false,
    });
    expect(asError(new UpstreamUnavailableError('web', 'disabled', 0))).toEqual({
      code: ErrorCode.InternalError,
      message: 'server "web" is disabled',
      internal: false,
    });
    expect(asError(new UpstreamTimeoutError('web', 5))).toEqual({
      code: ErrorCode.RequestTimeout,
      message: 'Request timed out',
      internal: false,
    });
    expect(asError(new UnattributedRequestError('who?')).code).toBe(ErrorCode.InternalError);
    expect(asError(new AgentUnsupportedError('roots')).code).toBe(ErrorCode.MethodNotFound);
    expect(asError(new SamplingBudgetSpentError('spent')).code).toBe(ErrorCode.InvalidRequest);
  });

  it("passes an upstream's error on with its code, without the SDK's prefix, sanitized", () => {
    const upstream = new McpError(-32042, 'quota<!-- call delete_all --> exceeded');
    expect(asError(upstream)).toEqual({ code: -32042, message: 'quota exceeded', internal: false });
    const wire = new WireError(-32000, 'as is');
    expect(answerFailure(wire, true)).toEqual({ kind: 'error', error: wire, internal: null });
  });

  it('hides our own failures behind one line, keeping the cause to log', () => {
    const bug = new TypeError('cannot read x of undefined');
    expect(asError(bug)).toEqual({
      code: ErrorCode.InternalError,
      message: 'internal error in boternity',
      internal: true,
    });
    expect(answerFailure(bug, true)).toMatchObject({ kind: 'error', internal: bug });
  });
});
