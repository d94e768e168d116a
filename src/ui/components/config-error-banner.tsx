/**
 * A banner while the config file on disk cannot be loaded (a hand edit that fails to parse or
 * validate: a `config_error` event): the service keeps the last good config meanwhile, which
 * the page shows, so the operator must learn that their edit did not take. It stays until the
 * next `config_applied` (the file fixed and loaded). An error reported before this page was
 * opened is not known to it (the event stream replays only for a reconnect).
 * @module
 */
import { useState } from 'preact/hooks';
import type { LiveEvent } from '../api-types.js';
import { useLiveEvent } from '../live.js';

type ConfigError = Extract<LiveEvent, { type: 'config_error' }>;

/** The banner; nothing while the config loads. */
export function ConfigErrorBanner() {
  const [error, setError] = useState<ConfigError | null>(null);
  useLiveEvent(
    (event) => event.type === 'config_error' || event.type === 'config_applied',
    (event) => setError(event.type === 'config_error' ? event : null),
  );
  if (!error) return null;
  return (
    <div class="banner config-error" role="alert">
      <p>
        <strong>The config file could not be loaded</strong>
        {error.file ? (
          <>
            {' '}
            (<code>{error.file}</code>)
          </>
        ) : null}
        : the service keeps the last good config until it is fixed.
      </p>
      <p class="config-error-message">{error.message}</p>
    </div>
  );
}
