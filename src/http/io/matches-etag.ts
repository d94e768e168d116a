/**
 * The `If-None-Match` check of a conditional GET, shared by the web UI's files and the API's
 * JSON answers.
 * @module
 */

/** Whether `If-None-Match` names `etag` or is `*` (weak comparison, RFC 9110 §13.1.2). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
