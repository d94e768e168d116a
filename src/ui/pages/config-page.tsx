/**
 * The config in force (`GET /api/config`, SPEC A1, C6), read-only: validated, defaults filled
 * in, every secret masked (`********`), with the file it was read from (or, in cluster mode,
 * the version in the database), **Download** (the JSON as shown) and **Copy**. Read again on
 * `config_applied`. Changes are made on the other pages, or in the file.
 * @module
 */
import type { ApiClient } from '../api.js';
import { CopyButton } from '../components/copy-button.js';
import { ErrorNote } from '../components/error-note.js';
import { JsonView, jsonText } from '../components/json-view.js';
import { useLiveEvent } from '../live.js';
import { useLoad } from '../use-load.js';

/** Save `text` as `name` through the browser's download. */
function download(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The page. */
export function ConfigPage({ api }: { api: ApiClient }) {
  const loaded = useLoad(() => api.effectiveConfig(), []);
  useLiveEvent((event) => event.type === 'config_applied', loaded.reload);
  const data = loaded.data;
  const text = data ? jsonText(data.config) : '';
  return (
    <>
      <ErrorNote error={loaded.error && `Could not read the config: ${loaded.error}`} />
      {data && (
        <>
          <p class="summary">
            The config in force, defaults filled in, secrets masked (<code>********</code>),{' '}
            {data.file ? (
              <>
                read from <code>{data.file}</code>
              </>
            ) : (
              `version ${data.version ?? '?'} in the fleet's database (cluster mode)`
            )}
            . Read-only: change it on the other pages, with <code>bnity</code>, or in the file.
          </p>
          <p>
            <button type="button" onClick={() => download(text, 'boternity-config.json')}>
              Download config (JSON)
            </button>{' '}
            <CopyButton text={text} target="config-json" label="Copy config" />
          </p>
          <p class="note">The download has the secrets masked too: it is a record, not a file to load back as it is.</p>
          {/* A Tab stop that scrolls: the config can be longer and wider than the window. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable (WCAG 2.1.1) */}
          <section class="config-view" tabIndex={0} aria-label="The config in force (JSON)">
            <JsonView value={data.config} id="config-json" />
          </section>
        </>
      )}
    </>
  );
}
