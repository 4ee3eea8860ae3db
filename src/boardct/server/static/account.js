// The account page: sign in or sign up (the seats this browser holds as a guest move into the
// account), then the account's games and its personal API tokens. The session is an HttpOnly
// cookie the page never sees; the server accepts writes only from its own pages.
import { call, allTokens, el, myGamesLine, currentAccount } from "./app.js";
import { initNotices, loadFailedNotices, loadPreferences } from "./account_notices.js";

const $ = (id) => document.getElementById(id);

function notice(text, kind = "error") {
  $("notice").textContent = text;
  $("notice").className = `notice ${kind}`;
  $("notice").hidden = !text;
}

function next() {
  // Back where the player came from (a game page), never to another site.
  const to = new URLSearchParams(location.search).get("next") || "";
  return /^\/[A-Za-z0-9/_-]*$/.test(to) && !to.startsWith("//") ? to : null;
}

async function signedIn(res) {
  const moved = (res.moved || []).length;
  if (next()) {
    location.href = next();
    return;
  }
  await show();
  if (moved) notice(`${moved} seat(s) this browser held moved into your account.`, "ok");
}

async function signIn(ev) {
  ev.preventDefault();
  notice("");
  try {
    const res = await call("POST", "/account/signin", { username: $("signin-username").value.trim(), password: $("signin-password").value, tokens: allTokens() });
    $("signin-password").value = "";
    await signedIn(res);
  } catch (e) {
    notice(`Could not sign in: ${e.message}`);
  }
}

async function signUp(ev) {
  ev.preventDefault();
  notice("");
  try {
    const res = await call("POST", "/account/signup", { username: $("signup-username").value.trim(), password: $("signup-password").value, email: $("signup-email").value.trim() || null, tokens: allTokens() });
    $("signup-password").value = "";
    await signedIn(res);
  } catch (e) {
    notice(`Could not sign up: ${e.message}`);
  }
}

async function loadGames() {
  try {
    const res = await call("GET", "/account/games");
    const list = res.games || [];
    $("my-games").replaceChildren(...(list.length ? list.map(myGamesLine) : [el("li", {}, "None yet: games you create, join or take while signed in appear here.")]));
  } catch (e) {
    $("my-games").replaceChildren(el("li", {}, `Could not load: ${e.message}`));
  }
}

async function loadTokens() {
  const res = await call("GET", "/account/tokens");
  $("tokens").replaceChildren(...(res.tokens || []).map((t) => el("li", { "data-token-id": t.id }, `${t.name} (made ${t.created}) `,
    el("button", { type: "button", class: "quiet revoke", onclick: async () => {
      try {
        await call("DELETE", `/account/tokens/${t.id}`);
        await loadTokens();
      } catch (e) {
        notice(`Could not revoke: ${e.message}`);
      }
    } }, "Revoke"))));
}

async function newToken(ev) {
  ev.preventDefault();
  notice("");
  try {
    const res = await call("POST", "/account/tokens", { name: $("token-name").value.trim() });
    $("token-name").value = "";
    const shown = el("input", { readonly: true, value: res.token, id: "token-value", "aria-label": "the new token" });
    $("token-made").replaceChildren(`“${res.name}”: copy it now, it is not shown again: `, shown);
    $("token-made").hidden = false;
    await loadTokens();
  } catch (e) {
    notice(`Could not make a token: ${e.message}`);
  }
}

async function show() {
  const me = await currentAccount();
  $("signed-out").hidden = !!me;
  $("signed-in").hidden = !me;
  document.body.dataset.account = me ? me.username : "";
  if (!me) {
    const n = allTokens().length;
    $("carry-note").hidden = !n;
    $("carry-note").textContent = n ? `This browser holds ${n} seat(s) as a guest: signing in or up moves them into your account, to play them from any device.` : "";
    return;
  }
  $("username").textContent = me.username;
  $("profile-link").href = `/players/${encodeURIComponent(me.username)}`;
  await Promise.all([loadGames(), loadTokens(), loadFailedNotices(), loadPreferences()]);
}

async function main() {
  $("signin").addEventListener("submit", signIn);
  $("signup").addEventListener("submit", signUp);
  $("new-token").addEventListener("submit", newToken);
  initNotices();
  $("signout").addEventListener("click", async () => {
    await call("POST", "/account/signout", {});
    notice("");
    await show();
  });
  await show();
}

main();
