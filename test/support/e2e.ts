// Shared set-up of the browser e2e tests: the real server (buildApp on 127.0.0.1, port 0, a
// temp data dir, one warm bot worker) and Debian's Chromium via playwright-core (nothing
// downloaded), pages with reduced motion, screenshots in test-results/e2e/, the helpers
// that play a turn by clicking, and the page checks every screen gets: axe-core's serious
// problems and controls under 44 px. Needs `npm run build` (the bot worker and the client bundle).
// The client has no test handle: the helpers read the page (what a person sees) and the game's
// WebSocket frames, watched from outside the client (watchWire).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { type Config, loadConfig } from '../../server/config.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS = fileURLToPath(new URL('../../test-results/e2e/', import.meta.url));
const WEB = fileURLToPath(new URL('../../dist/web/index.html', import.meta.url));

export interface E2E {
  base: string;
  /** The WebSocket endpoint, for Node clients beside the browsers. */
  ws: string;
  newPage(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  /** Stops the server and starts a new one on the same port and data directory. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface E2EOptions {
  /** Server settings beyond the e2e defaults. */
  config?: Partial<Config>;
  /** Extra Chromium flags. */
  args?: string[];
  /** Chromium with its windows drawn (on $DISPLAY): scripts/notification-screenshot.ts. Headless by default. */
  headless?: boolean;
  /** Runs on every new browser context before its page (init scripts). */
  onContext?: (context: BrowserContext) => Promise<unknown>;
}

export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  assert.ok(existsSync(CHROMIUM), `Chromium is needed at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  assert.ok(existsSync(WEB), 'the client is not built: run `npm run build` (or `npm run build:client`)');
  mkdirSync(SHOTS, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-e2e-'));
  const config = loadConfig(
    {},
    {
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      dataDir,
      botWorkers: 1,
      warmupLevel: 'random',
      botDeadlineMs: 1500,
      wsMessagesPerSecond: 200,
      wsBurst: 200,
      shutdownGraceMs: 500,
      ...options.config,
    },
  );
  const serve = async (on: number): Promise<FastifyInstance> => {
    const started = await buildApp(config);
    await started.listen({ port: on, host: '127.0.0.1' });
    await started.poolStarted;
    return started;
  };
  let app = await serve(0);
  const port = (app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}`;
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: options.headless ?? true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage', ...(options.args ?? [])],
  });
  return {
    base,
    ws: `ws://127.0.0.1:${port}/ws`,
    async newPage(viewport = { width: 1280, height: 800 }) {
      const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
      await context.addInitScript(watchWire);
      await options.onContext?.(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource: .* 404/.test(m.text())) errors.push(m.text());
      });
      // The machine running the tests may be busy: waits are generous.
      page.setDefaultTimeout(30000);
      return { context, page, errors };
    },
    async restart() {
      await app.close();
      app = await serve(port);
    },
    async close() {
      await browser.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page; returns the serious and critical violations, readable. */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE });
  const result = await page.evaluate(async () => (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n: any) => n.target.join(' ')).join(' | ')}`);
}

/** The smallest touch target, CSS px (WCAG 2.5.5). */
export const MIN_TARGET = 44;

/** Every visible control of the page smaller than 44×44 CSS px, named so the failure says where. */
export function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const d = (globalThis as any).document;
    const controls = d.querySelectorAll('button, a[href], input, select, textarea, summary, [role=button], .spot, .layer-spots [data-spot]');
    const small: string[] = [];
    const seen = new Set();
    for (const control of controls) {
      // A box or a radio is aimed at through the label around it.
      const target = control.matches('input[type=checkbox], input[type=radio]') ? (control.closest('label') ?? control) : control;
      if (seen.has(target)) continue;
      seen.add(target);
      const style = (globalThis as any).getComputedStyle(target);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Links inside running text: the inline exception.
      if (target.matches('p a, li > a:not(.btn), td a, dd a, figcaption a') && (globalThis as any).getComputedStyle(target).display === 'inline') continue;
      if (box.width + 0.5 < min || box.height + 0.5 < min) {
        const label = (target.getAttribute('aria-label') || target.textContent || target.getAttribute('name') || '').trim().replace(/\s+/g, ' ').slice(0, 30);
        const cls = typeof target.className === 'string' ? target.className : (target.className?.baseVal ?? '');
        small.push(`${target.tagName.toLowerCase()}${cls ? `.${cls.trim().split(/\s+/).join('.')}` : ''} "${label}" ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return small;
  }, MIN_TARGET);
}

export const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

export interface Placement {
  x: number;
  y: number;
  rotation: number;
  meeples: string[];
}

/** Runs in the page before its scripts: every WebSocket the page opens is watched, and the view
 * of the latest state (or delta) frame on the newest one is kept in `e2eWire` (as the client keeps only
 * its newest socket). */
function watchWire(): void {
  const g = globalThis as any;
  const wire: { view: unknown; socket: WebSocket | null } = { view: null, socket: null };
  g.e2eWire = wire;
  g.WebSocket = class extends g.WebSocket {
    constructor(...args: unknown[]) {
      super(...args);
      wire.socket = this as unknown as WebSocket;
      // Added before the client's own listener: the view is kept before the screen draws it.
      this.addEventListener('message', (e: MessageEvent) => {
        if (wire.socket !== (this as unknown)) return;
        try {
          const frame = JSON.parse(String(e.data));
          if (frame.type === 'state') wire.view = frame.view;
          // Protocol version 2 (server/wire/delta.ts; this runs in the page, which cannot import it).
          const view = wire.view as { board: unknown[] } | null;
          if (frame.type === 'delta' && view) wire.view = { ...frame.view, board: view.board.concat(frame.placed) };
        } catch {}
      });
    }
  };
}

/** The game view of the latest state frame the page received. */
export const gameView = (page: Page): Promise<any> => page.evaluate(() => (globalThis as any).e2eWire.view);

/** Closes the page's game socket as a failing network would (the client reconnects by itself). */
export const dropConnection = (page: Page): Promise<void> => page.evaluate(() => (globalThis as any).e2eWire.socket?.close());

/** Every state the connection badge takes from now on, each one recorded as the page draws it:
 * a state that lasts less than a polling interval on a fast reconnect is not missed. */
export async function recordConnStates(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const g = globalThis as any;
    const seen: string[] = [];
    const read = () => {
      const state = g.document.querySelector('.conn')?.getAttribute('data-conn');
      if (state && seen.at(-1) !== state) seen.push(state);
    };
    read();
    new g.MutationObserver(read).observe(g.document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-conn'] });
    g.e2eConnStates = seen;
  });
  return () => page.evaluate(() => [...(globalThis as any).e2eConnStates]);
}

/** The tentative placement drawn on the board (its follower: the chosen spot), or null. */
export const selection = (page: Page): Promise<{ x: number; y: number; rotation: number; meeple: string | null } | null> =>
  page.evaluate(() => {
    const d = (globalThis as any).document;
    const t = d.querySelector('.layer-tentative .tentative');
    if (!t) return null;
    const meeple = d.querySelector('.layer-spots .spot.chosen')?.dataset.spot ?? null;
    return { x: Number(t.dataset.x), y: Number(t.dataset.y), rotation: Number(t.dataset.rotation), meeple };
  });

/** The board's scale (screen px per board unit; a cell is 100 units), as its CSS sees it. */
export const boardZoom = async (page: Page): Promise<number> => Number(await page.evaluate(() => (globalThis as any).document.querySelector('.board').style.getPropertyValue('--zoom')));

/** Screen centre of a follower spot offered on the tentative tile. */
export async function spotOnScreen(page: Page, spot: string): Promise<{ x: number; y: number }> {
  const b = (await page.locator(`.layer-spots [data-spot="${spot}"] circle:not(.spot-hit)`).boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}
export const turnOf = async (page: Page) => Number(await page.getAttribute('.game', 'data-turn'));

/** Waits until it is this browser's turn at a turn later than `after` (or the game is over). */
export async function waitMyTurn(page: Page, after = -1, timeout = 30000): Promise<'mine' | 'finished'> {
  await page.waitForFunction(
    (t) => {
      const g = (globalThis as any).document.querySelector('.game');
      return !!g && (g.dataset.status === 'finished' || (g.classList.contains('my-turn') && Number(g.dataset.turn) > t));
    },
    after,
    { timeout },
  );
  return (await page.getAttribute('.game', 'data-status')) === 'finished' ? 'finished' : 'mine';
}

/** Screen position of a cell's centre (it may be out of view). The board's world group carries
 * its pan and zoom; a cell is 100 units square. */
export const cellCenter = (page: Page, x: number, y: number): Promise<{ x: number; y: number }> =>
  page.evaluate(
    ([cx, cy]) => {
      const svg = (globalThis as any).document.querySelector('.board');
      const m = svg.querySelector('.world').getCTM();
      const r = svg.getBoundingClientRect();
      const [wx, wy] = [(cx + 0.5) * 100, (cy + 0.5) * 100];
      return { x: r.left + m.a * wx + m.c * wy + m.e, y: r.top + m.b * wx + m.d * wy + m.f };
    },
    [x, y],
  );

/** Screen position of a cell's centre, dragging the board first when the cell is out of view. */
export async function cellOnScreen(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const center = () => cellCenter(page, x, y);
  let c = await center();
  const box = (await page.locator('.board').boundingBox())!;
  const margin = Math.min(90, box.width / 4, box.height / 4);
  if (c.x < box.x + margin || c.x > box.x + box.width - margin || c.y < box.y + margin || c.y > box.y + box.height - margin) {
    const mx = box.x + box.width / 2;
    const my = box.y + box.height / 2;
    await page.mouse.move(mx, my);
    await page.mouse.down();
    await page.mouse.move(mx + (mx - c.x) / 2, my + (my - c.y) / 2, { steps: 3 });
    await page.mouse.move(mx + (mx - c.x), my + (my - c.y), { steps: 3 });
    await page.mouse.up();
    c = await center();
  }
  return c;
}

/** Clicks a cell (the tentative tile appears there). */
export async function clickCell(page: Page, x: number, y: number): Promise<void> {
  const c = await cellOnScreen(page, x, y);
  await page.mouse.click(c.x, c.y);
  await page.waitForSelector('.layer-tentative .tentative');
}
