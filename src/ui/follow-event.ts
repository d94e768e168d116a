/**
 * Follow a value that changes with an event — the web UI's route and the URL's fragment:
 * `set` it as it is once subscribed, then at every change. Reading it after subscribing
 * matters: a hook subscribes in an effect, after its first render, and a change in between
 * would otherwise be missed (the URL saying one page, the screen showing another).
 * @module
 */

/** Subscribe to `event` on `on`, `set` `read()` now and at each event; returns the function that stops. */
export function followEvent<T>(
  on: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  event: string,
  read: () => T,
  set: (value: T) => void,
): () => void {
  const follow = () => set(read());
  on.addEventListener(event, follow);
  follow();
  return () => on.removeEventListener(event, follow);
}
