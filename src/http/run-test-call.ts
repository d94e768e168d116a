/**
 * One test-tool call (SPEC A1) made the way an agent makes it: an in-process MCP session of
 * the admin on the aggregate view (`/mcp`), an SDK client on the other end of an in-memory
 * transport, so the view, the pins, the sanitizer and the audit all apply. Progress is asked
 * for only when someone listens (the client then sends a `progressToken`, which the gateway
 * relays upstream like an agent's, ADR 026); aborting `signal` is the client's own cancel:
 * the SDK sends `notifications/cancelled`, the gateway cancels the upstream call and audits
 * it as cancelled by the client.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from '../gateway/create-gateway.js';
import { ProgressBeforeAnswer } from '../protocol/progress-before-answer.js';

/** Who the audit says made the call. */
const CLIENT_ID = 'admin';

/** What {@link runTestCall} needs to know. */
export type TestCallOptions = {
  /** The server and its tool's own name (for the session's label). */
  readonly server: string;
  readonly tool: string;
  /** The tool's public name on the aggregate view, `{server}__{tool}`. */
  readonly publicName: string;
  readonly args: Record<string, unknown>;
  /** The MCP client the session announces: its `clientName` tells the UI's test calls from the CLI's (`test-call-client.ts`). */
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** How long the call may go without an answer (or, with progress, without news). */
  readonly timeoutMs: number;
  /** Aborted when whoever asked has gone: the call is cancelled upstream. */
  readonly signal: AbortSignal;
  /** Each progress notification of this call, in order; none asked for when absent. */
  readonly onProgress?: (progress: Progress) => void;
};

/** The result and how long the call took, from sending it to its answer, in whole ms. */
export type TestCallAnswer = { readonly result: CallToolResult; readonly durationMs: number };

/** A failed call, with how long it ran before failing. */
export class TestCallFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly durationMs: number,
  ) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** Make the call; throws a {@link TestCallFailure} (the session's error inside). */
export async function runTestCall(gateway: Gateway, options: TestCallOptions): Promise<TestCallAnswer> {
  const { server, tool, publicName, args, timeoutMs, signal, onProgress, clientInfo } = options;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ ...clientInfo });
  let started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    await gateway.openSession({
      transport: serverSide,
      spec: { kind: 'all' },
      label: `api test-tool ${server}/${tool}`,
      idles: false,
      clientId: CLIENT_ID,
    });
    await client.connect(new ProgressBeforeAnswer(clientSide));
    started = performance.now();
    const result = (await client.callTool({ name: publicName, arguments: args }, undefined, {
      timeout: timeoutMs,
      signal,
      // Progress is news from a call that is still going: its timeout starts again, as upstream.
      ...(onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {}),
    })) as CallToolResult;
    return { result, durationMs: took() };
  } catch (error) {
    throw new TestCallFailure(error, took());
  } finally {
    await client.close();
  }
}
