/**
 * Tools held by the rug-pull pins (X5): for each, the texts first pinned and the ones that
 * replaced them (as much as a pin keeps, saying where a text was cut), side by side with the
 * changed lines marked and the changed fields named, and Approve, which approves exactly the
 * change shown (by its hash); above them, the servers whose catalog churns. Follows
 * `tool_quarantined`, `tool_approved` and `catalog_churn`.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Quarantine } from '../api-types.js';
import { ErrorNote } from '../components/error-note.js';
import { useLiveEvent } from '../live.js';
import { pinLines } from '../pin-lines.js';
import { useLoad } from '../use-load.js';

/** One side; lines the other side lacks are marked. */
function Side({ title, lines, other }: { title: string; lines: string[]; other: string[] }) {
  const known = new Set(other);
  return (
    <figure class="side">
      <figcaption>{title}</figcaption>
      <pre>
        {lines.map((line, index) => (
          <span key={index} class={known.has(line) ? undefined : 'changed'}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

/** One held tool. */
function Held({ api, held, onApproved }: { api: ApiClient; held: Quarantine; onApproved: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const before = pinLines(held.pinned);
  const after = pinLines(held.pending);
  const approve = () =>
    api.approve(held.server, held.tool, held.pendingHash).then(onApproved, (e: Error) => setError(e.message));
  return (
    <article
      class="card"
      data-quarantine={`${held.server}/${held.tool}`}
      aria-labelledby={`q-${held.server}-${held.tool}`}
    >
      <h2 id={`q-${held.server}-${held.tool}`}>
        <code>{held.tool}</code> of <a href={`#/servers/${encodeURIComponent(held.server)}`}>{held.server}</a>
      </h2>
      <p class="note">
        changed {new Date(held.since).toLocaleString()} · hash {held.hash.slice(0, 12)} →{' '}
        {held.pendingHash.slice(0, 12)}
        {held.changed &&
          ` · what changed: ${held.changed.length > 0 ? held.changed.join(', ') : 'not told by the texts kept'}`}
      </p>
      <div class="sides">
        <Side title="Pinned (approved before)" lines={before} other={after} />
        <Side title="Now (held)" lines={after} other={before} />
      </div>
      <button type="button" onClick={approve}>
        Approve the new {held.tool}
      </button>
      <ErrorNote error={error} />
    </article>
  );
}

/** The page. */
export function QuarantinesPage({ api }: { api: ApiClient }) {
  const list = useLoad(async () => {
    const [held, servers] = await Promise.all([api.quarantines(), api.servers()]);
    return { ...held, churning: servers.servers.filter((s) => s.catalogChurning).map((s) => s.name) };
  }, []);
  useLiveEvent(
    (event) => event.type === 'tool_quarantined' || event.type === 'tool_approved' || event.type === 'catalog_churn',
    list.reload,
  );
  const data = list.data;
  return (
    <>
      <ErrorNote error={list.error} />
      {data?.churning.map((server) => (
        <p key={server} class="summary error" data-churning={server}>
          The tools of <a href={`#/servers/${encodeURIComponent(server)}`}>{server}</a> change too often: its changes
          are summarized once per window (audit <code>catalog_churn</code>), its changed tools stay held and its new
          tools are held until it settles.
        </p>
      ))}
      {data && (
        <p class="summary">
          Policy <strong>{data.policy}</strong>:{' '}
          {data.policy === 'strict'
            ? 'a changed tool is hidden from agents until approved.'
            : 'changes are only reported.'}{' '}
          {data.quarantines.length === 0 ? 'Nothing is held.' : `${data.quarantines.length} held.`}
        </p>
      )}
      {data?.quarantines.map((held) => (
        <Held key={`${held.server}/${held.tool}/${held.pendingHash}`} api={api} held={held} onApproved={list.reload} />
      ))}
    </>
  );
}
