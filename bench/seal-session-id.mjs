// What a sealed session id would cost (ADR 039): AES-256-GCM seal and open of a session state of about 230 bytes.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const key = randomBytes(32);
const state = JSON.stringify({
  v: 1,
  sid: randomBytes(16).toString('base64url'),
  tok: 'tok_0123456789abcdef',
  pv: '2025-11-25',
  ci: { name: 'claude-code', version: '2.1.0' },
  cc: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
  at: Date.now(),
  ep: '/mcp',
});
const seal = () => {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(state, 'utf8'), c.final()]);
  return Buffer.concat([iv, body, c.getAuthTag()]).toString('base64url');
};
const open = (id) => {
  const b = Buffer.from(id, 'base64url');
  const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
  d.setAuthTag(b.subarray(b.length - 16));
  return JSON.parse(Buffer.concat([d.update(b.subarray(12, b.length - 16)), d.final()]).toString('utf8'));
};
const id = seal();
console.log('id length', id.length, 'state', state.length);
for (const [n, f] of [
  ['seal', seal],
  ['open', () => open(id)],
]) {
  for (let i = 0; i < 2000; i++) f();
  const c0 = process.cpuUsage();
  for (let i = 0; i < 20000; i++) f();
  const c = process.cpuUsage(c0);
  console.log(n, ((c.user + c.system) / 20000).toFixed(2), 'us');
}
