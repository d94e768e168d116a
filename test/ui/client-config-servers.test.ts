import { describe, expect, it } from 'vitest';
import { clientConfigServers, stripJsonc } from '../../src/ui/client-config-servers.js';

describe('clientConfigServers', () => {
  it("reads Claude Desktop's and Cursor's mcpServers", () => {
    const text = JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'fs'] } }, other: 1 });
    expect(clientConfigServers(text)).toEqual({ fs: { command: 'npx', args: ['-y', 'fs'] } });
  });
  it("reads VS Code's servers, with comments and trailing commas (JSONC)", () => {
    const text = `{
      // the workspace's servers
      "servers": { "web": { "type": "http", "url": "https://x.test/mcp", }, /* more later */ },
      "inputs": [],
    }`;
    expect(clientConfigServers(text)).toEqual({ web: { type: 'http', url: 'https://x.test/mcp' } });
  });
  it('leaves comment-like text and commas inside strings alone', () => {
    expect(stripJsonc('{"a": "http://x // y, ]", "b": "\\" /* c */"}')).toBe(
      '{"a": "http://x // y, ]", "b": "\\" /* c */"}',
    );
    const text = '{"mcpServers": {"s": {"command": "echo", "args": ["a, }", "// no"]}}}';
    expect(clientConfigServers(text).s).toEqual({ command: 'echo', args: ['a, }', '// no'] });
  });
  it('says in one line what is wrong', () => {
    expect(() => clientConfigServers('  ')).toThrow('paste a config file or choose one first');
    expect(() => clientConfigServers('{"mcpServers": ')).toThrow(/^not JSON: /);
    expect(() => clientConfigServers('[1]')).toThrow('expected a JSON object, as a client config file is');
    expect(() => clientConfigServers('{"bots": {}}')).toThrow('no "mcpServers" (or VS Code "servers") in this JSON');
    expect(() => clientConfigServers('{"mcpServers": []}')).toThrow('"mcpServers" is not an object of servers by name');
    expect(() => clientConfigServers('{"servers": {}}')).toThrow('"servers" names no server');
    expect(() => clientConfigServers('{"mcpServers": {"x": "npx"}}')).toThrow(
      "mcpServers.x: expected an object (a server's entry)",
    );
  });
});
