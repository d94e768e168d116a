/**
 * The page: signed out, the sign-in; signed in, the navigation, the live event stream and the
 * page the fragment names. Focus moves to each page's heading, so keyboard and screen-reader
 * users land on what changed.
 * @module
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, createApiClient, currentSession } from './api.js';
import { ConfigErrorBanner } from './components/config-error-banner.js';
import { lazyPage } from './lazy-page.js';
import { LiveProvider, useLive } from './live.js';
import { ServersPage } from './pages/servers-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { useFleet } from './use-fleet.js';
import { hrefOf, type Route, useRoute } from './use-route.js';

// Every page but the servers list (the first one shown) and the sign-in is its own file,
// loaded when first visited (ADR 027): the first load stays small however many pages there are.
const AuditPage = lazyPage(() => import('./pages/audit-page.js').then((m) => m.AuditPage));
const BotPage = lazyPage(() => import('./pages/bot-page.js').then((m) => m.BotPage));
const ClusterPage = lazyPage(() => import('./pages/cluster-page.js').then((m) => m.ClusterPage));
const ConfigPage = lazyPage(() => import('./pages/config-page.js').then((m) => m.ConfigPage));
const BotsPage = lazyPage(() => import('./pages/bots-page.js').then((m) => m.BotsPage));
const CredentialsPage = lazyPage(() => import('./pages/credentials-page.js').then((m) => m.CredentialsPage));
const QuarantinesPage = lazyPage(() => import('./pages/quarantines-page.js').then((m) => m.QuarantinesPage));
const ServerPage = lazyPage(() => import('./pages/server-page.js').then((m) => m.ServerPage));
const TokensPage = lazyPage(() => import('./pages/tokens-page.js').then((m) => m.TokensPage));

const NAV: readonly { route: Route; label: string }[] = [
  { route: { page: 'servers' }, label: 'Servers' },
  { route: { page: 'bots' }, label: 'Bots' },
  { route: { page: 'quarantines' }, label: 'Quarantines' },
  { route: { page: 'audit' }, label: 'Audit' },
  { route: { page: 'tokens' }, label: 'Tokens' },
  { route: { page: 'credentials' }, label: 'Credentials' },
  { route: { page: 'config' }, label: 'Config' },
  // Shown only when the service runs as a fleet (cluster mode).
  { route: { page: 'cluster' }, label: 'Cluster' },
];

/** The list page a detail page belongs to, and the detail's name (for the heading's breadcrumb). */
const crumbOf = (route: Route): { parent: Route & { page: 'servers' | 'bots' }; name: string } | null =>
  route.page === 'server'
    ? { parent: { page: 'servers' }, name: route.name }
    : route.page === 'bot'
      ? { parent: { page: 'bots' }, name: route.slug }
      : null;
const labelOf = (route: Route) => NAV.find((n) => n.route.page === route.page)?.label ?? 'Servers';
const titleOf = (route: Route) => crumbOf(route)?.name ?? labelOf(route);

/** The page's body for a route. */
function Page({ api, route }: { api: ApiClient; route: Route }) {
  switch (route.page) {
    case 'server':
      return <ServerPage api={api} name={route.name} />;
    case 'bots':
      return <BotsPage api={api} />;
    case 'bot':
      return <BotPage api={api} slug={route.slug} />;
    case 'quarantines':
      return <QuarantinesPage api={api} />;
    case 'audit':
      return <AuditPage api={api} />;
    case 'tokens':
      return <TokensPage api={api} />;
    case 'credentials':
      return <CredentialsPage api={api} />;
    case 'config':
      return <ConfigPage api={api} />;
    case 'cluster':
      return <ClusterPage api={api} />;
    default:
      return <ServersPage api={api} />;
  }
}

/** The pages; Quarantines says how many tools are held, live. */
function Nav({ api, current }: { api: ApiClient; current: Route['page'] }) {
  const { held } = useLive();
  const fleet = useFleet(api);
  let total = 0;
  for (const count of held.values()) total += count;
  return (
    <nav aria-label="Pages">
      {NAV.filter(({ route: target }) => target.page !== 'cluster' || fleet).map(({ route: target, label }) => (
        <a key={label} href={hrefOf(target)} aria-current={current === target.page ? 'page' : undefined}>
          {label}
          {target.page === 'quarantines' && total > 0 && (
            <span class="count" data-held={total}>
              {' '}
              {total}
              <span class="visually-hidden"> held</span>
            </span>
          )}
        </a>
      ))}
    </nav>
  );
}

/** Says when the live stream is down (the data shown may be stale). */
function StreamNote() {
  const { stream } = useLive();
  if (stream === 'open') return null;
  return (
    <p class="banner" role="status">
      {stream === 'closed' ? 'Live updates stopped.' : 'Live updates interrupted: reconnecting…'}
    </p>
  );
}

/** The signed-in layout. */
function Shell({ csrf, onSignedOut }: { csrf: string; onSignedOut: () => void }) {
  const route = useRoute();
  const api = useMemo(() => createApiClient(csrf, onSignedOut), [csrf, onSignedOut]);
  const heading = useRef<HTMLHeadingElement>(null);
  const title = titleOf(route);
  const first = useRef(true);
  // As the page is drawn, not a frame later: a field the user (or a test) focused meanwhile keeps its keys.
  useLayoutEffect(() => {
    document.title = `${title} · boternity`;
    if (!first.current) heading.current?.focus();
    first.current = false;
  }, [title]);
  const signOut = () => api.signOut().finally(onSignedOut);
  const crumb = crumbOf(route);
  const current = crumb ? crumb.parent.page : route.page;
  return (
    <LiveProvider onClosed={onSignedOut} quarantines={api.quarantines} changed={api.forget}>
      {route.page === 'bot' && (
        // The chat is below the bot's servers and tools (dozens of switches): the first Tab
        // stop goes straight to its message box (hidden by the style sheet when there is none).
        <button type="button" class="skip skip-chat" onClick={() => document.getElementById('chat-message')?.focus()}>
          Skip to chat
        </button>
      )}
      <button type="button" class="skip" onClick={() => heading.current?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <a class="brand" href="#/servers">
          boternity
        </a>
        <Nav api={api} current={current} />
        <button type="button" class="quiet" onClick={signOut}>
          Sign out
        </button>
      </header>
      <StreamNote />
      <ConfigErrorBanner />
      <main id="main">
        <h1 ref={heading} tabIndex={-1}>
          {crumb ? (
            <>
              <a class="crumb" href={hrefOf(crumb.parent)}>
                {labelOf(crumb.parent)}
              </a>{' '}
              / {crumb.name}
            </>
          ) : (
            title
          )}
        </h1>
        <Page api={api} route={route} />
      </main>
    </LiveProvider>
  );
}

/** The whole page. */
export function App() {
  const [csrf, setCsrf] = useState<string | null | undefined>(undefined);
  const route = useRoute();
  useEffect(() => {
    void currentSession().then(setCsrf, () => setCsrf(null));
  }, []);
  // Checked again when the service says the session is gone (expired, signed out, or a restart).
  const signedOut = useMemo(() => () => void currentSession().then(setCsrf, () => setCsrf(null)), []);
  if (csrf === undefined) return <p class="loading">Loading…</p>;
  if (csrf === null) return <SignInPage linkRefused={route.page === 'link-refused'} onSignedIn={setCsrf} />;
  return <Shell csrf={csrf} onSignedOut={signedOut} />;
}
