// Tiny DOM helpers: escaping for template strings, element lookup, a toast, clipboard.

import morphdom from 'morphdom';

export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function $(root: ParentNode, selector: string): HTMLElement {
  const e = root.querySelector<HTMLElement>(selector);
  if (!e) throw new Error(`missing element ${selector}`);
  return e;
}

export function html(markup: string): HTMLElement {
  const t = document.createElement('template');
  t.innerHTML = markup.trim();
  return t.content.firstElementChild as HTMLElement;
}

let toastTimer: number | undefined;

/** A short message at the bottom of the screen, announced to screen readers. */
export function toast(message: string, kind: 'info' | 'error' = 'info', ms = 3500): void {
  let el = document.getElementById('toast');
  if (!el) {
    el = document.createElement('div');
    el.id = 'toast';
    el.setAttribute('role', 'status');
    el.setAttribute('aria-live', 'polite');
    document.body.append(el);
  }
  el.textContent = message;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => el!.classList.remove('show'), ms);
}

/** Takes the toast away now (it belonged to a turn that is over). */
export function clearToast(): void {
  clearTimeout(toastTimer);
  document.getElementById('toast')?.classList.remove('show');
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.append(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}

export function inputTarget(e: KeyboardEvent): boolean {
  const t = e.target as HTMLElement | null;
  return !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
}

/** Re-renders `container` from markup by changing only what differs (morphdom): an element that
 * stays in the markup stays in the page, so a press that spans a live update still clicks, and
 * keyboard focus stays where it was. Elements are matched by data-focus-key (or id) where they
 * have one, so a control keeps its element when others come and go before it. */
export function patch(container: HTMLElement, markup: string): void {
  const next = container.cloneNode(false) as HTMLElement;
  next.innerHTML = markup;
  morphdom(container, next, { childrenOnly: true, getNodeKey: controlKey });
}

function controlKey(node: Node): string | undefined {
  if (!(node instanceof Element)) return undefined;
  return node.getAttribute('data-focus-key') ?? (node.id || undefined);
}

export function fmtDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

export function gameLink(id: string): string {
  return `${location.origin}/#/g/${encodeURIComponent(id)}`;
}
