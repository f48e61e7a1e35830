// Demo data for a first look: the command line's seed-demo. Registers nothing on the server.

export { DemoRefused, seedDemo } from './seed.js';
