/**
 * The config editing half of issue 7 (`src/config/edit-config.ts`, `presets.ts`,
 * `import-client-config.ts`), as the CLI uses it: the agreed contract's types, and loaders
 * that import those modules when a command works on the files (never at start-up).
 * @module
 */
import type { AppConfig } from '../config/schema.js';

/** An open config file inside `editConfigFile` (contract of issue 7). */
export type ConfigDocument = {
  serverNames(): string[];
  getServer(name: string): Record<string, unknown> | undefined;
  addServer(name: string, entry: Record<string, unknown>): void;
  setServer(name: string, entry: Record<string, unknown>): void;
  patchServer(name: string, patch: Record<string, unknown>): void;
  removeServer(name: string): void;
};

/** The clients whose files `bnity mcp import --from` knows. */
export type ClientKind = 'claude-desktop' | 'cursor' | 'vscode';

/** What one import did. */
export type ImportResult = { added: string[]; skipped: string[]; replaced: string[] };

type EditConfigModule = {
  editConfigFile(
    path: string,
    edit: (doc: ConfigDocument) => void,
    options?: { env?: NodeJS.ProcessEnv },
  ): Promise<AppConfig>;
};
type PresetsModule = {
  checkPresetRequirements(
    name: string,
    entry: { args?: string[]; env?: Record<string, string>; credentialKey?: string },
  ): void;
};
type ImportModule = {
  clientConfigPath(kind: ClientKind, env?: NodeJS.ProcessEnv): string;
  readClientServers(path: string): Promise<Record<string, Record<string, unknown>>>;
  importServers(
    configPath: string,
    servers: Record<string, Record<string, unknown>>,
    options?: { force?: boolean; env?: NodeJS.ProcessEnv },
  ): Promise<ImportResult>;
};

// The specifiers are resolved at run time, relative to this module (src/ or dist/).
const EDIT_CONFIG = '../config/edit-config.js';
const PRESETS = '../config/presets.js';
const IMPORT_CLIENT_CONFIG = '../config/import-client-config.js';

/** `editConfigFile`: lock, read, edit, validate, write atomically. */
export const loadEditConfig = (): Promise<EditConfigModule> => import(EDIT_CONFIG);
/** `checkPresetRequirements`: a preset's required arguments, environment and credential. */
export const loadPresetChecks = (): Promise<PresetsModule> => import(PRESETS);
/** Other clients' config files. */
export const loadClientImport = (): Promise<ImportModule> => import(IMPORT_CLIENT_CONFIG);
