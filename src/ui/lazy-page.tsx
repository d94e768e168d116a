/**
 * A page whose code is loaded the first time it is shown (ADR 027): the build splits each
 * such page into its own hashed file, so the first load carries only the servers list and
 * the sign-in. Until the file arrives the page says "Loading…"; once loaded it stays in
 * memory (the browser keeps the file for good), so a second visit renders at once. The
 * heading is the shell's, so focus has already moved to it when the page's body arrives.
 * @module
 */
import type { ComponentProps, ComponentType, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A component rendering `load()`'s component once it has loaded. */
// biome-ignore lint/suspicious/noExplicitAny: any page component; the lazy one takes the same props.
export function lazyPage<C extends FunctionComponent<any>>(
  load: () => Promise<C>,
): FunctionComponent<ComponentProps<C>> {
  type P = ComponentProps<C>;
  let loaded: C | null = null;
  let pending: Promise<C> | null = null;
  const get = () => {
    pending ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // Asked again on the next visit: the failure may have been the network's.
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return function LazyPage(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (component) return;
      let current = true;
      get().then(
        (c) => current && setComponent(() => c),
        () => current && setFailed(true),
      );
      return () => {
        current = false;
      };
    }, []);
    if (component) {
      const Page = component;
      return <Page {...props} />;
    }
    // A file a newer build replaced is gone from the service: a reload gets the new page.
    if (failed)
      return (
        <p class="error" role="alert">
          Could not load this page: reload to get the current version.
        </p>
      );
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  };
}
