// Copies third-party browser assets out of node_modules into public/vendor/, so that the
// app and nginx serve every static file from one directory.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const vendor = new URL('../public/vendor/', import.meta.url);
mkdirSync(vendor, { recursive: true });
copyFileSync(require.resolve('@picocss/pico/css/pico.min.css'), new URL('pico.min.css', vendor));
