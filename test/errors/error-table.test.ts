/**
 * The one table of how errors are answered (issue 20, ADR 029): every local error class,
 * through the one mapping to the wire (`toWireError`, `answerFailure`) and the one to HTTP
 * (`errorReply`), against a row of its own here. A new error class without a row fails.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/errors.js';
import { answerFailure, toWireError } from '../../src/gateway/requests/wire-error.js';
import { errorReply } from '../../src/http/perimeter/http-errors.js';

const cap = { setting: 'limits.inFlight.perUpstream', limit: 2, what: 'server "web"' };

/** `internal`: no JSON-RPC code of its own, answered -32603 "internal error in boternity" and logged. */
type Expected = { rpc: number | 'internal'; status: number; toolResult?: true; headers?: Record<string, string> };

/** One row per error class: how to make one, and how it is answered. */
const ROWS: Record<string, [make: () => errors.HubError, expected: Expected]> = {
  HubError: [() => new errors.HubError('conflict', 'taken'), { rpc: -32602, status: 409 }],
  ConfigError: [() => new errors.ConfigError('bad', 'boternity.json'), { rpc: 'internal', status: 400 }],
  UnknownServerError: [() => new errors.UnknownServerError('web'), { rpc: -32602, status: 404 }],
  UpstreamUnavailableError: [
    () => new errors.UpstreamUnavailableError('web', 'reconnecting', 2),
    { rpc: -32603, status: 503, toolResult: true },
  ],
  ForbiddenError: [() => new errors.ForbiddenError('no'), { rpc: -32600, status: 403 }],
  RateLimitedError: [
    () => new errors.RateLimitedError(3),
    { rpc: -32000, status: 429, headers: { 'Retry-After': '3' } },
  ],
  UpstreamLostError: [
    () => new errors.UpstreamLostError('web', 'closed the connection'),
    { rpc: -32603, status: 502, toolResult: true },
  ],
  UnreadableLineError: [
    () => new errors.UnreadableLineError('not JSON', 'x', 1),
    { rpc: -32603, status: 502, toolResult: true },
  ],
  SessionUpstreamError: [
    () => new errors.SessionUpstreamError('web', { cause: new Error('spawn ENOENT') }),
    { rpc: -32603, status: 502, toolResult: true },
  ],
  UpstreamTimeoutError: [
    () => new errors.UpstreamTimeoutError('web', 100),
    { rpc: -32001, status: 504, toolResult: true },
  ],
  NotInViewError: [() => new errors.NotInViewError('tool', 'x'), { rpc: -32602, status: 400 }],
  UnattributedRequestError: [() => new errors.UnattributedRequestError('who?'), { rpc: -32603, status: 409 }],
  AgentUnsupportedError: [() => new errors.AgentUnsupportedError('roots'), { rpc: -32601, status: 501 }],
  SamplingBudgetSpentError: [() => new errors.SamplingBudgetSpentError('spent'), { rpc: -32600, status: 429 }],
  SamplingRefusedError: [() => new errors.SamplingRefusedError('deny'), { rpc: -32600, status: 403 }],
  InFlightCapError: [
    () => new errors.InFlightCapError('web', 4, cap),
    { rpc: -32000, status: 429, headers: { 'Retry-After': '1' } },
  ],
  InFlightWaitTimeoutError: [
    () => new errors.InFlightWaitTimeoutError('web', 100, cap),
    { rpc: -32001, status: 504, toolResult: true },
  ],
  BotError: [() => new errors.BotError('invalid_input', 'bad_request', 'no'), { rpc: -32602, status: 400 }],
  UnknownBotError: [() => new errors.UnknownBotError('x'), { rpc: -32602, status: 404 }],
  BotExistsError: [() => new errors.BotExistsError('x'), { rpc: -32602, status: 409 }],
  BotInputError: [() => new errors.BotInputError('slug: required'), { rpc: -32602, status: 400 }],
  BotItemNotFoundError: [() => new errors.BotItemNotFoundError('skill', 'x', 'y'), { rpc: -32602, status: 404 }],
  ProviderError: [
    () => new errors.ProviderError('provider_unreachable', 'down'),
    { rpc: -32603, status: 503, toolResult: true },
  ],
  MessageTooLargeError: [() => new errors.MessageTooLargeError(9, 8), { rpc: -32602, status: 413 }],
  BotBudgetExceededError: [() => new errors.BotBudgetExceededError('spent'), { rpc: -32600, status: 403 }],
  TemplateError: [() => new errors.TemplateError('{{'), { rpc: -32602, status: 400 }],
  UnknownBotToolError: [() => new errors.UnknownBotToolError('tool', 'x'), { rpc: -32602, status: 404 }],
  ServiceUnreachableError: [
    () => new errors.ServiceUnreachableError('http://127.0.0.1:1', 'ECONNREFUSED'),
    { rpc: -32603, status: 503, toolResult: true },
  ],
  UsageError: [() => new errors.UsageError('no such flag'), { rpc: -32602, status: 400 }],
  FileLockedError: [() => new errors.FileLockedError('/x/boternity.json', 10), { rpc: -32602, status: 409 }],
  SessionLimitError: [
    () => new errors.SessionLimitError('per_token', 2),
    { rpc: -32000, status: 429, headers: { 'Retry-After': '1' } },
  ],
  StoreUnavailableError: [() => new errors.StoreUnavailableError('checking a token'), { rpc: -32603, status: 503 }],
  ShuttingDownError: [
    () => new errors.ShuttingDownError(),
    { rpc: -32000, status: 503, headers: { Connection: 'close' } },
  ],
  RequestEndedError: [() => new errors.RequestEndedError('client cancelled'), { rpc: -32000, status: 409 }],
  KeystoreError: [() => new errors.KeystoreError('unreadable'), { rpc: 'internal', status: 500 }],
  DatabaseError: [
    () => new errors.DatabaseError('database postgres://u@h:5432/d: nothing answers there'),
    { rpc: 'internal', status: 500 },
  ],
  InvalidCredentialNameError: [() => new errors.InvalidCredentialNameError('a b'), { rpc: -32602, status: 400 }],
  UpstreamAnswerTooLargeError: [
    () => new errors.UpstreamAnswerTooLargeError('web', 10, false),
    { rpc: -32603, status: 502, toolResult: true },
  ],
  AnswerStreamError: [
    () => new errors.AnswerStreamError('web', 'ended'),
    { rpc: -32603, status: 502, toolResult: true },
  ],
  UpstreamMessageTooLargeError: [
    () => new errors.UpstreamMessageTooLargeError('web', 11, 10),
    { rpc: -32602, status: 413 },
  ],
  NeedsAuthorizationError: [
    () => new errors.NeedsAuthorizationError('web', 'https://as.example', 'no authorization is stored'),
    { rpc: -32603, status: 503, toolResult: true },
  ],
  OAuthFlowError: [() => new errors.OAuthFlowError('unknown state'), { rpc: -32602, status: 400 }],
  UpstreamRedirectError: [
    () => new errors.UpstreamRedirectError('web', 'https://other.example/mcp'),
    { rpc: -32603, status: 502, toolResult: true },
  ],
  PeerRequestCapError: [
    () => new errors.PeerRequestCapError('web', 16),
    { rpc: -32000, status: 429, headers: { 'Retry-After': '1' } },
  ],
};

/** Every error class the errors part exports: HubError and what extends it. */
const classes = Object.entries(errors).filter(
  ([, value]) =>
    typeof value === 'function' && (value === errors.HubError || value.prototype instanceof errors.HubError),
);

describe('the error table', () => {
  it('has a row for every error class, and no row for a class that is gone', () => {
    expect(classes.length).toBeGreaterThan(30);
    expect(Object.keys(ROWS).sort()).toEqual(classes.map(([name]) => name).sort());
  });

  it.each(Object.entries(ROWS))('answers %s on the wire and over HTTP as its row says', (name, [make, expected]) => {
    const error = make();
    expect(error).toBeInstanceOf((errors as unknown as Record<string, new (...a: never[]) => unknown>)[name]);
    // The wire: a JSON-RPC error with the row's code and the error's own message (or, for
    // upstream trouble on a tools/call, a failed tool result the model reads).
    const answer = answerFailure(error, false);
    if (expected.rpc === 'internal') {
      expect(toWireError(error)).toBeNull();
      expect(answer.error.code).toBe(ErrorCode.InternalError);
      expect(answer.error.message).toBe('internal error in boternity');
      expect(answer.internal).toBe(error);
    } else {
      expect(answer.error.code).toBe(expected.rpc);
      expect(answer.internal).toBeNull();
      if (!(error instanceof errors.UpstreamTimeoutError)) expect(answer.error.message).toBe(error.message);
    }
    const asTool = answerFailure(error, true);
    expect(asTool.kind).toBe(expected.toolResult ? 'result' : 'error');
    if (asTool.kind === 'result')
      expect(asTool.result).toEqual({ isError: true, content: [{ type: 'text', text: error.message }] });
    // HTTP: the row's status, the one error shape, the headers that say when to retry.
    const reply = errorReply(error);
    expect(reply?.status).toBe(expected.status);
    expect(reply?.body.error).toMatchObject({ code: error.code });
    expect(reply?.headers).toEqual(expected.headers ?? {});
  });

  it('gives every code a status and a JSON-RPC code the SDK knows', () => {
    const known = new Set<number>(Object.values(ErrorCode).filter((v): v is number => typeof v === 'number'));
    for (const [code, row] of Object.entries(errors.ERROR_TABLE)) {
      expect(row.status, code).toBeGreaterThanOrEqual(400);
      expect(row.status, code).toBeLessThan(600);
      if (row.rpc !== null) expect(known.has(row.rpc) || row.rpc === -32000, code).toBe(true);
      // Each code answered like its plain HubError: the table alone decides.
      expect(errorReply(new errors.HubError(code as errors.HubErrorCode, 'x'))?.status, code).toBe(row.status);
      const wire = toWireError(new errors.HubError(code as errors.HubErrorCode, 'x'));
      expect(wire?.code ?? null, code).toBe(row.rpc);
    }
    for (const [name, value] of Object.entries(errors.RPC))
      expect(value, name).toBe(ErrorCode[name as keyof typeof ErrorCode]);
  });

  it("answers the service's own session cap with 503, the token's with 429", () => {
    expect(errorReply(new errors.SessionLimitError('total', 100))?.status).toBe(503);
    expect(errorReply(new errors.SessionLimitError('per_token', 2))?.status).toBe(429);
  });
});
