import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { AuditRecord } from './browser.js';
import { TestSmtpServer } from '../test/smtp.js';
import { startApp } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    auditLog: string;
    /** Every mail the server sent, one JSON line each (e2e/mail.ts reads it). */
    mailLog: string;
    databaseUrl: string;
  }
}

const RESULTS = fileURLToPath(new URL('../test-results/', import.meta.url));

/** One server for the whole run; every test file drives it with browsers of its own. */
export default async function setup(project: TestProject) {
  const started = Date.now();
  mkdirSync(RESULTS, { recursive: true });
  const auditLog = `${RESULTS}e2e-axe.jsonl`;
  writeFileSync(auditLog, '');
  // A real SMTP server for the server's mail; what it receives goes to a file the tests read.
  const mailLog = `${RESULTS}e2e-mail.jsonl`;
  writeFileSync(mailLog, '');
  const smtp = await TestSmtpServer.start((mail) => appendFileSync(mailLog, `${JSON.stringify({ to: mail.to, subject: mail.subject, text: mail.text })}\n`));
  const app = await startApp({ smtpUrl: smtp.url });
  project.provide('baseUrl', app.baseUrl);
  project.provide('auditLog', auditLog);
  project.provide('mailLog', mailLog);
  project.provide('databaseUrl', app.databaseUrl);
  return async () => {
    await app.stop();
    await smtp.close();
    summarize(auditLog);
    console.log(`e2e: ${((Date.now() - started) / 1000).toFixed(1)} s including server start`);
  };
}

/** What axe-core found, over every page audited: blocking ones already failed their test. */
function summarize(auditLog: string): void {
  const records = readFileSync(auditLog, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditRecord);
  const pages = new Set(records.map((r) => r.page));
  const byRule = new Map<string, { impact: string; help: string; pages: Set<string> }>();
  for (const r of records) {
    for (const v of r.violations) {
      const entry = byRule.get(v.id) ?? { impact: v.impact, help: v.help, pages: new Set<string>() };
      entry.pages.add(`${r.page} (${r.scheme})`);
      byRule.set(v.id, entry);
    }
  }
  console.log(`axe-core: ${records.length} audits (light and dark) of ${pages.size} distinct paths; ${byRule.size} rule(s) violated`);
  for (const [id, entry] of byRule) {
    console.log(`  ${entry.impact.padEnd(8)} ${id}: ${entry.help} (${entry.pages.size} page(s), e.g. ${[...entry.pages][0]})`);
  }
  writeFileSync(`${RESULTS}e2e-axe-summary.json`, JSON.stringify(Object.fromEntries([...byRule].map(([id, e]) => [id, { ...e, pages: [...e.pages] }])), null, 2));
}
