/**
 * The audit's journal (issue 17): rows an agent has been answered about, appended to a file
 * before the answer leaves and kept until the database has them, so a process killed with
 * its queue in memory loses none (the page cache keeps a `write()`; no fsync, as for the
 * audit's own commits). Segments `PATH.1`, `PATH.2`, …: each flush seals the open one, and
 * a flush that succeeded removes those sealed before it began. What a dead process left is
 * read back at the next open. The segments have a directory of their own
 * ({@link auditJournalPaths}).
 * @module
 */
import { closeSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type AuditRow, type Completion, OUTPUT_HASH_COLUMN, parseCompletion, parseRow } from './audit-row.js';

/** An open journal. */
export type AuditJournal = {
  /** Rows a previous process left (its segments count as sealed), and lines that were not rows. */
  readonly leftover: { rows: AuditRow[]; torn: number };
  /** Append `rows` to the open segment (opened on first use); throws when the write fails. */
  append(rows: readonly AuditRow[]): void;
  /** Append the output hashes of rows appended before without them (ADR 046); throws when the write fails. */
  complete(completions: readonly Completion[]): void;
  /** Close the open segment, so what is appended next goes to a new one; returns every sealed segment. */
  seal(): string[];
  /** Remove segments whose rows the database has. */
  remove(segments: readonly string[]): void;
  /** Close the open segment (its file stays until removed). */
  close(): void;
};

/**
 * Where the audit journal of a database file is kept, or of a home whose database is remote: a
 * directory of its own beside the database, `boternity.db-audit/segment.N` (`audit-journal/`
 * in the home). Its appends, one or two a tool call, then wake no watcher of the directory the
 * config shares with the database, which the default home is: beside the database each one
 * was an inotify event the config watcher read and put aside (1–2 % of a call's CPU,
 * issue 20). `before`: where the segments were kept until then (`boternity.db-audit.N` beside
 * the database), read back once by {@link openAuditJournal}.
 */
export function auditJournalPaths(dbFile: string | null, home: string): { path: string; before: string } {
  const before = dbFile ? `${dbFile}-audit` : join(home, 'audit-journal');
  return { path: join(before, 'segment'), before };
}

/**
 * Open the journal whose segments are `path.N`, reading what an earlier process left there
 * and in `before.N` (the segments' former place: they are read first, and removed with the
 * next sealed ones).
 */
export function openAuditJournal(path: string, before?: string): AuditJournal {
  const current = segmentsOf(path);
  const found = [...(before === undefined ? [] : segmentsOf(before)), ...current];
  const rows: AuditRow[] = [];
  // A row whose output was hashed after its answer left is completed by a later line; one
  // without that line (a kill in between) keeps a null output hash.
  const byId = new Map<string, AuditRow>();
  let torn = 0;
  for (const { file } of found) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      const completion = line.startsWith('{') ? parseCompletion(line) : null;
      const completed = completion ? byId.get(completion.id) : undefined;
      if (completion && completed) {
        completed[OUTPUT_HASH_COLUMN] = completion.outputHash;
        continue;
      }
      const row = completion ? null : parseRow(line);
      if (!row) {
        torn += 1;
        continue;
      }
      rows.push(row);
      byId.set(row[0] as string, row);
    }
  }
  let sealed = found.map((f) => f.file);
  let seq = current.at(-1)?.seq ?? 0;
  let open: { fd: number; file: string } | null = null;

  const closeOpen = () => {
    if (!open) return;
    const { fd, file } = open;
    open = null;
    sealed.push(file);
    closeSync(fd);
  };

  const write = (lines: string) => {
    if (!open) {
      seq += 1;
      const file = `${path}.${seq}`;
      open = { fd: openSync(file, 'a', 0o600), file };
    }
    const bytes = Buffer.from(lines, 'utf8');
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(open.fd, bytes, done, bytes.length - done);
    } catch (error) {
      // A torn line must not run into the next row: later rows go to a new segment.
      closeOpen();
      throw error;
    }
  };

  return {
    leftover: { rows, torn },
    append(batch) {
      if (batch.length > 0) write(`${batch.map((row) => JSON.stringify(row)).join('\n')}\n`);
    },
    complete(completions) {
      if (completions.length > 0) write(`${completions.map((c) => JSON.stringify(c)).join('\n')}\n`);
    },
    seal() {
      closeOpen();
      return [...sealed];
    },
    remove(segments) {
      const gone = new Set(segments);
      for (const file of segments) {
        try {
          unlinkSync(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
      sealed = sealed.filter((file) => !gone.has(file));
    },
    close: closeOpen,
  };
}

/** The segments `path.N` there are, in order. */
function segmentsOf(path: string): { file: string; seq: number }[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  return namesIn(dir)
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => ({ file: join(dir, name), seq: Number(name.slice(prefix.length)) }))
    .sort((a, b) => a.seq - b.seq);
}

/** The names in `dir`; none when it does not exist or is not a directory (then appending fails, and says so). */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
