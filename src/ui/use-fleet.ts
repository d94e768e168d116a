/**
 * Whether the service runs as a fleet (cluster mode, SPEC 9: replicas on one PostgreSQL), as
 * `GET /api/config` says it: a config version in force only there. Asked once per signed-in
 * client and shared by the parts that ask (the navigation, the servers list): whether a
 * process is a replica does not change while it runs. A failed answer is "not known" (false),
 * asked again by the next part mounted.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from './api.js';

const asked = new WeakMap<ApiClient, Promise<boolean>>();

/** Whether `api`'s service is a fleet; false until known. */
export function useFleet(api: ApiClient): boolean {
  const [fleet, setFleet] = useState(false);
  useEffect(() => {
    let current = true;
    let answer = asked.get(api);
    if (!answer) {
      answer = api.effectiveConfig().then((config) => config.version !== null);
      asked.set(api, answer);
      answer.catch(() => asked.delete(api));
    }
    answer.then(
      (value) => current && setFleet(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api]);
  return fleet;
}
