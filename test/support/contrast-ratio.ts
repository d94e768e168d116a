/**
 * WCAG contrast from computed styles: a CSS colour as the browser reports it (`rgb(…)`,
 * `rgba(…)`, `color(srgb …)`), its relative luminance, and the ratio of two (WCAG 2.2,
 * "contrast ratio"), for the browser tests that check a colour pair the page really shows.
 * @module
 */

/** Red, green and blue from 0 to 1, and the alpha. */
export type Rgba = { r: number; g: number; b: number; a: number };

/** A computed colour; throws on a form the browser does not give for computed styles. */
export function parseColor(css: string): Rgba {
  const rgb = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(css.trim());
  if (rgb) {
    const [, r, g, b, a] = rgb;
    return { r: Number(r) / 255, g: Number(g) / 255, b: Number(b) / 255, a: a === undefined ? 1 : Number(a) };
  }
  const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)$/.exec(css.trim());
  if (srgb) {
    const [, r, g, b, a] = srgb;
    return { r: Number(r), g: Number(g), b: Number(b), a: a === undefined ? 1 : Number(a) };
  }
  throw new Error(`not a computed colour: ${css}`);
}

const channel = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/** The relative luminance of an opaque colour. */
export function luminance({ r, g, b }: Rgba): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** `top` drawn over the opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, u: number) => t * top.a + u * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

/** The contrast ratio of two colours (1 to 21), given as computed CSS; `b` must be opaque. */
export function contrastRatio(a: string, b: string): number {
  const back = parseColor(b);
  const front = over(parseColor(a), back);
  const [hi, lo] = [luminance(front), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The colour behind an element: its and its ancestors' computed backgrounds, innermost
 * first, laid over each other from the outermost (on white, should none be opaque).
 */
export function backdrop(backgrounds: readonly string[]): string {
  let color: Rgba = { r: 1, g: 1, b: 1, a: 1 };
  for (const css of [...backgrounds].reverse()) color = over(parseColor(css), color);
  const byte = (c: number) => Math.round(c * 255);
  return `rgb(${byte(color.r)}, ${byte(color.g)}, ${byte(color.b)})`;
}

/** A page-side expression: the computed backgrounds of the element `start` evaluates to and of its ancestors. */
export const backgroundsOf = (start: string) => `(() => {
  const out = [];
  for (let e = ${start}; e; e = e.parentElement) out.push(getComputedStyle(e).backgroundColor);
  return out;
})()`;
