/**
 * The one path by which a new config takes effect (SPEC C2, C3, C4), whether it came from the
 * file watcher or from an API edit: `hub.applyConfig` puts it in force (the hub reconciles only
 * the difference and publishes `config_applied`; the gateway then re-checks every session's
 * view). A refused file becomes `config_error` while the last good config stays in force.
 * Warnings (unknown keys kept) are logged once each.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/create-event-bus.js';
import { formatPathIssue, type PathIssue } from '../config/config-issues.js';
import type { AppConfig } from '../config/schema.js';
import type { ConfigError } from '../errors.js';
import type { HubEvent } from '../events/hub-event.js';
import type { Hub } from './create-hub.js';

/** Applies configs to the hub and reports refused ones. */
export type ConfigApplier = {
  /** Reconcile the hub with `config` and publish what changed. */
  apply(config: AppConfig, warnings?: readonly PathIssue[]): void;
  /** Report a config that was not applied (the last good one stays). */
  reject(error: ConfigError): void;
  /** Log warnings not logged before (the file loaded at start, say). */
  warn(warnings: readonly PathIssue[]): void;
};

/** Options of {@link createConfigApplier}. */
export type ConfigApplierDeps = {
  hub: Pick<Hub, 'applyConfig'>;
  bus: EventBus<HubEvent>;
  log: Logger;
  configPath: string;
};

/** Create the applier of one service. */
export function createConfigApplier({ hub, bus, log, configPath }: ConfigApplierDeps): ConfigApplier {
  const reported = new Set<string>();
  const warn = (warnings: readonly PathIssue[]) => {
    for (const warning of warnings) {
      const line = formatPathIssue(warning);
      if (reported.has(line)) continue;
      reported.add(line);
      log.warn({ path: configPath }, `config: ${line}`);
    }
  };
  return {
    warn,
    apply(config, warnings = []) {
      warn(warnings);
      hub.applyConfig(config, { file: configPath });
    },
    reject(error) {
      log.warn(
        { path: configPath, issues: error.issues },
        `config rejected, keeping the last good one: ${error.message}`,
      );
      bus.publish({
        type: 'config_error',
        server: error.issues[0]?.server ?? null,
        file: configPath,
        message: error.message,
        issues: error.issues,
      });
    },
  };
}
