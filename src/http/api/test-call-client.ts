/**
 * Who the audit says made a test call (`POST /api/servers/{name}/tools/{tool}/call`): the
 * admin (`clientId` `admin`), and as its MCP client (`clientName`) `boternity-ui` when the
 * request came with the web UI's session cookie, `boternity-test-tool/0.1.0` when it came
 * with the admin token (`bnity mcp test-tool`, a script). So the audit tells the UI's own
 * test calls from an agent's calls and from the CLI's, and `?clientName=boternity-ui` lists them.
 * @module
 */
import type { Context } from 'hono';

/** The `clientName` of a test call made from the web UI. */
export const UI_TEST_CLIENT = 'boternity-ui';

/** The MCP `clientInfo` the in-process session of a test call announces. */
export function testCallClient(c: Context): { name: string; version: string } {
  // No version: the stored clientName is the name alone, one exact value to filter on.
  return c.get('uiSession') ? { name: UI_TEST_CLIENT, version: '' } : { name: 'boternity-test-tool', version: '0.1.0' };
}
