import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page, type Response } from 'playwright-core';
import { expect, inject } from 'vitest';

/**
 * Where the screenshots go: test-results/screenshots/ (ignored by git), so that a test run
 * rewrites no tracked file; `SCREENSHOT_DIR=docs/screenshots npm run test:e2e` refreshes the
 * README's pictures on purpose.
 */
export const SCREENSHOT_DIR = `${resolve(fileURLToPath(new URL('../', import.meta.url)), process.env.SCREENSHOT_DIR ?? 'test-results/screenshots')}/`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const SMALLEST = { width: 360, height: 740 };
const BLOCKING = new Set(['serious', 'critical']);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** One line per page audited, read by the global teardown for the summary. */
export interface AuditRecord {
  page: string;
  scheme: 'light' | 'dark';
  /** pageShape's hash of the page audited. */
  shape: string;
  violations: { id: string; impact: string; help: string; nodes: string[] }[];
}

/**
 * A person at a browser: one context (own cookies), one tab. Every visit is audited: the status,
 * no script or CSP errors in the console, axe-core in the light and the dark scheme (serious or
 * critical violations fail the test), and no sideways scrolling.
 */
let people = 0;

/** An address of its own for each person: each test file runs in a process of its own (pid). */
function nextAddress(): string {
  people += 1;
  return `10.${process.pid % 250}.${Math.floor(people / 250) % 250}.${(people % 250) + 1}`;
}

export class Person {
  readonly errors: string[] = [];
  private constructor(readonly name: string, readonly context: BrowserContext, readonly page: Page, private readonly javaScript: boolean) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.errors.push(message.text());
    });
    page.on('pageerror', (error) => this.errors.push(error.message));
  }

  /** `phone`: a touch screen 390 px wide, as a phone's browser (coarse pointer, no hover, mobile viewport). */
  static async open(browser: Browser, name: string, options: { javaScript?: boolean; locale?: string; phone?: boolean } = {}): Promise<Person> {
    const context = await browser.newContext({
      baseURL: inject('baseUrl'),
      viewport: options.phone ? PHONE : DESKTOP,
      hasTouch: options.phone ?? false,
      isMobile: options.phone ?? false,
      // Also the browser's Accept-Language.
      locale: options.locale ?? 'en-GB',
      timezoneId: 'Europe/Berlin',
      colorScheme: 'light',
      // Pico animates colours; without motion axe never measures a colour half-way.
      reducedMotion: 'reduce',
      javaScriptEnabled: options.javaScript ?? true,
      extraHTTPHeaders: { 'X-Forwarded-For': nextAddress() },
    });
    return new Person(name, context, await context.newPage(), options.javaScript ?? true);
  }

  /** Opens a path and audits the page; the expected status defaults to 200. */
  async visit(path: string, status = 200): Promise<Response> {
    this.forgetErrors();
    const response = await this.page.goto(path);
    expect(response, `no response for ${path}`).not.toBeNull();
    expect(response!.status(), `status of ${path}`).toBe(status);
    await this.audit(status >= 400);
    return response!;
  }

  /** Audits the page the browser is on now (after a click, a form post, a redirect). */
  async audit(errorStatusExpected = false): Promise<void> {
    await this.page.waitForLoadState('load');
    const label = new URL(this.page.url()).pathname;
    const errors = this.errors.splice(0).filter((text) => !(errorStatusExpected && text.startsWith('Failed to load resource')));
    expect(errors, `console errors on ${label}`).toEqual([]);
    await expectNoSidewaysScroll(this.page, label);
    // axe-core runs inside the page, so it needs JavaScript; the same pages are audited with it on.
    if (!this.javaScript) return;
    // A page of the same shape as one audited before in this run (another visit of the same list
    // with other notes in it) is not audited again: axe was two thirds of the journeys' time.
    const shape = await pageShape(this.page);
    if (auditedShapes().has(shape)) return;
    for (const scheme of ['light', 'dark'] as const) {
      await this.page.emulateMedia({ colorScheme: scheme });
      // The dark scheme changes only colours: there, only the contrast rule needs running again.
      const builder = new AxeBuilder({ page: this.page });
      const results = await (scheme === 'dark' ? builder.withRules(['color-contrast']) : builder).analyze();
      const violations = results.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
      record({ page: label, scheme, shape, violations });
      const blocking = violations.filter((v) => BLOCKING.has(v.impact));
      expect(blocking, `serious or critical axe violations on ${label} (${scheme})`).toEqual([]);
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
  }

  /** Console errors belong to the page that logged them: a new navigation starts afresh. */
  forgetErrors(): void {
    this.errors.length = 0;
  }

  /**
   * Screenshots of the page as it is, 1280 and 390 px wide (full length), into SCREENSHOT_DIR;
   * on the way it checks the smallest supported width, 360 px, for sideways scrolling.
   */
  async screenshot(name: string, options: { dark?: boolean } = {}): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const page = this.page;
    const scheme = options.dark ? 'dark' : 'light';
    const suffix = options.dark ? '-dark' : '';
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${SCREENSHOT_DIR}${name}${suffix}-1280.png`, fullPage: true });
    await page.setViewportSize(SMALLEST);
    await expectNoSidewaysScroll(page, `${name} at 360 px`);
    await page.setViewportSize(PHONE);
    await expectNoSidewaysScroll(page, `${name} at 390 px`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}${name}${suffix}-390.png`, fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ colorScheme: 'light' });
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}

async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The innermost elements sticking out on the right, to say what to fix.
    const wide = Array.from(document.querySelectorAll('body *')).filter((element) => element.getBoundingClientRect().right > width + 1);
    const innermost = wide.filter((element) => !wide.some((other) => other !== element && element.contains(other)));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: width,
      culprits: innermost.slice(0, 5).map((element) => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''}`),
    };
  });
  expect(scrollWidth, `page wider than the window on ${label}: ${culprits.join(', ')}`).toBeLessThanOrEqual(clientWidth);
}

/**
 * What axe looks at, without the words: each element's tag, classes, role, type, state and which
 * attributes it has (a link's href, an input's label), whether it holds text of its own, and its
 * children's shapes, each once (a list of three notes has the shape of a list of thirty). Hashed.
 */
async function pageShape(page: Page): Promise<string> {
  const text = await page.evaluate(() => {
    const KEPT = /^(class|role|type|disabled|hidden|open|checked|selected|aria-[a-z]+|tabindex)$/;
    const shapeOf = (element: Element): string => {
      const attributes = Array.from(element.attributes).map((attribute) => (KEPT.test(attribute.name) ? `${attribute.name}=${attribute.value}` : attribute.name));
      const ownText = Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '');
      const children = [...new Set(Array.from(element.children).map(shapeOf))];
      return `<${element.tagName} ${attributes.sort().join(' ')}${ownText ? ' #text' : ''}>${children.join('')}</>`;
    };
    return shapeOf(document.documentElement);
  });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The shapes audited so far in this run, by any test file (they run one after another). */
function auditedShapes(): Set<string> {
  const lines = readFileSync(inject('auditLog'), 'utf8').split('\n').filter(Boolean);
  return new Set(lines.map((line) => (JSON.parse(line) as AuditRecord).shape));
}

function record(entry: AuditRecord): void {
  appendFileSync(inject('auditLog'), `${JSON.stringify(entry)}\n`);
}
