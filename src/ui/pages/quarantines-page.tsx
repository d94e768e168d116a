/**
 * Tools held by the rug-pull pins (X5): for each, the texts first pinned and the ones that
 * replaced them (as much as a pin keeps, saying where a text was cut), side by side with the
 * changed lines marked (− and + besides the colour) and the changed fields named, and Approve
 * (asked twice, disabled while sent), which approves exactly the change shown (by its hash);
 * above them, the servers whose catalog churns. Follows `tool_quarantined`, `tool_approved`
 * and `catalog_churn`.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Quarantine } from '../api-types.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNote } from '../components/error-note.js';
import { useLiveEvent } from '../live.js';
import { pinLines } from '../pin-lines.js';
import { useLoad } from '../use-load.js';

/**
 * One side; lines the other side lacks are marked by more than their colour (WCAG 1.4.1): a
 * visible − (only in the pinned text) or + (only in the new one), and words for a screen reader.
 */
function Side({ title, lines, other, sign }: { title: string; lines: string[]; other: string[]; sign: '−' | '+' }) {
  const known = new Set(other);
  return (
    <figure class="side">
      <figcaption>{title}</figcaption>
      <pre>
        {lines.map((line, index) =>
          known.has(line) ? (
            <span key={index}>
              {'  '}
              {line}
              {'\n'}
            </span>
          ) : (
            <span key={index} class="changed">
              <span aria-hidden="true" class="mark">
                {sign}{' '}
              </span>
              <span class="visually-hidden">{sign === '+' ? 'added: ' : 'removed: '}</span>
              {line}
              {'\n'}
            </span>
          ),
        )}
      </pre>
    </figure>
  );
}

/** One held tool: Approve asks once more, and is disabled while it is sent (one request, not two). */
function Held({ api, held, onApproved }: { api: ApiClient; held: Quarantine; onApproved: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const before = pinLines(held.pinned);
  const after = pinLines(held.pending);
  const approve = () => {
    setBusy(true);
    setError(null);
    api.approve(held.server, held.tool, held.pendingHash).then(onApproved, (e: Error) => {
      setError(e.message);
      setBusy(false);
    });
  };
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
      <p class="note">− a line only in the pinned text, + a line only in the new one.</p>
      <div class="sides">
        <Side title="Pinned (approved before)" lines={before} other={after} sign="−" />
        <Side title="Now (held)" lines={after} other={before} sign="+" />
      </div>
      <ConfirmButton
        label={busy ? `Approving ${held.tool}…` : `Approve the new ${held.tool}`}
        question={`Approve ${held.tool} as it is now?`}
        disabled={busy}
        onConfirm={approve}
      />
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
