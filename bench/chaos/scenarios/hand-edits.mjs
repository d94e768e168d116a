// Hand edits racing API edits (issue 17 item 3): ROUNDS rounds in which a PATCH of server x
// (a distinct deniedTools marker) races an editor saving the file the way vim and VS Code do
// (read, temp file, rename over it; no lock) with a distinct marker of its own. Counts the
// hand edits lost (absent from the file, or not in force once the file is read back) and
// the API edits (answered 200 but overwritten by the editor's save, which it read earlier).
// Knobs: CHAOS_HAND_ROUNDS (30), CHAOS_HAND_RACE_MS (the editor saves 0..N ms after the PATCH
// is sent; default: the median time a PATCH takes here, measured first, so that the saves
// spread over the service's read-modify-write).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allConnected, sleep, stdioServer, summarize, TINY, until } from '../harness.mjs';

const ROUNDS = Number(process.env.CHAOS_HAND_ROUNDS ?? 30);
const RACE_MS = process.env.CHAOS_HAND_RACE_MS ? Number(process.env.CHAOS_HAND_RACE_MS) : null;

/** Save as an editor does; resolves with the text it read first. */
function editorSave(path, marker) {
  const read = readFileSync(path, 'utf8');
  const raw = JSON.parse(read);
  raw.bots = { ...(raw.bots ?? {}), editor: { description: marker } };
  writeFileSync(`${path}.swp`, `${JSON.stringify(raw, null, 2)}\n`);
  renameSync(`${path}.swp`, path);
  return read;
}

export default {
  name: 'hand-edits',
  what: `${ROUNDS} rounds of PATCH /api/servers/x racing an editor's save by rename`,
  timeoutMs: 60_000 + ROUNDS * 5_000,
  async run({ start }) {
    const service = await start((marker) => ({ mcpServers: { x: stdioServer(TINY, marker) } }));
    if (!(await allConnected(service, ['x']))) return { error: 'x did not connect' };
    const path = join(service.home, 'boternity.json');
    const inForce = async () => (await service.api('/api/config')).body.config;
    const patchX = (deniedTools) =>
      service.api('/api/servers/x', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ deniedTools }),
      });
    const warmup = [];
    for (let i = 0; i < 7; i++) {
      const sent = performance.now();
      await patchX([`warmup-${i}`]);
      warmup.push(performance.now() - sent);
    }
    const raceMs = RACE_MS ?? summarize(warmup).p50;
    const lost = { handInFile: 0, handInForce: 0, apiOverwrittenByEditor: 0, apiNotInForce: 0 };
    const answers = {};
    const apiMs = [];
    let fileNotInForce = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const hand = `hand-${round}`;
      const api = `api-${round}`;
      const sent = performance.now();
      const patch = patchX([api])
        .then((r) => ({ ...r, ms: performance.now() - sent }))
        .catch((error) => ({ status: String(error?.name ?? error), ms: performance.now() - sent }));
      await sleep(Math.random() * raceMs);
      const editorRead = editorSave(path, hand);
      const answer = await patch;
      answers[answer.status] = (answers[answer.status] ?? 0) + 1;
      apiMs.push(answer.ms);
      const file = JSON.parse(readFileSync(path, 'utf8'));
      const handInFile = file.bots?.editor?.description === hand;
      const apiInFile = (file.mcpServers?.x?.deniedTools ?? []).includes(api);
      if (!handInFile) lost.handInFile++;
      // The editor read the file before the API's write and saved over it: the editor's doing.
      if (answer.status === 200 && !apiInFile && !editorRead.includes(`"${api}"`)) lost.apiOverwrittenByEditor++;
      // Once the watcher read the file back, the config in force is the file's.
      const settled = await until(
        async () => {
          const config = await inForce();
          const denied = config.mcpServers?.x?.deniedTools ?? [];
          const same =
            config.bots?.editor?.description === file.bots?.editor?.description &&
            JSON.stringify(denied) === JSON.stringify(file.mcpServers?.x?.deniedTools ?? []);
          return same ? config : null;
        },
        { timeoutMs: 3_000, intervalMs: 50 },
      );
      if (!settled) fileNotInForce++;
      const config = settled ?? (await inForce());
      if (handInFile && config.bots?.editor?.description !== hand) lost.handInForce++;
      if (answer.status === 200 && apiInFile && !(config.mcpServers?.x?.deniedTools ?? []).includes(api))
        lost.apiNotInForce++;
    }
    const alive = service.exit() === null;
    const stopped = await service.stop();
    return {
      rounds: ROUNDS,
      raceMs,
      handEditsLost: lost.handInFile + lost.handInForce,
      lost,
      apiAnswers: answers,
      apiMs: summarize(apiMs),
      fileNotInForceAfter3s: fileNotInForce,
      serviceAliveAtEnd: alive,
      stop: stopped,
    };
  },
};
