// The account page's notifications (docs/server.md, "Notifications"): what the server tells
// this account away from the table and how (e-mail, a notification URL), quiet hours in the
// account's time zone, the "your turn" throttle; and the notices it could not deliver.
import { call, el } from "./app.js";

const $ = (id) => document.getElementById(id);
const KINDS = [
  ["your_turn", "your turn"],
  ["report", "a turn processed, your report ready"],
  ["game_over", "a game over"],
  ["deadline", "a deadline near"],
  ["offer", "an offer waiting"],
  ["invited", "an invitation"],
];

function say(text, kind = "") {
  $("notify-status").textContent = text;
  $("notify-status").className = `help ${kind}`;
}

/** The notices the server gave up on: one line under "My games", so a player whose mail
 * server refuses them learns it here. */
export async function loadFailedNotices() {
  try {
    const failed = (await call("GET", "/account/notices?status=failed")).notices || [];
    const line = $("notices-failed");
    line.hidden = !failed.length;
    line.textContent = failed.length ? `${failed.length} notice(s) could not be delivered; the latest, "${failed[0].subject}": ${failed[0].error}` : "";
  } catch (e) {
    /* the games and tokens still show */
  }
}

/** Fill the form from the account's preferences. */
export async function loadPreferences() {
  try {
    const p = (await call("GET", "/account/notifications")).notifications;
    $("notify-kinds").replaceChildren(...KINDS.map(([kind, words]) => el("label", { class: "check" },
      el("input", { type: "checkbox", "data-kind": kind, checked: p.kinds.includes(kind) || undefined }), ` ${words}`)));
    $("notify-email").checked = p.email && !p.unsubscribed;
    $("notify-email-note").textContent = !p.address ? "(this account has no e-mail address)"
      : !p.smtp ? `(to ${p.address}: this server sends no e-mail)`
      : p.unsubscribed ? `(to ${p.address}: unsubscribed by a link; tick and save to subscribe again)`
      : `(to ${p.address})`;
    $("notify-url").value = p.apprise_url || "";
    $("notify-quiet-from").value = p.quiet_from || "";
    $("notify-quiet-to").value = p.quiet_to || "";
    $("notify-zone").value = p.timezone === "UTC" && !p.quiet_from ? Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" : p.timezone;
    $("notify-throttle").value = p.throttle_minutes;
  } catch (e) {
    say(`Could not load the notification settings: ${e.message}`, "error");
  }
}

async function save(ev) {
  ev.preventDefault();
  const body = {
    kinds: [...document.querySelectorAll("#notify-kinds input[data-kind]")].filter((x) => x.checked).map((x) => x.dataset.kind),
    email: $("notify-email").checked,
    apprise_url: $("notify-url").value.trim() || null,
    quiet_from: $("notify-quiet-from").value || null,
    quiet_to: $("notify-quiet-to").value || null,
    timezone: $("notify-zone").value.trim() || "UTC",
    throttle_minutes: Number($("notify-throttle").value || 0),
  };
  try {
    await call("PUT", "/account/notifications", body);
    say("Saved.", "ok");
    await loadPreferences();
  } catch (e) {
    say(`Not saved: ${e.message}`, "error");
  }
}

export function initNotices() {
  $("notify-form").addEventListener("submit", save);
}
