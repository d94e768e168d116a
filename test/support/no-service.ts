/**
 * An environment in which `bnity` finds no service: the default URL points at a free port,
 * and no variable names a service, a token or a config file.
 * @module
 */
import { freePort } from './free-port.js';

/** The environment, and the URL `bnity` will say it found nothing at. */
export async function noServiceEnv(): Promise<{ env: NodeJS.ProcessEnv; url: string }> {
  const port = await freePort();
  return {
    url: `http://127.0.0.1:${port}`,
    env: { BOTERNITY_PORT: String(port), BOTERNITY_URL: '', BOTERNITY_ADMIN_TOKEN: '', BOTERNITY_CONFIG: '' },
  };
}
