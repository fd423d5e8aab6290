'use strict';
/**
 * The Chemistry Card Game (element-draft) written as a boardgame.io 0.50 game: a
 * benchmark fixture for bench/bgio (see "Side by side with boardgame.io" in
 * bench/README.md, which lists what it does differently from rules/element_draft).
 *
 * The deal table and every card's facts come from this project's own rules, exported
 * by the harness to the JSON file named by BGIO_ELEMENTS, so both servers deal and
 * show the same cards. Each seat selects one card a round (ActivePlayers.ALL_ONCE);
 * the selection stays secret (playerView, and `redact` for the move's log entry)
 * until every seat has selected; then the cards are revealed, the running scores
 * are recomputed and the hands pass to the left (seat s to seat s + 1).
 */
const fs = require('node:fs');
const { ActivePlayers, INVALID_MOVE } = require('boardgame.io/core');

const RUN_POINTS = { 2: 4, 3: 9, 4: 16 };
const FAMILY_POINTS = { 2: 1, 3: 3, 4: 6, 5: 10, 6: 15 };
const RADIOACTIVITY_MIN_PLAYERS = 7;

let data = null;
/** {deal: {players: [deck size, hand size]}, cards: [card of z = 1, 2, ...]} */
function elements() {
  if (data === null) {
    data = JSON.parse(fs.readFileSync(process.env.BGIO_ELEMENTS, 'utf8'));
  }
  return data;
}

function longestRun(zs) {
  const sorted = [...zs].sort((a, b) => a - b);
  let best = sorted.length ? 1 : 0;
  let run = 1;
  for (let i = 1; i < sorted.length; i++) {
    run = sorted[i] === sorted[i - 1] + 1 ? run + 1 : 1;
    best = Math.max(best, run);
  }
  return best;
}

/**
 * Disjoint (cation, anion) pairs of equal charge, counted greedily: the cards with the
 * fewest charges are paired first. The service finds the largest set (a maximum
 * matching); this count can be smaller for some hands.
 */
function ionPairs(cards) {
  const free = [...cards].sort((a, b) => a.ion_charges.length - b.ion_charges.length);
  const used = new Set();
  let pairs = 0;
  for (const a of free) {
    if (used.has(a.z)) continue;
    for (const b of free) {
      if (b === a || used.has(b.z)) continue;
      const fits = a.ion_charges.some((q) => b.ion_charges.includes(-q));
      if (fits) {
        used.add(a.z);
        used.add(b.z);
        pairs += 1;
        break;
      }
    }
  }
  return pairs;
}

function ownPoints(cards, players) {
  const run = Math.min(longestRun(cards.map((c) => c.z)), 4);
  const families = new Map();
  for (const c of cards) families.set(c.family, (families.get(c.family) || 0) + 1);
  const familyCount = Math.min(Math.max(families.size, ...families.values(), 0), 6);
  let points = (RUN_POINTS[run] || 0) + (FAMILY_POINTS[familyCount] || 0) + 5 * ionPairs(cards);
  if (players >= RADIOACTIVITY_MIN_PLAYERS) {
    const hot = cards.filter((c) => c.radioactive).length;
    points += hot >= 2 ? 7 : hot === 1 ? -3 : 0;
  }
  return points;
}

/** Every seat's running total (the service's views show them too). */
function totals(drafted) {
  const n = drafted.length;
  const mass = drafted.map((cards) => cards.reduce((sum, c) => sum + c.mass, 0));
  return drafted.map((cards, s) => {
    let points = ownPoints(cards, n);
    for (const other of [(s + 1) % n, (s + n - 1) % n]) {
      if (mass[s] > mass[other]) points += 2;
      else if (mass[s] < mass[other]) points -= 2;
    }
    return points;
  });
}

function highest(cards) {
  return Math.max(0, ...cards.map((c) => c.z));
}

const ElementDraft = {
  name: 'element-draft',
  minPlayers: 2,
  maxPlayers: 10,

  setup: ({ ctx, random }) => {
    const { deal, cards } = elements();
    const n = ctx.numPlayers;
    const [deckSize, handSize] = deal[n];
    const order = random.Shuffle(Array.from({ length: deckSize }, (_, i) => i + 1));
    const hands = [];
    for (let s = 0; s < n; s++) {
      const zs = order.slice(s * handSize, (s + 1) * handSize).sort((a, b) => a - b);
      hands.push(zs.map((z) => cards[z - 1]));
    }
    return {
      round: 1,
      rounds: handSize,
      hands,
      selections: Array(n).fill(null),
      drafted: Array.from({ length: n }, () => []),
      setAside: order.slice(n * handSize).map((z) => cards[z - 1]),
      scores: Array(n).fill(0),
    };
  },

  // one selection per seat per round, all seats at once
  turn: { activePlayers: ActivePlayers.ALL_ONCE },

  moves: {
    draft: {
      // only the server knows every selection, so only it can reveal
      client: false,
      // the card stays out of the other seats' copy of the log
      redact: true,
      move: ({ G, ctx, playerID, events }, z) => {
        const seat = Number(playerID);
        if (G.selections[seat] !== null) return INVALID_MOVE;
        const at = G.hands[seat].findIndex((c) => c.z === z);
        if (at < 0) return INVALID_MOVE;
        G.selections[seat] = G.hands[seat][at];
        G.hands[seat].splice(at, 1);
        if (G.selections.some((c) => c === null)) return undefined;
        const n = ctx.numPlayers;
        G.selections.forEach((c, s) => G.drafted[s].push(c));
        G.selections = Array(n).fill(null);
        // scored on the shared card objects, not through immer's draft proxies
        const { cards } = elements();
        G.scores = totals(G.drafted.map((drafted) => drafted.map((c) => cards[c.z - 1])));
        G.round += 1;
        if (G.round <= G.rounds) {
          G.hands = G.hands.map((_, s) => G.hands[(s + n - 1) % n]);
          events.endTurn();
        }
        return undefined;
      },
    },
  },

  endIf: ({ G }) => {
    if (G.round <= G.rounds) return undefined;
    const best = Math.max(...G.scores);
    const tied = G.scores.map((p, s) => (p === best ? s : -1)).filter((s) => s >= 0);
    const winner = tied.reduce((a, b) => (highest(G.drafted[b]) > highest(G.drafted[a]) ? b : a));
    return { winner: String(winner), scores: G.scores };
  },

  playerView: ({ G, ctx, playerID }) => {
    const seat = playerID === null || playerID === undefined ? -1 : Number(playerID);
    const over = ctx.gameover !== undefined;
    return {
      round: G.round,
      rounds: G.rounds,
      hand: seat >= 0 ? G.hands[seat] : null,
      handCounts: G.hands.map((h) => h.length),
      selection: seat >= 0 ? G.selections[seat] : null,
      hasSelected: G.selections.map((c) => c !== null),
      drafted: G.drafted,
      setAside: over ? G.setAside : null,
      setAsideCount: G.setAside.length,
      scores: G.scores,
    };
  },
};

module.exports = { ElementDraft, totals, longestRun, ionPairs };
