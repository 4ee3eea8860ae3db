// "What happened": the log entries of a state message as people read them. The games describe
// their events for the table, where players are "Player 1", "Player 2"; here the names the
// seats chose are put in (`named`), and each entry's events are grouped by who did them
// (`groups`): an agent's reply or its coin flips made inside a person's entry are listed under
// the agent, and a "turn" line (whose turn it is now) becomes a divider, not an event of the
// mover. Nothing here reads a game's notation: only the described lines the seat was sent.

const PLAYER_N = /\bPlayer (\d{1,2})\b/g;

const AFTER_NAME = / \(Player (\d{1,2})\)/g;

/** `text` with "Player N" replaced by seat N-1's name where the seat has one of its own; a
 * "(Player N)" right after that very name (a game's "Ann (Player 1), your bid") is dropped
 * rather than read "Ann (Ann)". */
export function named(text, names) {
  if (typeof text !== "string") return "";
  if (!Array.isArray(names) || !names.length) return text;
  const once = text.replace(AFTER_NAME, (all, n, at, whole) => {
    const name = names[Number(n) - 1];
    return name && whole.slice(0, at).endsWith(name) ? "" : all;
  });
  return once.replace(PLAYER_N, (all, n) => {
    const name = names[Number(n) - 1];
    return name && name !== all ? name : all;
  });
}

/** The seat whose name `line` starts with (the longest name that matches), or null. */
export function subjectOf(line, names) {
  let best = null;
  let len = 0;
  (names || []).forEach((name, seat) => {
    if (!name || name.length <= len) return;
    if (line.startsWith(name) && !/[\p{L}\p{N}]/u.test(line.charAt(name.length))) {
      best = seat;
      len = name.length;
    }
  });
  return best;
}

// A line saying whose turn it is now, in the words the games use: "Bob's turn", "Bob's turn 4.",
// "Turn 7: Bob to play", "Turn 3", and the result line ("Result: Ann wins") — shown as a
// divider between what was done, not as something the last mover did.
const TURN_LINE = /^(?:.{1,60}'s turn(?: \d+)?\.?|Turn \d+(?::.{0,60} to (?:play|move)\.?)?|Round \d+\.?|Result: .{1,200})$/i;

export function isTurnLine(line) {
  return TURN_LINE.test(line);
}

/**
 * One log entry's events as groups: [{seat, lines, divider}], in order. The entry's own seat
 * (who made it) heads the first group; a line starting with another seat's name starts a
 * group of that seat; a line naming no seat stays in the group before it.
 */
export function groups(entry, names, tidy = (x) => x) {
  const out = [];
  let current = null;
  for (const raw of entry.events || []) {
    const line = tidy(named(String(raw), names));
    if (!line) continue;
    if (isTurnLine(line)) {
      out.push({ seat: null, lines: [line], divider: true });
      current = null;
      continue;
    }
    const subject = subjectOf(line, names);
    const seat = subject !== null ? subject : current ? current.seat : entry.seat;
    if (!current || current.seat !== seat) {
      current = { seat: seat === undefined ? null : seat, lines: [], divider: false };
      out.push(current);
    }
    current.lines.push(line);
  }
  return out;
}
