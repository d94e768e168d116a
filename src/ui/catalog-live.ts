/**
 * Whether the catalog a server's page shows is live: false while the server is not
 * `connected`, when what is shown is the last list read and a call would fail with 503.
 * The forms under it (Run, Read, Get) read it to turn themselves off and say why.
 * @module
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** Null: live; a sentence: why the catalog's forms are off. */
export const CatalogOff = createContext<string | null>(null);

/** Why the forms of the catalog are off now, or null when they may run. */
export const useCatalogOff = (): string | null => useContext(CatalogOff);
