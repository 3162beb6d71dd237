// #/me: the player this browser plays as. Its name; passkeys, so the same player plays on
// another device (a passkey is the device's own screen lock: no password, no e-mail); signing in
// with a passkey made elsewhere (one prompt, no name asked); notifications of the player's turns
// on this device, and the devices notified; signing out; deleting the player.

import { type Player, playerApi } from './player-api.ts';
import { mountPlayerBar } from './player-bar.ts';
import { forgetPlayerHere, savedName, saveName } from '../api.ts';
import { esc, toast } from '../dom.ts';
import { addPasskey, passkeyProblem, passkeysWork, signInWithPasskey } from './passkeys.ts';
import { profileHref } from './player-text.ts';
import { deviceHere, notifyHere, pushApi, pushProblem, pushWorks, removeDevice } from './notifications.ts';
import type { Device } from '../protocol.ts';
import { MAX_NAME_LENGTH } from '../protocol.ts';
import { type SessionState, claimName, currentPlayer, onSessionChange, reloadSession, startSession } from './session.ts';

const PUSH_ACTIONS = new Set(['notify-here', 'remove-device']);

export function mountMePage(root: HTMLElement): () => void {
  root.innerHTML = `<div class="page me-page">
<header class="page-head"><a class="btn small" href="#/">← Lobby</a><h1>Your player</h1><nav class="player-bar" aria-label="Players"></nav></header>
<main class="page-body" aria-live="polite"><p class="muted">Loading…</p></main>
<dialog class="dialog confirm-delete" aria-labelledby="delete-title"></dialog></div>`;
  const body = root.querySelector<HTMLElement>('.page-body')!;
  const dialog = root.querySelector<HTMLDialogElement>('dialog')!;
  const unbar = mountPlayerBar(root.querySelector<HTMLElement>('.player-bar')!);
  let busy = false;

  const draw = (s: SessionState) => {
    body.removeAttribute('aria-live');
    body.innerHTML =
      s.kind === 'player'
        ? playerMarkup(s.player)
        : s.kind === 'none'
          ? noPlayerMarkup()
          : s.kind === 'unavailable'
            ? '<p>This server keeps no players: games are played under a name per game.</p>'
            : '<p class="muted">Loading…</p>';
    if (s.kind === 'player') void drawDevices();
  };

  /** The player's notified devices, each with its Remove button. */
  async function drawDevices(): Promise<void> {
    const list = body.querySelector<HTMLElement>('[data-list=devices]');
    if (!list) return;
    const devices = await pushApi.devices().catch(() => null);
    list.innerHTML = devices === null ? '<li class="muted">The devices could not be read: reload to try again.</li>' : devicesMarkup(devices);
  }

  /** Runs one player action at a time; a failure becomes a toast. */
  async function act(work: () => Promise<void>, problem: (e: unknown) => string): Promise<void> {
    if (busy) return;
    busy = true;
    try {
      await work();
    } catch (e) {
      toast(problem(e), 'error', 7000);
    } finally {
      busy = false;
    }
  }

  const actions: Record<string, (target: HTMLElement) => Promise<void>> = {
    'notify-here': async () => {
      const device = await notifyHere();
      toast(`Notifications on: ${device.label} is told when it is your turn.`);
      await drawDevices();
    },
    'remove-device': async (target) => {
      await removeDevice(target.dataset.device ?? '');
      toast('That device is no longer notified.');
      await drawDevices();
    },
    'add-passkey': async () => {
      await addPasskey();
      toast('Passkey added: sign in with it on any device.');
    },
    'sign-in': async () => {
      const s = await signInWithPasskey();
      toast(s.kind === 'player' ? `Signed in: you play as ${s.player.name}.` : 'Signed in.');
    },
    'sign-out': async () => {
      await playerApi.signOut();
      forgetPlayerHere();
      await reloadSession();
      toast('Signed out.');
    },
    'ask-delete': async () => {
      const player = currentPlayer();
      if (!player) return;
      dialog.innerHTML = deleteMarkup(player);
      dialog.showModal();
    },
    'cancel-delete': async () => dialog.close(),
    'confirm-delete': async () => {
      await playerApi.deletePlayer();
      forgetPlayerHere();
      dialog.close();
      await reloadSession();
      toast('Your player was deleted.');
    },
  };

  const onClick = (e: MouseEvent) => {
    const target = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    const name = target?.dataset.action;
    if (target && name && actions[name]) void act(() => actions[name](target), PUSH_ACTIONS.has(name) ? pushProblem : passkeyProblem);
  };
  const onSubmit = (e: SubmitEvent) => {
    const form = e.target as HTMLFormElement;
    if (form.dataset.form !== 'rename') return;
    e.preventDefault();
    void rename(form);
  };

  async function rename(form: HTMLFormElement): Promise<void> {
    const input = form.querySelector<HTMLInputElement>('input[name=name]')!;
    const note = form.querySelector<HTMLElement>('.field-note')!;
    const name = input.value.trim();
    const problem = await claimName(name);
    note.textContent = problem ?? `Saved: you play as ${name}.`;
    note.classList.toggle('error', problem !== null);
    if (problem === null) {
      input.removeAttribute('aria-invalid');
      saveName(name);
    } else {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  }

  root.addEventListener('click', onClick);
  root.addEventListener('submit', onSubmit);
  const unlisten = onSessionChange(draw);
  void startSession().then(draw);
  return () => {
    unbar();
    unlisten();
    root.removeEventListener('click', onClick);
    root.removeEventListener('submit', onSubmit);
  };
}

/** No player yet in this browser: signing in (a new device), or choosing a name makes one. */
function noPlayerMarkup(): string {
  return `${signInSection(null)}<section class="card" aria-labelledby="name-title"><h2 id="name-title">Or start a player here</h2>
<p>A player is made the first time you play, or now with a name: it keeps the name, the games and a rating in this browser, and a passkey takes it to your other devices.</p>
<form data-form="rename" class="rename">
<label class="field">Your name <input name="name" required maxlength="${MAX_NAME_LENGTH}" autocomplete="nickname" value="${esc(savedName())}" aria-describedby="rename-note"></label>
<p class="field-note" id="rename-note">Names are unique among players.</p>
<div class="row"><button class="btn" type="submit">Start my player</button></div></form></section>`;
}

/** A guest (no passkey) may be someone on a new device: signing in comes first for them. */
function playerMarkup(p: Player): string {
  const sections = [nameSection(p), passkeySection(p), signInSection(p), notificationSection(), leaveSection(p)];
  if (p.passkeys === 0) sections.unshift(sections.splice(2, 1)[0]);
  return sections.join('');
}

const noWebauthn = () => (passkeysWork() ? '' : '<p class="error">This browser cannot use passkeys.</p>');
const disabled = () => (passkeysWork() ? '' : ' disabled');

function nameSection(p: Player): string {
  return `<section class="card" aria-labelledby="name-title"><h2 id="name-title">Name</h2>
<form data-form="rename" class="rename">
<label class="field">Your name <input name="name" required maxlength="${MAX_NAME_LENGTH}" autocomplete="nickname" value="${esc(p.name)}" aria-describedby="rename-note"></label>
<p class="field-note" id="rename-note">Names are unique: the name is yours until you change it. Games already played keep the name they were played under.</p>
<div class="row"><button class="btn primary" type="submit">Save the name</button><a class="btn ghost" href="${profileHref(p.id)}">Your profile</a></div></form></section>`;
}

function passkeySection(p: Player): string {
  const text =
    p.passkeys === 0
      ? `<p>No passkey yet: <strong>${esc(p.name)}</strong> lives only in this browser. Add a passkey to keep this player, its games and its rating on your other devices. A passkey is your device's own screen lock or security key: no password, no e-mail.</p>`
      : `<p>${p.passkeys === 1 ? 'One passkey' : `${p.passkeys} passkeys`}: sign in with ${p.passkeys === 1 ? 'it' : 'one'} on any device to play as <strong>${esc(p.name)}</strong> there.</p>`;
  return `<section class="card" aria-labelledby="passkey-title"><h2 id="passkey-title">Passkeys</h2>${text}${noWebauthn()}
<div class="row"><button class="btn primary" data-action="add-passkey"${disabled()}>Add a passkey</button></div></section>`;
}

function signInSection(p: Player | null): string {
  const lost = p?.passkeys === 0 ? ` Without a passkey, <strong>${esc(p.name)}</strong> cannot be reached again once this browser plays as someone else.` : '';
  return `<section class="card" aria-labelledby="signin-title"><h2 id="signin-title">Played on another device?</h2>
<p>Sign in with the passkey you added there: this browser then plays as that player, with its games and rating.${lost}</p>${noWebauthn()}
<div class="row"><button class="btn${p ? '' : ' primary'}" data-action="sign-in"${disabled()}>Sign in with a passkey</button></div></section>`;
}

function notificationSection(): string {
  const cannot = pushWorks() ? '' : '<p class="error">This browser cannot show notifications from a site (or the page is not served over https).</p>';
  return `<section class="card" aria-labelledby="notify-title"><h2 id="notify-title">Notifications</h2>
<p>Be told on this device when it is your turn in a game, and when a move is due soon. One notification gathers every game that waits for you; nothing comes while you have the game open.</p>${cannot}
<div class="row"><button class="btn primary" data-action="notify-here"${pushWorks() ? '' : ' disabled'}>Notify me on this device</button></div>
<h3 class="small devices-title">Devices notified</h3><ul class="device-list" data-list="devices"><li class="muted">…</li></ul></section>`;
}

export function devicesMarkup(devices: Device[]): string {
  if (devices.length === 0) return '<li class="muted">None yet.</li>';
  const here = deviceHere();
  return devices
    .map(
      (d) =>
        `<li class="device"><span>${esc(d.label)}${d.id === here ? ' <strong>(this device)</strong>' : ''} <span class="muted small">since ${esc(d.createdAt.slice(0, 10))}</span></span> <button class="btn small" data-action="remove-device" data-device="${esc(d.id)}" aria-label="Remove ${esc(d.label)}">Remove</button></li>`,
    )
    .join('');
}

function leaveSection(p: Player): string {
  return `<section class="card" aria-labelledby="leave-title"><h2 id="leave-title">Sign out or delete</h2>
<p>Signing out makes this browser a new guest: it forgets ${esc(p.name)}'s games and seats; ${p.passkeys === 0 ? `with no passkey, ${esc(p.name)} is lost to it` : 'your passkey signs you in again'}.</p>
<div class="row"><button class="btn" data-action="sign-out">Sign out</button><button class="btn danger" data-action="ask-delete">Delete this player…</button></div></section>`;
}

function deleteMarkup(p: Player): string {
  return `<h2 id="delete-title">Delete ${esc(p.name)}?</h2>
<p>Your passkeys and sessions are removed and the name is free for anyone. The games you played stay, for the other players, with your name replaced by “deleted player”; seats kept for you by a challenge open for anyone; your rating and profile are gone. This cannot be undone.</p>
<div class="row"><button class="btn danger" data-action="confirm-delete">Delete the player</button><button class="btn" data-action="cancel-delete" autofocus>Keep it</button></div>`;
}
