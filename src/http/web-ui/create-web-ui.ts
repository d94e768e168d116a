/**
 * The web UI's parts for one run of the service (SPEC A3, ADR 011): its session store, its
 * built files from the package, and the run's one-time sign-in code, which goes into the
 * log's masked secrets at once so it can never be logged.
 * @module
 */
import { join } from 'node:path';
import { packageRoot } from '../../package-root.js';
import { createUiSessions, type UiSessions } from '../perimeter/ui-sessions.js';
import { loadUiAssets, type UiAssets } from './ui-assets.js';

/** What `createApp` takes as `ui`, the start's sign-in link for a base URL, and a new one. */
export type WebUi = {
  sessions: UiSessions;
  assets: UiAssets;
  signInUrl(baseUrl: string): string;
  /** A new one-time link (`bnity ui`), its code masked in the log from now on. */
  newSignInLink(baseUrl: string): { url: string; expiresAt: number };
};

/** Create the UI's parts; `secrets` is the logger's set of values to mask. */
export function createWebUi(secrets: Set<string>): WebUi {
  const sessions = createUiSessions();
  const issue = (baseUrl: string) => {
    const { code, expiresAt } = sessions.issueCode();
    secrets.add(code);
    return { url: `${baseUrl}/ui/sign-in?code=${code}`, expiresAt };
  };
  const first = issue('');
  return {
    sessions,
    assets: loadUiAssets(join(packageRoot(), 'dist', 'ui')),
    signInUrl: (baseUrl) => `${baseUrl}${first.url}`,
    newSignInLink: issue,
  };
}
