#!/usr/bin/env node
// An example c8league bot in Node.js, with no dependencies.
//
// It speaks the c8league external-player protocol (docs/protocol.md): one JSON
// object per line on standard input and output, match after match in one process,
// several matches at once (each message names its match), its view of each match kept
// from the changes each message brings. Its play:
//   1. a play matching the suit to follow, not of its wild rank (the most cards);
//   2. else any other play that is not a wild card;
//   3. else a wild card, nominating the suit it holds most of;
//   4. else draw, else pass.
// It always announces "last card" when the rules offer the call.
"use strict";

const readline = require("readline");

const NAME = "node-example";
const VERSION = "0.1.0";

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

// Card text is rank then suit: "QS", "10H", "8D".
const suitOf = (card) => card.slice(-1);
const rankOf = (card) => card.slice(0, -1);

// "9C+9D", "8H:S", "5S!" -> { text, cards, suit, announce }
function parsePlay(text) {
  let body = text;
  const announce = body.endsWith("!");
  if (announce) body = body.slice(0, -1);
  const [cards, suit] = body.split(":");
  return { text, cards: cards.split("+"), suit: suit || null, announce };
}

// Of moves that nominate a suit, the one naming the suit most common in `cards`.
function bestNomination(cards, moves, nominated) {
  const count = {};
  for (const card of cards) count[suitOf(card)] = (count[suitOf(card)] || 0) + 1;
  let best = moves[0];
  for (const move of moves) {
    if ((count[nominated(move)] || 0) > (count[nominated(best)] || 0)) best = move;
  }
  return best;
}

function choose(obs, legal) {
  // The dealer names the suit when the starter card is wild.
  const nominations = legal.filter((m) => m.startsWith("nominate:"));
  if (nominations.length > 0) {
    return bestNomination(obs.hand, nominations, (m) => m.slice("nominate:".length));
  }

  // Plays, keeping only the variant that announces "last card" when there is one.
  const offered = new Set(legal);
  const plays = legal
    .filter((m) => m !== "draw" && m !== "pass")
    .filter((m) => m.endsWith("!") || !offered.has(m + "!"))
    .map(parsePlay);

  const wild = obs.wild_ranks[obs.seat]; // "8" in most rule sets; null: no wild cards
  const isWild = (p) => wild !== null && rankOf(p.cards[p.cards.length - 1]) === wild;
  const plain = plays.filter((p) => !isWild(p));
  const matching = plain.filter((p) => obs.suit !== null && suitOf(p.cards[0]) === obs.suit);

  const candidates = matching.length > 0 ? matching : plain;
  if (candidates.length > 0) {
    // Shed as many cards as possible.
    return candidates.reduce((a, b) => (b.cards.length > a.cards.length ? b : a)).text;
  }
  if (plays.length > 0) {
    const wildCard = plays[0].cards.join("+");
    const variants = plays.filter((p) => p.cards.join("+") === wildCard);
    const withSuit = variants.filter((p) => p.suit !== null);
    if (withSuit.length === 0) return variants[0].text;
    const rest = [...obs.hand];
    for (const card of variants[0].cards) rest.splice(rest.indexOf(card), 1);
    return bestNomination(rest, withSuit, (p) => p.suit).text;
  }
  if (offered.has("draw")) return "draw";
  if (offered.has("pass")) return "pass";
  return legal[0];
}

// The bot's view of the hand of each match, by match number: whole at the start of each
// hand, then kept up to date from the changes each message brings (the capability
// "changes"). Messages that name no match (from a c8league that ignores "concurrent")
// are kept under the key undefined.
const views = new Map();

function see(message) {
  if (message.observation !== undefined) {
    views.set(message.match, message.observation);
  } else if (message.changes !== undefined) {
    const view = views.get(message.match);
    Object.assign(view, message.changes);
    view.history = view.history.concat(message.new_history);
  }
}

const input = readline.createInterface({ input: process.stdin, terminal: false });

input.on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      // One process plays match after match ("match_start"), several at once
      // ("concurrent"); each message brings what changed since the last ("changes"); a
      // draw that is the only legal move is not asked for ("skip_forced").
      send({
        type: "hello",
        name: NAME,
        version: VERSION,
        capabilities: ["match_start", "concurrent", "changes", "skip_forced"],
      });
      break;
    case "match_start":
      // A new match: nothing of another is used (this bot draws no random numbers, so it
      // needs no seed). Among several matches at once it is a notice; from a c8league
      // that ignores "concurrent" (no match number) it is answered.
      views.delete(message.match);
      if (message.match === undefined) send({ type: "match_start" });
      break;
    case "move":
      see(message);
      send({
        type: "move",
        match: message.match, // the request's (JSON.stringify leaves out an undefined one)
        move: choose(views.get(message.match), message.legal),
      });
      break;
    case "hand_start":
    case "hand_end":
      see(message);
      break;
    case "match_end":
      views.delete(message.match);
      break;
    case "error":
      views.delete(message.match);
      process.stderr.write(`c8league stopped the bot: ${message.reason}: ${message.message}\n`);
      break;
    case "quit":
      input.close();
      break;
    default: // any notice of a later protocol: no answer
      break;
  }
});

input.on("close", () => process.exit(0));
