/**
 * The connection snippets shown once a token is made (issue 19, tokens): for a client token
 * and a bot token, each client's snippet names the right endpoint (`/mcp`, `/mcp/bots/{slug}`)
 * and carries the token as its bearer; the JSON ones parse, in the shape each client reads.
 */
import { describe, expect, it } from 'vitest';
import { connectSnippets } from '../../src/ui/connect-snippets.js';

const ORIGIN = 'http://127.0.0.1:7777';
const TOKEN = 'bnity_tok_3f9a';
const byClient = (bot?: string) =>
  Object.fromEntries(connectSnippets({ origin: ORIGIN, token: TOKEN, bot }).map((s) => [s.client, s.text]));

describe('connectSnippets', () => {
  it('offers Claude Code, Claude Desktop, Cursor, VS Code and curl', () => {
    expect(connectSnippets({ origin: ORIGIN, token: TOKEN }).map((s) => s.label)).toEqual([
      'Claude Code',
      'Claude Desktop',
      'Cursor',
      'VS Code',
      'curl',
    ]);
  });

  for (const [kind, bot, url, name] of [
    ['a client token', undefined, `${ORIGIN}/mcp`, 'boternity'],
    ['a bot token', 'scout', `${ORIGIN}/mcp/bots/scout`, 'boternity-scout'],
  ] as const) {
    describe(kind, () => {
      const snippets = byClient(bot);

      it('Claude Code: claude mcp add over HTTP with the bearer header', () => {
        expect(snippets['claude-code']).toBe(
          `claude mcp add --transport http ${name} ${url} --header "Authorization: Bearer ${TOKEN}"\n`,
        );
      });

      it('Claude Desktop: bnity mcp serve --stdio with the service URL and the token in env', () => {
        expect(JSON.parse(snippets['claude-desktop'] ?? '')).toEqual({
          mcpServers: {
            [name]: {
              command: 'bnity',
              args: ['mcp', 'serve', '--stdio', ...(bot ? ['--bot', bot] : [])],
              env: { BOTERNITY_URL: ORIGIN, BOTERNITY_ADMIN_TOKEN: TOKEN },
            },
          },
        });
      });

      it('Cursor: mcpServers with url and headers', () => {
        expect(JSON.parse(snippets.cursor ?? '')).toEqual({
          mcpServers: { [name]: { url, headers: { Authorization: `Bearer ${TOKEN}` } } },
        });
      });

      it('VS Code: servers with type http, url and headers', () => {
        expect(JSON.parse(snippets.vscode ?? '')).toEqual({
          servers: { [name]: { type: 'http', url, headers: { Authorization: `Bearer ${TOKEN}` } } },
        });
      });

      it('curl: an initialize POST to the endpoint with the bearer and both Accept types', () => {
        const text = snippets.curl ?? '';
        expect(text.startsWith(`curl -sS ${url} \\\n`)).toBe(true);
        expect(text).toContain(`-H 'Authorization: Bearer ${TOKEN}'`);
        expect(text).toContain(`-H 'Content-Type: application/json'`);
        expect(text).toContain(`-H 'Accept: application/json, text/event-stream'`);
        const body = JSON.parse(/-d '([^']*)'/.exec(text)?.[1] ?? '');
        expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, method: 'initialize' });
        expect(body.params.protocolVersion).toBe('2025-11-25');
      });
    });
  }
});
