/**
 * A box that scrolls sideways (a wide table in a narrow window) is a Tab stop while, and only
 * while, it has something to scroll: a keyboard user can then focus it and scroll it with the
 * arrow keys (WCAG 2.1.1; axe's `scrollable-region-focusable`), and a box that fits adds no
 * stop. Focused, it is a region named `label`, so a screen reader says what it is.
 * @module
 */
import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';

/** Keep `box` focusable when its content is wider than it, following its size and its content's. */
export function useKeyboardScroll(box: RefObject<HTMLElement | null>, label: string): void {
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const follow = () => {
      if (element.scrollWidth > element.clientWidth) {
        element.tabIndex = 0;
        element.setAttribute('role', 'region');
        element.setAttribute('aria-label', label);
      } else {
        element.removeAttribute('tabindex');
        element.removeAttribute('role');
        element.removeAttribute('aria-label');
      }
    };
    follow();
    const observer = new ResizeObserver(follow);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [box, label]);
}
