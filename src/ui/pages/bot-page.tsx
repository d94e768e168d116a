/**
 * A bot's tab (SPEC A3, B1–B4): its servers with their live status, its tools with allow/deny
 * switches, its memories, skills and workflows, its audit rows (read again by themselves when
 * a live event may have added some) and sampling spend (with a reset), and a chat that
 * streams. A bot deleted elsewhere is said to be gone, with the way back to the list.
 * @module
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError } from '../api.js';
import type { Bot } from '../api-types.js';
import { auditMayChange } from '../audit-may-change.js';
import { AuditTable } from '../components/audit-table.js';
import { BotActions } from '../components/bot-actions.js';
import { BotMemories } from '../components/bot-memories.js';
import { BotSampling } from '../components/bot-sampling.js';
import { BotServers } from '../components/bot-servers.js';
import { BotSkills } from '../components/bot-skills.js';
import { BotTools } from '../components/bot-tools.js';
import { BotWorkflows } from '../components/bot-workflows.js';
import { ChatPanel } from '../components/chat-panel.js';
import { ErrorNote } from '../components/error-note.js';
import { useLiveEvent } from '../live.js';
import { useLoad } from '../use-load.js';

/** How long the audit waits after an event for more before it is read again: a burst is one read. */
const AUDIT_SETTLE_MS = 300;

/** `run`, called once `ms` after the last of a burst of calls (never after unmount). */
function useSettled(run: () => void, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(run, ms);
  };
}

/** The tab of bot `slug`. */
export function BotPage({ api, slug }: { api: ApiClient; slug: string }) {
  const loaded = useLoad(() => api.bot(slug), [slug]);
  const [bot, setBot] = useState<Bot | null>(null);
  useEffect(() => setBot(loaded.data?.bot ?? null), [loaded.data]);
  // An edit's answer is shown at once, and the bot read again: a reading the live events
  // started before the edit, answered after it, is then dropped as out of date (useLoad keeps
  // the latest), instead of putting the bot as it was back on the page.
  const changed = (next: Bot) => {
    setBot(next);
    loaded.reload();
  };
  // Deleted elsewhere (the API, `bnity`, another tab, a hand edit of the file dropping a
  // config-only bot): said, with the way back, rather than a page of a bot that no longer is.
  // A bot still in the config file (only its profile gone) reads back and stays.
  const [gone, setGone] = useState<string | null>(null);
  useEffect(() => setGone(null), [slug]);
  const reread = () =>
    api.bot(slug).then(
      (answer) => {
        setGone(null);
        changed(answer.bot);
      },
      (error: Error) => (error instanceof ApiError && error.status === 404 ? setGone(slug) : loaded.reload()),
    );
  useLiveEvent(
    (event) => event.type === 'config_applied' || (event.type === 'bot_deleted' && event.bot === slug),
    reread,
  );
  useLiveEvent(
    (event) => (event.type === 'bot_created' || event.type === 'bot_updated') && event.bot === slug,
    () => {
      setGone(null);
      loaded.reload();
    },
  );
  const hasProfile = bot?.profile != null;
  const audit = useLoad(() => api.audit({ bot: slug, limit: '50' }), [slug]);
  const auditSoon = useSettled(audit.reload, AUDIT_SETTLE_MS);
  useLiveEvent((event) => auditMayChange(event, slug, bot?.servers ?? []), auditSoon);
  if (gone === slug)
    return (
      <div class="gone">
        <p class="error" role="alert">
          Bot {slug} was deleted elsewhere (the API, the CLI, another tab or the config file).
        </p>
        <p>
          <a href="#/bots">Back to the bots</a>
        </p>
      </div>
    );
  if (!bot) return <ErrorNote error={loaded.error} />;
  const provider = bot.profile?.provider;
  return (
    <>
      {/* A reload that failed is said even with the bot on the page: what is shown may be out of date. */}
      <ErrorNote error={loaded.error && `Could not read ${slug} again: ${loaded.error}`} />
      <p class="summary">
        {bot.profile ? `${bot.profile.name}. ` : ''}
        {provider ? `Answers with ${provider.model} at ${provider.baseUrl}.` : 'No LLM provider.'} {bot.warning}
      </p>
      {/* Keyed by slug: another bot's tab starts with its form closed and nothing chosen. */}
      <BotActions key={`actions-${slug}`} api={api} bot={bot} onChanged={changed} />
      <BotServers key={`servers-${slug}`} api={api} bot={bot} onChanged={changed} />
      <BotTools api={api} bot={bot} onChanged={changed} />
      {hasProfile && <ChatPanel api={api} slug={slug} onTurnEnd={audit.reload} />}
      {hasProfile && <BotMemories api={api} slug={slug} />}
      {hasProfile && <BotSkills api={api} slug={slug} />}
      {hasProfile && <BotWorkflows api={api} bot={bot} />}
      <BotSampling api={api} bot={bot} onChanged={changed} />
      <section aria-labelledby="bot-audit-title">
        <h2 id="bot-audit-title">Audit</h2>
        <ErrorNote error={audit.error} />
        <button type="button" onClick={audit.reload}>
          Refresh
        </button>
        <AuditTable entries={audit.data?.entries ?? []} caption={`Audit entries of ${slug}`} />
      </section>
    </>
  );
}
