/**
 * Seconds left until an instant, ticking once a second on the page (a display clock, not a
 * request: the instant itself came with a `reconnecting` event).
 * @module
 */
import { useEffect, useState } from 'preact/hooks';

/** `in 4 s` until `until` (ISO 8601), then `now`. */
export function Countdown({ until }: { until: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.ceil((Date.parse(until) - now) / 1000);
  return <span class="countdown">{left > 0 ? `in ${left} s` : 'now'}</span>;
}
