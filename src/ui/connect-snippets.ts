/**
 * The ready-to-paste connection snippets shown once a token is made (issue 19, tokens): one
 * per client, each with the endpoint the token is meant for (`/mcp`, or `/mcp/bots/{slug}`
 * for a bot token, whose view that is) and the token as its bearer. Pure, so each snippet is
 * tested as text (and the JSON ones parsed) without a browser.
 * @module
 */

/** One client's snippet: what to do with it (`where`) and the text to paste. */
export type ConnectSnippet = { client: string; label: string; where: string; text: string };

/** The snippets for a new token; `origin` is the service's (the page's `location.origin`). */
export function connectSnippets({
  origin,
  token,
  bot,
}: {
  origin: string;
  token: string;
  bot?: string | undefined;
}): ConnectSnippet[] {
  const url = bot ? `${origin}/mcp/bots/${bot}` : `${origin}/mcp`;
  const name = bot ? `boternity-${bot}` : 'boternity';
  const bearer = `Bearer ${token}`;
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  // The stdio bridge sends BOTERNITY_ADMIN_TOKEN as its bearer on the MCP endpoint only
  // (it asks /healthz, which needs none), so an issued token works there as well.
  const stdioArgs = ['mcp', 'serve', '--stdio', ...(bot ? ['--bot', bot] : [])];
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  });
  return [
    {
      client: 'claude-code',
      label: 'Claude Code',
      where: 'run in a terminal',
      text: `claude mcp add --transport http ${name} ${url} --header "Authorization: ${bearer}"\n`,
    },
    {
      client: 'claude-desktop',
      label: 'Claude Desktop',
      where: 'merge into claude_desktop_config.json (bnity on the PATH bridges stdio to the service)',
      text: json({
        mcpServers: {
          [name]: { command: 'bnity', args: stdioArgs, env: { BOTERNITY_URL: origin, BOTERNITY_ADMIN_TOKEN: token } },
        },
      }),
    },
    {
      client: 'cursor',
      label: 'Cursor',
      where: 'merge into .cursor/mcp.json',
      text: json({ mcpServers: { [name]: { url, headers: { Authorization: bearer } } } }),
    },
    {
      client: 'vscode',
      label: 'VS Code',
      where: 'merge into .vscode/mcp.json',
      text: json({ servers: { [name]: { type: 'http', url, headers: { Authorization: bearer } } } }),
    },
    {
      client: 'curl',
      label: 'curl',
      where: 'run in a terminal: the initialize answer shows the token works',
      text: [
        `curl -sS ${url} \\`,
        `  -H 'Authorization: ${bearer}' \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -H 'Accept: application/json, text/event-stream' \\`,
        `  -d '${initialize}'`,
        '',
      ].join('\n'),
    },
  ];
}
