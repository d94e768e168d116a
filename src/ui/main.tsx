/**
 * The web UI's entry point (SPEC A3; ADR 011): a small Preact app, bundled by esbuild into
 * `dist/ui/app.<hash>.js` and served by the service at `/`.
 * @module
 */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) render(<App />, root);
