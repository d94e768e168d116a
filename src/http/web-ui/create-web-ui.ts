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

/** What `createApp` takes as `ui`, and the sign-in link for a base URL. */
export type WebUi = { sessions: UiSessions; assets: UiAssets; signInUrl(baseUrl: string): string };

/** Create the UI's parts; `secrets` is the logger's set of values to mask. */
export function createWebUi(secrets: Set<string>): WebUi {
  const sessions = createUiSessions();
  const code = sessions.issueCode();
  secrets.add(code);
  return {
    sessions,
    assets: loadUiAssets(join(packageRoot(), 'dist', 'ui')),
    signInUrl: (baseUrl) => `${baseUrl}/ui/sign-in?code=${code}`,
  };
}
