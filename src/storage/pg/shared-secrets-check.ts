/**
 * The secrets every replica of a fleet must be given alike (SPEC K5): `BOTERNITY_CLUSTER_KEY`
 * (a session id sealed by one replica is opened by the others) and `BOTERNITY_ADMIN_TOKEN`
 * when given (admin requests through a balancer). A replica given another one answered some
 * requests with 404 or 401 and said nothing; now its start stops in one line. Each secret's
 * fingerprint (an HMAC of a fixed text under it, cut to 64 bits: not the secret) is kept in
 * `cluster_checks`; the first replica writes it. A different one is refused while another
 * replica lives, and taken (a change of the secret, the whole fleet restarted) when none does.
 * @module
 */
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import { ConfigError } from '../../errors.js';

/** One secret to check: the variable it comes from, and its value. */
export type SharedSecret = { readonly env: string; readonly value: string };

/** The fingerprint of `secret`: what replicas compare, never the secret. */
export function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update('boternity shared secret check v1').digest('hex').slice(0, 16);
}

/**
 * Refuse `secrets` that differ from the fleet's while another replica lives (`liveOthers`:
 * the ids of the other live replicas); record them when they are the first or none lives.
 */
export async function checkSharedSecrets({
  sql,
  secrets,
  liveOthers,
  log,
}: {
  sql: Sql;
  secrets: readonly SharedSecret[];
  liveOthers: () => Promise<readonly string[]>;
  log: Pick<Logger, 'warn'>;
}): Promise<void> {
  for (const { env, value } of secrets) {
    const mine = secretFingerprint(value);
    await sql`insert into cluster_checks (name, fingerprint) values (${env}, ${mine}) on conflict (name) do nothing`;
    const [row] = await sql<{ fingerprint: string }[]>`select fingerprint from cluster_checks where name = ${env}`;
    if (!row || row.fingerprint === mine) continue;
    const live = await liveOthers();
    if (live.length > 0)
      throw new ConfigError(
        `${env} is not the one the live replicas were given (${live.slice(0, 3).join(', ')}${live.length > 3 ? ', …' : ''}): give every replica the same ${env}`,
        null,
      );
    await sql`update cluster_checks set fingerprint = ${mine}, updated_at = (extract(epoch from clock_timestamp()) * 1000)::bigint where name = ${env}`;
    log.warn(
      { variable: env },
      `${env} changed since the fleet last ran; what was sealed or signed with the old one no longer holds`,
    );
  }
}
