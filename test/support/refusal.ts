/**
 * What an MCP request was refused with, for tests of the errors agents get.
 * @module
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** The McpError `request` rejected with; fails when it resolved or rejected otherwise. */
export async function refusal(request: Promise<unknown>): Promise<McpError> {
  const error = await request.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}
