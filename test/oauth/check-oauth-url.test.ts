/**
 * The SSRF rules of OAuth discovery (issue 23, docs/security.md): which URLs an upstream's
 * metadata may make boternity fetch. Host names resolve through an injected resolver.
 */
import { describe, expect, it } from 'vitest';
import { checkOAuthUrl, isInternalAddress, OAuthUrlRefused } from '../../src/oauth/index.js';

const dns: Record<string, string[]> = {
  'mcp.example.com': ['93.184.216.34'],
  'auth.example.com': ['93.184.216.35'],
  'sneaky.example.com': ['10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
  'intranet.corp': ['192.168.1.10'],
};
const lookup = async (host: string) => {
  const found = dns[host];
  if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
};
const check = (target: string, serverUrl = 'https://mcp.example.com/mcp') =>
  checkOAuthUrl(target, { serverUrl, lookup });

describe('the SSRF rules of OAuth requests', () => {
  it('allows https to public hosts, and plain http only on loopback', async () => {
    await expect(check('https://auth.example.com/.well-known/openid-configuration')).resolves.toBeInstanceOf(URL);
    await expect(check('http://127.0.0.1:9000/token', 'http://127.0.0.1:8000/mcp')).resolves.toBeInstanceOf(URL);
    await expect(check('http://localhost:9000/token', 'http://localhost:8000/mcp')).resolves.toBeInstanceOf(URL);
  });

  it('refuses plain http to any other host, in one line naming the URL and the rule', async () => {
    const refused = check('http://auth.example.com/token');
    await expect(refused).rejects.toBeInstanceOf(OAuthUrlRefused);
    await expect(refused).rejects.toThrow(
      /^refused http:\/\/auth\.example\.com\/token: OAuth metadata is fetched over https only \(http only on loopback\)$/,
    );
  });

  it('refuses internal addresses named by a public upstream: literal, resolved, cloud metadata', async () => {
    for (const target of [
      'https://10.1.2.3/token',
      'https://[::1]/token',
      'https://sneaky.example.com/token',
      'https://metadata.example.com/latest',
      'https://intranet.corp/authorize',
    ])
      await expect(check(target), target).rejects.toThrow(/internal address named by the public upstream .*SSRF rule/);
  });

  it('lets an internal upstream name its own network (the operator chose it)', async () => {
    await expect(check('https://intranet.corp/token', 'https://10.0.0.9/mcp')).resolves.toBeInstanceOf(URL);
  });

  it('refuses URLs with credentials, unknown hosts and non-URLs', async () => {
    await expect(check('https://user:pw@auth.example.com/token')).rejects.toThrow(/a URL with credentials/);
    await expect(check('https://nowhere.example.com/token')).rejects.toThrow(
      /does not resolve \(getaddrinfo ENOTFOUND/,
    );
    await expect(check('not a url')).rejects.toThrow(/invalid URL/);
    await expect(check('file:///etc/passwd')).rejects.toThrow(/https only/);
  });

  it('classifies addresses', () => {
    for (const ip of [
      '10.0.0.1',
      '172.16.0.1',
      '192.168.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ])
      expect(isInternalAddress(ip), ip).toBe(true);
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1'])
      expect(isInternalAddress(ip), ip).toBe(false);
  });

  it('unwraps IPv4 carried in IPv6 (mapped, compatible, NAT64) in any spelling', async () => {
    for (const ip of [
      '::ffff:a00:1', // WHATWG URL's spelling of ::ffff:10.0.0.1
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe', // 169.254.169.254
      '0:0:0:0:0:ffff:c0a8:0101',
      '::a00:1', // IPv4-compatible
      '64:ff9b::a9fe:a9fe', // NAT64 well-known prefix
      '64:ff9b::10.0.0.1',
      '64:ff9b:1::1', // local-use NAT64
      'fec0::1',
      'ff02::1',
    ])
      expect(isInternalAddress(ip), ip).toBe(true);
    for (const ip of ['::ffff:5db8:d822', '64:ff9b::808:808', '2001:db8::1', '::ffff:8.8.8.8'])
      expect(isInternalAddress(ip), ip).toBe(false);
    // A literal as the URL parser rewrites it, named by a public upstream.
    for (const target of [
      'https://[::ffff:10.0.0.1]/token',
      'https://[::ffff:169.254.169.254]/latest',
      'https://[64:ff9b::10.0.0.1]/token',
      'https://[::127.0.0.1]/token',
    ])
      await expect(check(target), target).rejects.toThrow(/internal address named by the public upstream .*SSRF rule/);
    // Plain http to a mapped loopback is loopback; to a NAT64 one it is not (it leaves the host).
    await expect(check('http://[::ffff:127.0.0.1]:9000/t', 'http://127.0.0.1:8000/mcp')).resolves.toBeInstanceOf(URL);
    await expect(check('http://[64:ff9b::127.0.0.1]/t', 'http://127.0.0.1:8000/mcp')).rejects.toThrow(/https only/);
  });
});
