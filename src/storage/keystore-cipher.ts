/**
 * How the keystore seals a secret (SPEC C6), whether it lives in `<home>/keystore.enc` or in
 * the database (cluster mode, ADR 041): AES-256-GCM under a fresh 12-byte IV, the entry's
 * name bound in as additional authenticated data (an entry cannot be moved to another name).
 * The key is 32 bytes: `BOTERNITY_KEYSTORE_KEY` (64 hex characters or base64) or a key file.
 * @module
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KeystoreError } from '../errors.js';

/** The environment variable holding the key. */
export const KEYSTORE_KEY_ENV = 'BOTERNITY_KEYSTORE_KEY';
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed secret, each part base64. */
export type SealedEntry = { iv: string; tag: string; data: string };

/** Seal `secret` under `key`, bound to `name`. */
export function sealEntry(key: Buffer, name: string, secret: string): SealedEntry {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** Open the entry `name`; the messages say what a wrong key and a damaged entry are (never the secret). */
export function openEntry(
  key: Buffer | null,
  name: string,
  entry: SealedEntry,
  messages: { wrongKey: string; damaged: string },
): string {
  if (!key) throw new KeystoreError(messages.wrongKey);
  const iv = Buffer.from(entry.iv, 'base64');
  const tag = Buffer.from(entry.tag, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new KeystoreError(messages.damaged);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(entry.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    // GCM cannot tell a wrong key from a tampered entry; both fail the tag check.
    throw new KeystoreError(messages.wrongKey);
  }
}

/** The key from the environment, null when unset; anything but 32 bytes is an error. */
export function parseEnvKey(value: string | undefined): Buffer | null {
  if (value === undefined || value.trim() === '') return null;
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    const key = Buffer.from(text, 'base64');
    if (key.length === KEY_BYTES) return key;
  }
  throw new KeystoreError(
    `${KEYSTORE_KEY_ENV} must be 64 hex characters or the base64 of 32 bytes (e.g. 'openssl rand -hex 32')`,
  );
}
