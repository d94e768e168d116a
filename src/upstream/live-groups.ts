/**
 * The process groups of this process's stdio children that are not yet ended (each child
 * leads one, through `setsid`). A child that exits on the end of its input (MCP's stdio
 * shutdown) leaves what it forked orphaned — no longer below this process — but still in its
 * group, until the group is ended; a stop that cannot wait for that (a second signal) ends
 * these groups too (`killAllBelowNow`). Per process, as the children are.
 * @module
 */
const groups = new Set<number>();

/** Note `pid`'s group as ours until {@link forgetGroup}. */
export function noteGroup(pid: number): void {
  groups.add(pid);
}

/** `pid`'s group has been ended. */
export function forgetGroup(pid: number): void {
  groups.delete(pid);
}

/** The groups noted and not forgotten. */
export function liveGroups(): ReadonlySet<number> {
  return groups;
}
