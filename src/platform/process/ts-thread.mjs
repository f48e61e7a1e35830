// A thread's TypeScript source, run where there is no compiled JavaScript (tests, `npm run dev`):
// tsx loads it, on every Node version this project runs on. The file is the last argument.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
