/**
 * How words become index terms, the same for tools and queries: lowercase, common English
 * words dropped (queries are written as tasks: "open an issue about the login bug"), and a
 * light stemmer so that `files`, `file`, `listing` and `list` meet. A stemmer of suffixes
 * only, on purpose: no dictionary, no model, the same answer on every machine.
 * @module
 */

const STOP = new Set(
  (
    'a an and are as at be by can could do does for from get got has have i if in into is it its me my of on or ' +
    'our please so some that the their them then there these this those to up want was we what when where which ' +
    'who why will with would you your about all any show tell give need let make'
  ).split(' '),
);

/** Verbs and nouns agents use for what tool names say otherwise: each is indexed and asked as its canonical word. */
const SAME: Readonly<Record<string, string>> = {
  open: 'create',
  new: 'create',
  add: 'create',
  make: 'create',
  remove: 'delete',
  forget: 'delete',
  save: 'write',
  store: 'write',
  rename: 'move',
  remember: 'memory',
  recall: 'memory',
  email: 'mail',
  gmail: 'mail',
  repeat: 'echo',
  erase: 'delete',
  find: 'search',
  lookup: 'search',
  look: 'search',
  fetch: 'get',
  read: 'get',
  retrieve: 'get',
  view: 'get',
  show: 'get',
  change: 'update',
  edit: 'update',
  modify: 'update',
  folder: 'directory',
  dir: 'directory',
  directories: 'directory',
  pr: 'pull',
  prs: 'pull',
  repository: 'repo',
  repositories: 'repo',
  repos: 'repo',
  ticket: 'issue',
  bug: 'issue',
};

/** `listing` → `list`, `files` → `file`, `created` and `create` → `creat`; short words are left alone. */
function stem(word: string): string {
  if (word.length <= 3) return word;
  const bare = stripSuffix(word);
  return bare.length > 4 && bare.endsWith('e') ? bare.slice(0, -1) : bare;
}

function stripSuffix(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 4) return word.slice(0, word.endsWith('eed') ? -1 : -2);
  if (/(?:ss|x|ch|sh)es$/u.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** Terms already made: a catalog repeats its words thousands of times. Bounded: queries bring new words. */
const made = new Map<string, string | null>();
const MAX_MADE = 50_000;

/** The index term for `word`, or null when it is too common to tell tools apart. */
export function toTerm(word: string): string | null {
  const hit = made.get(word);
  if (hit !== undefined) return hit;
  const term = makeTerm(word);
  if (made.size >= MAX_MADE) made.clear();
  made.set(word, term);
  return term;
}

function makeTerm(word: string): string | null {
  const lower = word.toLowerCase();
  if (STOP.has(lower) && !Object.hasOwn(SAME, lower)) return null;
  const stemmed = stem(canonical(lower));
  return Object.hasOwn(SAME, stemmed) ? stem(canonical(stemmed)) : stemmed;
}

const canonical = (word: string): string => (Object.hasOwn(SAME, word) ? (SAME[word] as string) : word);
