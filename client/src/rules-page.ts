// #/rules: how to play, for a new player: placing tiles, the four kinds of follower, scoring,
// farms and the end, drawn with the game's own tile art. The text follows docs/RULES.md (the
// engine's rules reference) in plain words; the figures are small boards built like the real one.

import { meepleMarkup, spotPosition, tileIcon } from './art.ts';
import { ensureTileDefs } from './defs.ts';
import { soundButton } from './sound.ts';

type Placed = { tile: string; x: number; y: number; rotation: number; meeple?: { player: number; spot: string } };

/** A little board: tiles at grid cells (x east, y south), followers on their spots. */
function board(tiles: Placed[], label: string, cell = 120): string {
  const xs = tiles.map((t) => t.x);
  const ys = tiles.map((t) => t.y);
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)];
  const w = Math.max(...xs) - x0 + 1;
  const h = Math.max(...ys) - y0 + 1;
  const body = tiles
    .map((t) => {
      const at = `translate(${(t.x - x0) * 100} ${(t.y - y0) * 100})`;
      const m = t.meeple && spotPosition(t.tile, t.rotation, t.meeple.spot);
      const follower = t.meeple && m ? meepleMarkup(t.meeple.player, m.at[0], m.at[1], { farmer: m.kind === 'field', scale: 0.9 }) : '';
      return `<g transform="${at}"><use href="#tile-${t.tile}" transform="rotate(${t.rotation} 50 50)"/>${follower}</g>`;
    })
    .join('');
  return `<svg class="rules-example" width="${w * cell}" height="${h * cell}" viewBox="-4 -4 ${w * 100 + 8} ${h * 100 + 8}" role="img" aria-label="${label}">${body}</svg>`;
}

function figure(tile: Placed, caption: string): string {
  return `<figure>${board([tile], caption, 96)}<figcaption>${caption}</figcaption></figure>`;
}

const START: Placed = { tile: 'D', x: 0, y: 0, rotation: 0 };

export function rulesMarkup(): string {
  return `<article class="rules-page">
<header><a class="btn small" href="#/">← Lobby</a><h1>How to play</h1>${soundButton()}</header>
<p>Tessera is the classic tile-laying game for 2 to 5 players (6 with Inns &amp; Cathedrals): together you build a countryside of
roads, cities, monasteries and fields, one square tile at a time, and score by placing your
followers on what you build. The player with the most points after the last tile wins.</p>
<nav aria-label="On this page"><ol><li><a href="#rules-place">Placing a tile</a></li><li><a href="#rules-followers">Followers</a></li>
<li><a href="#rules-scoring">Scoring</a></li><li><a href="#rules-farms">Farms</a></li><li><a href="#rules-end">The end of the game</a></li><li><a href="#rules-here">Playing here</a></li></ol></nav>

<h2 id="rules-place">Placing a tile</h2>
<p>The game starts with one tile on the table: a city to the north and a road crossing it.
There are 72 tiles in all; the other 71 are shuffled face down. On your turn you draw one and
place it next to the tiles already there, so that it touches at least one of them along a side.</p>
<p><strong>Every side it shares must match:</strong> city against city, road against road, field
against field. You may turn the tile any way you like to make it fit.</p>
${board(
  [START, { tile: 'E', x: 0, y: -1, rotation: 180 }, { tile: 'U', x: 1, y: 0, rotation: 0 }, { tile: 'V', x: -1, y: 0, rotation: 270 }],
  'The start tile with a city piece placed above it to close the city, a straight road to its east and a curve to its west',
)}
<p class="muted small">Above: a city piece turned upside down closes the start tile's city; a straight road and a curve continue its road east and west.</p>
<p>A tile that fits nowhere is shown to everyone and set aside, and the same player draws again.</p>

<h2 id="rules-followers">Followers</h2>
<p>Each player has 7 followers. Right after placing a tile you may put <strong>one</strong>
follower on one feature <em>of that tile</em>, if nobody (you included) already has a follower
on the road, city, monastery or field it is part of, counted across all the tiles it spans. The
follower's job depends on where it stands:</p>
<div class="rules-figs">
${figure({ tile: 'E', x: 0, y: 0, rotation: 0, meeple: { player: 0, spot: 'city:N' } }, 'Knight, in a city')}
${figure({ tile: 'U', x: 0, y: 0, rotation: 0, meeple: { player: 1, spot: 'road:E' } }, 'Thief, on a road')}
${figure({ tile: 'B', x: 0, y: 0, rotation: 0, meeple: { player: 2, spot: 'monastery' } }, 'Monk, in a monastery')}
${figure({ tile: 'V', x: 0, y: 0, rotation: 0, meeple: { player: 3, spot: 'field:NE' } }, 'Farmer, lying in a field')}
</div>
<p>When a road, city or monastery is <strong>completed</strong>, it scores at once and its followers
come back to their owners, ready to be used again. Farmers stay in their fields until the end.
You may place a follower on a feature that the same tile completes: it scores and comes straight back.</p>
<p>You cannot put a follower on a feature that already has one, but two features with followers may
later be joined by a new tile: then the player with <strong>more</strong> followers on it scores
it all; tied players each score it all; the others score nothing from it.</p>

<h2 id="rules-scoring">Scoring</h2>
<table><thead><tr><th scope="col">feature</th><th scope="col">completed during the game</th><th scope="col">unfinished at the end</th></tr></thead><tbody>
<tr><th scope="row">${tileIcon('U', 0, 28)} Road</th><td>1 point a tile. Complete when both ends stop at a crossroads, a city or a monastery, or it closes a loop.</td><td>1 point a tile</td></tr>
<tr><th scope="row">${tileIcon('R', 0, 28)} City</th><td>2 points a tile, and 2 more for each pennant (the shield). Complete when its wall is closed all round.</td><td>1 point a tile, 1 a pennant</td></tr>
<tr><th scope="row">${tileIcon('B', 0, 28)} Monastery</th><td>9 points once all 8 squares around it (diagonals too) are filled.</td><td>1 point, plus 1 for each tile around it</td></tr>
<tr><th scope="row">${tileIcon('V', 0, 28)} Farm</th><td>never during the game</td><td>3 points for each completed city the field touches</td></tr>
</tbody></table>
<p>A tile counts once for a feature, even when the feature crosses it twice. Some games use the
<em>small cities</em> option: a completed city of just two tiles then scores 2 instead of 4.</p>

<h2 id="rules-farms">Farms</h2>
<p>Fields are the green land between roads and city walls; roads and walls split them. A farmer
never comes back during the game. At the end, each farm pays its farmer 3 points for every
<strong>completed</strong> city it touches. The player with the most farmers in a farm takes it
(ties share in full), and a city touching two farms pays each of them.</p>
${board(
  [START, { tile: 'E', x: 0, y: -1, rotation: 180 }, { tile: 'V', x: 1, y: 0, rotation: 0, meeple: { player: 3, spot: 'field:NE' } }],
  'A farmer in the field beside a completed city: the farm is worth 3 points at the end',
)}
<p class="muted small">Above: the farmer's field reaches the closed city, worth 3 points at the end. Games may also be set to the older 1st or 2nd edition farm rules (chosen when the game is created).</p>

<h2 id="rules-end">The end of the game</h2>
<p>The game ends when the last tile has been placed. Then every unfinished road, city and
monastery scores as in the table, and then the farms. The most points wins.</p>

<h2 id="rules-expansions">Expansions</h2>
<p>Three expansions can be switched on when a game is created, alone or together.</p>

<h3 id="rules-river">The River</h3>
<div class="rules-figures">${board(
    [
      { tile: 'RA', x: 0, y: 0, rotation: 0 },
      { tile: 'RG', x: 1, y: 0, rotation: 0 },
      { tile: 'RB', x: 2, y: 0, rotation: 0 },
    ],
    'The spring, a stretch of river and the lake',
    90,
  )}</div>
<p>The spring replaces the start tile. The other 11 river tiles are played first, the lake last,
each one extending the river from its open end. The river may not turn the same way twice in a
row (nor three turns the same way with straight stretches between). Then the usual tiles follow.
Fields end at the water; roads and cities on river tiles score as usual.</p>

<h3 id="rules-inns">Inns &amp; Cathedrals</h3>
<div class="rules-figures">${figure({ tile: 'IP', x: 0, y: 0, rotation: 0, meeple: { player: 2, spot: 'road:W' } }, 'A road with an inn')}${figure({ tile: 'IA', x: 0, y: 0, rotation: 0 }, 'A city with a cathedral')}</div>
<ul>
<li>18 more tiles, and a sixth player may join.</li>
<li>A road with an inn scores <strong>2 a tile</strong> when completed, but <strong>nothing</strong> if it is still unfinished at the end.</li>
<li>A city with a cathedral scores <strong>3 a tile and 3 a pennant</strong> when completed, and <strong>nothing</strong> if unfinished at the end.</li>
<li>Each player also has one <strong>large follower</strong>: placed like a follower, it counts as two when the majority on a road, city or farm is decided.</li>
</ul>

<h3 id="rules-abbot">The Abbot</h3>
<div class="rules-figures">${figure({ tile: 'Vg', x: 0, y: 0, rotation: 0 }, 'A road bend with a garden')}</div>
<ul>
<li>Some tiles show a <strong>garden</strong>. Each player has one <strong>abbot</strong>, placed instead of a follower, only on a monastery or a garden of the tile just placed. Followers never stand on a garden.</li>
<li>A garden scores like a monastery: 9 once surrounded, or at the end 1 and 1 for each neighbouring tile.</li>
<li>Instead of placing a figure, a player may <strong>take the abbot back</strong>: its monastery or garden scores at once as it stands (1 + each neighbour).</li>
</ul>

<h2 id="rules-here">Playing here</h2>
<ul>
<li>Click a highlighted square: solid yellow fits as the tile is turned now, dashed fits once turned. Click the tile again (or press <kbd>R</kbd>) to turn it.</li>
<li>Choose a follower spot on the tile (or none), then <strong>Confirm</strong> (<kbd>Enter</kbd>). Nothing is sent before you confirm; <strong>Take back</strong> (<kbd>Esc</kbd>) withdraws the tile.</li>
<li>Keyboard only: <kbd>N</kbd>/<kbd>P</kbd> pick the next or previous square, <kbd>R</kbd> turns, <kbd>1</kbd>–<kbd>9</kbd> pick a follower spot (<kbd>0</kbd> none), <kbd>L</kbd> or <kbd>A</kbd> puts the large follower or the abbot there instead (with their expansions), <kbd>B</kbd> takes the abbot back, <kbd>Enter</kbd> confirms; arrows pan, <kbd>+</kbd>/<kbd>−</kbd> zoom, <kbd>F</kbd> fits the board.</li>
<li>Table talk: quick messages and short notes to the other players; anyone watching reads along. Mute it for a game with one click.</li>
<li>Sounds for placements, scorings and your turn: the <em>Sound</em> button switches them off (remembered in this browser).</li>
</ul>
<p><a class="btn primary" href="#/">Play a game</a></p>
</article>`;
}

export function mountRules(root: HTMLElement): () => void {
  ensureTileDefs();
  root.innerHTML = rulesMarkup();
  // In-page links must not be taken for routes by the hash router.
  const onClick = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a[href^="#rules-"]');
    if (!a) return;
    e.preventDefault();
    root.querySelector(a.getAttribute('href')!)?.scrollIntoView({ behavior: 'smooth' });
  };
  root.addEventListener('click', onClick);
  document.title = 'How to play · Tessera';
  return () => {
    root.removeEventListener('click', onClick);
    document.title = 'Tessera';
  };
}
