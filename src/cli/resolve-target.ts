/**
 * Where a command works: the data directory, the config file, and a client of the service
 * that may run there, from the flags every service command shares.
 * @module
 */
import { resolveConfigPath, resolveHome } from '../config/resolve-paths.js';
import { createServiceClient, type ServiceClient } from './service-client.js';

/** The flags shared by the commands that talk to the service or edit its files. */
export type TargetFlags = { url?: string; home?: string; config?: string; json?: boolean };

/** A resolved target; `configPath` is looked up only when a command needs the file. */
export type Target = {
  env: NodeJS.ProcessEnv;
  home: string;
  client: ServiceClient;
  json: boolean;
  configPath(): string;
};

/** Resolve `flags` against the environment (SPEC section 7 defaults). */
export async function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv = process.env): Promise<Target> {
  const home = resolveHome({ ...(flags.home ? { home: flags.home } : {}), env });
  const client = await createServiceClient({ url: flags.url, home, env });
  return {
    env,
    home,
    client,
    json: flags.json === true,
    configPath: () => resolveConfigPath({ home, env, ...(flags.config ? { config: flags.config } : {}) }).path,
  };
}
