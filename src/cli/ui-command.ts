/**
 * `bnity ui`: a new one-time sign-in link for the web UI (SPEC A3), from the running service:
 * the link `bnity serve` printed works once and for an hour; this one too. Needs the admin
 * token (the home's file, `BOTERNITY_ADMIN_TOKEN` or `--url` with it) and a running service
 * (a link is a code the service holds in memory).
 * @module
 */
import { resolveTarget, type TargetFlags } from './resolve-target.js';

/** Run `bnity ui`: print the link (or `{url, expiresAt}` with `--json`). */
export async function uiCommand(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const target = await resolveTarget(flags, env);
  const link = await target.client.request<{ url: string; expiresAt: string }>('POST', '/ui/sign-in-link');
  process.stdout.write(
    target.json
      ? `${JSON.stringify(link, null, 2)}\n`
      : `${link.url}\n(one sign-in, until ${link.expiresAt}; keep it to yourself)\n`,
  );
  return 0;
}
