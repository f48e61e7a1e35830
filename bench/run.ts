// `npm run bench [section ...]`: runs the benchmark sections (all by default) and prints figures.
const sections: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  crowd: () => import('./crowd.js'),
  'live-lists': () => import('./crowd-live-lists.js'),
  accounts: () => import('./accounts.js'),
  lists: () => import('./lists.js'),
  notes: () => import('./notes.js'),
  chat: () => import('./chat.js'),
  data: () => import('./data.js'),
};

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!sections[name]) {
    console.error(`unknown benchmark section "${name}" (known: ${Object.keys(sections).join(', ')})`);
    process.exit(1);
  }
}
console.log(`# groupnotes benchmarks, ${new Date().toISOString()}, node ${process.version}`);
// Run only when named: the crowd includes this phase already.
const namedOnly = new Set(['live-lists']);
for (const name of wanted.length ? wanted : Object.keys(sections).filter((section) => !namedOnly.has(section))) {
  const section = await sections[name]!();
  await section.run();
}
