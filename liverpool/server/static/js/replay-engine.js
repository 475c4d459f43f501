// Replaying a game record (docs/record-format.md) for display: where every card is after each action.
//
// The record was checked by the engine when it was played, so this does not validate anything: it
// only moves cards the way liverpool/engine/game.py performs each action (deal, draws, buy windows,
// melds, lay-offs, swaps, discards, calls, washes and the scoring at the end of each deal).
// tests/ui/test_browser_ui.py checks that its totals equal the engine's replay of the same record.

import { parseCard, pretty, prettyList, rankText } from "./cards.js";

const mod13 = (x) => ((x % 13) + 13) % 13;

function cardValue(rules, id) {
  const card = parseCard(id);
  return rules.card_values[card.joker ? "JK" : rankText(card.rank)];
}

export class ReplayState {
  constructor(record) {
    this.rules = record.ruleset;
    this.names = record.seats.map((s, i) => s.name ?? `seat ${i}`);
    this.seats = this.names.length;
    this.dealer = record.first_dealer;
    this.phase = "deal";
    this.deal = 0;
    this.current = 0;
    this.hands = this.names.map(() => []);
    this.stock = [];
    this.discard = [];
    this.melds = [];
    this.down = this.names.map(() => false);
    this.buys = this.names.map(() => 0);
    this.fresh = false;
    this.discarder = null;
    this.mayI = [];
    this.window = [];
    this.answers = {};
    this.taken = null;
    this.mustPlace = null;
    this.reshuffles = 0;
    this.cutter = null;
    this.results = [];
    this.replays = 0;
    this.winners = [];
    this.turn = 0;
  }

  /** A plain copy of what the viewer shows after an action. */
  snapshot() {
    return structuredClone({
      deal: this.deal, dealer: this.dealer, phase: this.phase, current: this.current,
      contract: this.phase === "game_over" ? [] : this.dealRule.contract,
      hands: this.hands, stockSize: this.stock.length, discard: this.discard, melds: this.melds,
      down: this.down, buys: this.buys, window: this.window, answers: this.answers, mayI: this.mayI,
      mustPlace: this.mustPlace, results: this.results, totals: this.totals, winners: this.winners,
    });
  }

  get dealRule() {
    return this.rules.deals[Math.min(this.deal, this.rules.deals.length - 1)];
  }

  get isFinal() {
    return this.deal >= this.rules.deals.length - 1;
  }

  // Going down goes out: the deal's own out (rules.py DealOut), else final_deal in the last deal.
  get contractEndsDeal() {
    const out = this.dealRule.out ?? "normal";
    return out !== "normal" || (this.isFinal && this.rules.final_deal !== "normal");
  }

  get totals() {
    return this.names.map((_, s) => this.results.reduce((sum, r) => sum + r.scores[s], 0));
  }

  buyLimit() {
    if (this.isFinal && this.rules.final_deal_buy_limit !== null) return this.rules.final_deal_buy_limit;
    return this.rules.buy_limit;
  }

  mayBuy(seat) {
    const rules = this.rules;
    if (rules.buying === "none" || !this.fresh || !this.discard.length) return false;
    if (seat === this.current || seat === this.discarder) return false;
    // The upcard (no discarder yet) only where the ruleset allows it; records from before the option bought it.
    if (this.discarder === null && !(rules.upcard_buyable ?? true)) return false;
    const limit = this.buyLimit();
    if (limit !== null && this.buys[seat] >= limit) return false;
    if (this.stock.length < rules.buy_penalty_cards + 1) return false;
    return !this.mayI.includes(seat);
  }

  /** Apply one action of the record; returns a sentence saying what happened. */
  apply(action) {
    const who = action.seat === undefined ? "" : this.names[action.seat];
    switch (action.type) {
      case "shuffle": {
        const rule = this.dealRule;
        const text = `Deal ${this.deal + 1}: ${rule.contract.join(", ")}; ${rule.hand_size} cards each; ${this.names[this.dealer]} deals`;
        this.dealCards(action);
        return text;
      }
      case "reshuffle":
        this.stock = [...action.stock].reverse();
        this.discard = [this.discard.at(-1)];
        this.reshuffles += 1;
        this.phase = "draw";
        return `The stock is empty: ${action.stock.length} discards are washed into a new stock`;
      case "draw_stock":
        this.drawStock();
        return `${who} draws from the stock`;
      case "draw_discard": {
        const depth = action.depth ?? 1;
        const taken = this.discard.splice(-depth);
        this.hands[action.seat].push(...taken);
        this.taken = depth === 1 ? taken[0] : null;
        this.mustPlace = depth > 1 ? taken[0] : null;
        this.fresh = false;
        this.mayI = [];
        this.phase = "play";
        return `${who} takes ${prettyList(taken)} from the discard pile`;
      }
      case "buy": {
        const top = this.discard.at(-1);
        if (this.rules.buying === "after_next_declines") {
          this.answers[action.seat] = true;
          this.settleWindow();
        } else {
          this.mayI.push(action.seat);
        }
        return `${who} asks to buy ${pretty(top)} (May I?)`;
      }
      case "pass":
        this.answers[action.seat] = false;
        this.settleWindow();
        return `${who} passes`;
      case "go_down":
        for (const meld of action.melds) {
          this.fromHand(action.seat, meld.cards);
          this.melds.push({ owner: action.seat, kind: meld.kind, low: meld.low, cards: [...meld.cards] });
        }
        this.down[action.seat] = true;
        this.mustPlace = null;
        if (this.contractEndsDeal) this.endDeal(action.seat);
        else this.afterShedding(action.seat);
        return `${who} goes down: ${action.melds.map((m) => `${m.kind} ${prettyList(m.cards)}`).join("; ")}`;
      case "lay_off": {
        const meld = this.melds[action.meld];
        const owner = this.names[meld.owner];
        this.layOff(meld, action.card, action.end ?? null);
        this.fromHand(action.seat, [action.card]);
        if (this.mustPlace === action.card) this.mustPlace = null;
        this.afterShedding(action.seat);
        return `${who} lays off ${pretty(action.card)} on ${owner}'s ${meld.kind}`;
      }
      case "swap_joker": {
        const meld = this.melds[action.meld];
        meld.cards[meld.cards.indexOf(action.joker)] = action.card;
        this.fromHand(action.seat, [action.card]);
        this.hands[action.seat].push(action.joker);
        // Placed by the next play (at_once, or a seat not yet down), else any time before the turn ends.
        if (this.rules.joker_swap_place !== "before_turn_ends" || !this.down[action.seat]) this.mustPlace = action.joker;
        return `${who} swaps ${pretty(action.card)} for the joker in meld ${action.meld}`;
      }
      case "discard":
        this.fromHand(action.seat, [action.card]);
        this.discard.push(action.card);
        if (!this.hands[action.seat].length) {
          this.endDeal(action.seat);
        } else {
          this.fresh = true;
          this.discarder = action.seat;
          this.mayI = [];
          this.nextTurn(true);
        }
        return `${who} discards ${pretty(action.card)}`;
      case "end_turn":
        this.nextTurn(false);
        return `${who} ends the turn without a discard`;
      case "call":
        return this.call(action, who);
      default:
        return `${action.type}`;
    }
  }

  dealCards(action) {
    const n = this.seats;
    const deck = action.deck;
    let position = 0;
    this.hands = this.names.map(() => []);
    for (let i = 0; i < this.dealRule.hand_size; i++) {
      for (let k = 1; k <= n; k++) this.hands[(this.dealer + k) % n].push(deck[position++]);
    }
    this.discard = this.rules.upcard ? [deck[position++]] : [];
    this.stock = deck.slice(position).reverse();
    this.melds = [];
    this.down = this.names.map(() => false);
    this.buys = this.names.map(() => 0);
    this.fresh = this.rules.upcard;
    this.discarder = null;
    this.mayI = [];
    this.window = [];
    this.answers = {};
    this.taken = this.mustPlace = null;
    this.reshuffles = 0;
    this.cutter = this.rules.cut_bonus && action.cut === position ? (this.dealer + 1) % n : null;
    this.current = (this.dealer + 1) % n;
    this.phase = "draw";
  }

  fromHand(seat, cards) {
    for (const card of cards) this.hands[seat].splice(this.hands[seat].indexOf(card), 1);
  }

  giveBought(buyer) {
    this.hands[buyer].push(this.discard.pop());
    for (let i = 0; i < this.rules.buy_penalty_cards; i++) this.hands[buyer].push(this.stock.pop());
    this.buys[buyer] += 1;
    this.fresh = false;
  }

  drawStock() {
    if (this.rules.buying === "after_next_declines" && this.fresh) {
      const order = Array.from({ length: this.seats - 1 }, (_, k) => (this.current + k + 1) % this.seats);
      const buyers = order.filter((s) => this.mayBuy(s));
      if (buyers.length) {
        this.window = buyers;
        this.answers = {};
        this.phase = "buy";
        return;
      }
    }
    if (this.mayI.length) {
      let winner = this.mayI[0];
      if (this.rules.buy_precedence !== "first_call") {
        const order = Array.from({ length: this.seats - 1 }, (_, k) => (this.current + k + 1) % this.seats);
        winner = order.find((s) => this.mayI.includes(s));
      }
      this.giveBought(winner);
      this.mayI = [];
    }
    this.finishStockDraw();
  }

  finishStockDraw() {
    this.fresh = false;
    this.hands[this.current].push(this.stock.pop());
    this.taken = null;
    this.phase = "play";
  }

  settleWindow() {
    const answers = this.answers;
    let winner = null;
    if (this.rules.buy_precedence === "first_call") {
      const yes = Object.entries(answers).find(([, wants]) => wants);
      winner = yes ? Number(yes[0]) : null;
      if (winner === null && Object.keys(answers).length < this.window.length) return;
    } else {
      for (const seat of this.window) {
        if (!(seat in answers)) return;
        if (answers[seat]) {
          winner = seat;
          break;
        }
      }
    }
    if (winner !== null) this.giveBought(winner);
    this.window = [];
    this.answers = {};
    this.finishStockDraw();
  }

  layOff(meld, card, end) {
    if (meld.kind === "set") {
      meld.cards.push(card);
      return;
    }
    let side = end;
    if (side === null) {
      const rank = parseCard(card).rank;
      const below = mod13(meld.low - 2) + 1;
      side = rank === below && meld.low > 1 ? "low" : "high";
    }
    if (side === "low") {
      meld.cards.unshift(card);
      meld.low -= 1;
    } else {
      meld.cards.push(card);
    }
  }

  afterShedding(seat) {
    if (!this.hands[seat].length && this.rules.empty_hand === "goes_out") this.endDeal(seat);
  }

  nextTurn(keepDiscardState) {
    if (!keepDiscardState) {
      this.fresh = false;
      this.mayI = [];
    }
    this.current = (this.current + 1) % this.seats;
    this.turn += 1;
    this.taken = null;
    this.phase = "draw";
    if (this.stock.length) return;
    const rules = this.rules;
    const canWash = rules.stock_out === "reshuffle"
      && (rules.max_reshuffles === null || this.reshuffles < rules.max_reshuffles)
      && this.discard.length >= 2;
    if (canWash) this.phase = "reshuffle";
    else this.endDeal(null);
  }

  call(action, who) {
    if (action.card) {
      this.fromHand(action.seat, [action.card]);
      this.discard.push(action.card);
      this.discarder = action.seat;
      this.fresh = true;
      this.mayI = [];
      return `${who} calls Liverpool and sheds ${pretty(action.card)}`;
    }
    const offender = this.discarder;
    this.hands[offender].push(this.discard.pop());
    for (let i = 0; i < this.rules.buy_penalty_cards; i++) this.hands[offender].push(this.stock.pop());
    this.fresh = false;
    this.mayI = [];
    return `${who} calls rummy on ${this.names[offender]}'s discard`;
  }

  endDeal(wentOut) {
    const scores = this.hands.map((hand, seat) =>
      (seat === wentOut ? 0 : hand.reduce((sum, card) => sum + cardValue(this.rules, card), 0)));
    if (this.cutter !== null) scores[this.cutter] += this.rules.cut_bonus;
    this.results.push({ deal: this.deal, went_out: wentOut, scores });
    this.deal += 1;
    this.dealer = (this.dealer + 1) % this.seats;
    this.window = [];
    this.answers = {};
    this.mayI = [];
    this.fresh = false;
    this.mustPlace = this.taken = null;
    if (this.deal < this.rules.deals.length) {
      this.phase = "deal";
      return;
    }
    const contenders = this.leaders();
    if (contenders.length > 1 && this.rules.ties === "replay_final_deal" && this.replays === 0) {
      this.replays += 1;
      this.phase = "deal";
      return;
    }
    this.winners = this.breakTie(contenders);
    this.phase = "game_over";
  }

  leaders() {
    const scheduled = this.results.slice(0, this.rules.deals.length);
    let totals = this.names.map((_, s) => scheduled.reduce((sum, r) => sum + r.scores[s], 0));
    if (this.rules.partnerships) totals = totals.map((t, s) => t + totals[(s + 2) % 4]);
    const best = Math.min(...totals);
    return totals.map((t, s) => (t === best ? s : -1)).filter((s) => s >= 0);
  }

  breakTie(contenders) {
    if (contenders.length === 1 || this.rules.ties === "share") return contenders;
    const decider = this.rules.ties === "replay_final_deal" ? this.results.at(-1) : this.results[this.rules.deals.length - 1];
    const best = Math.min(...contenders.map((s) => decider.scores[s]));
    return contenders.filter((s) => decider.scores[s] === best);
  }
}

/** Every step of a record: [{action, text, state}] where state is the table after the action. */
export function replaySteps(record) {
  const state = new ReplayState(record);
  const steps = [{ action: null, text: "Before the first deal", state: state.snapshot() }];
  for (const action of record.actions) {
    const text = state.apply(action);
    steps.push({ action, text, state: state.snapshot() });
  }
  return steps;
}
