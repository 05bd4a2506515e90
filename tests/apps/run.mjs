// The MCP Apps test host's driver (tests/it/apps/browser.rs, tests/try-views.sh).
//
//   node run.mjs serve --socket PATH [--port N]      serve the test host; print its URL
//   node run.mjs test  --socket PATH --shots DIR     drive it in headless Chromium; print a JSON report
//
// It bundles host.js (the extension's AppBridge) with esbuild into .build/,
// talks MCP to the daemon on its Unix socket (newline-delimited JSON-RPC, as
// the shim does), and serves host.html, the bundle and POST /mcp (one MCP
// request forwarded to the daemon) on 127.0.0.1. `test` loads the host in
// Debian's chromium through puppeteer-core (CDP over a pipe, offline: posters
// from the declared artwork origins are answered with a drawn SVG, any other
// request leaving the host is refused and reported).
import { createServer } from "node:http";
import { createConnection } from "node:net";
import { mkdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [mode, ...rest] = process.argv.slice(2);
const opt = {};
for (let i = 0; i < rest.length; i += 2) opt[rest[i].replace(/^--/, "")] = rest[i + 1];
if (!["serve", "test"].includes(mode) || !opt.socket) {
  console.error("usage: node run.mjs serve|test --socket PATH [--port N] [--shots DIR]");
  process.exit(2);
}

/** A minimal MCP client on the daemon's socket: one JSON-RPC line each way. */
function mcpClient(socket) {
  const conn = createConnection(socket);
  const waiting = new Map();
  let next = 1, buffer = "";
  conn.setEncoding("utf8");
  conn.on("data", (chunk) => {
    buffer += chunk;
    let at;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (!line.trim()) continue;
      const m = JSON.parse(line);
      if (m.method && m.id !== undefined) {
        // The daemon's own requests (ping): this client asks nothing back.
        conn.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: {} }) + "\n");
      } else if (m.id !== undefined && waiting.has(m.id)) {
        waiting.get(m.id)(m);
        waiting.delete(m.id);
      }
    }
  });
  conn.on("error", (e) => { console.error(`daemon socket: ${e.message}`); process.exit(1); });
  const request = (method, params) => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    conn.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  });
  const ready = request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
    clientInfo: { name: "ombi-mcp-apps-test-host", version: "1.0.0" },
  }).then((reply) => {
    if (reply.error) throw new Error(reply.error.message);
    conn.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  });
  return { request: async (method, params) => { await ready; return request(method, params); }, close: () => conn.end() };
}

async function bundle() {
  const esbuild = await import("esbuild");
  const out = join(here, ".build");
  mkdirSync(out, { recursive: true });
  await esbuild.build({
    entryPoints: [join(here, "host.js")], bundle: true, format: "iife", platform: "browser",
    minify: false, outfile: join(out, "host.js"), logLevel: "warning",
  });
  return readFileSync(join(out, "host.js"));
}

async function serve(client, port) {
  const script = await bundle();
  const page = readFileSync(join(here, "host.html"));
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url.split("?")[0] === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    } else if (req.method === "GET" && req.url === "/host.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    } else if (req.method === "POST" && req.url === "/mcp") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", async () => {
        const { method, params } = JSON.parse(body);
        const reply = await client.request(method, params);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
      });
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(Number(port || 0), "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

const client = mcpClient(opt.socket);
const { server, url } = await serve(client, opt.port);
if (mode === "serve") {
  console.log(`The views' test host: ${url}`);
} else {
  let failed = false;
  try {
    const report = await drive(url, opt.shots);
    console.log(JSON.stringify(report));
    failed = report.failures.length > 0;
  } catch (e) {
    console.error(e && e.stack ? e.stack : String(e));
    failed = true;
  }
  server.close();
  client.close();
  process.exit(failed ? 1 : 0);
}

// ---------------------------------------------------------------- the test

/** A poster drawn here: the test runs offline, and the origin is what counts. */
function poster(path) {
  const hue = [...path].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="300"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,55%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},60%,25%)"/></linearGradient></defs><rect width="200" height="300" fill="url(#g)"/><circle cx="100" cy="120" r="46" fill="rgba(255,255,255,.25)"/></svg>`;
}

async function drive(url, shots) {
  const puppeteer = (await import("puppeteer-core")).default;
  const profile = mkdtempSync(join(tmpdir(), "ombi-views-"));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    pipe: true,
    userDataDir: profile,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions"],
  });
  const report = { failures: [], declared: [], images: [], undeclared: [], csp: [], dialogs: [], views: {}, calls: [], outcomes: {}, shots: [] };
  const check = (ok, what) => { if (!ok) report.failures.push(what); };
  try {
    await scenario(browser, url, shots, report, check);
  } catch (e) {
    report.failures.push(`the scenario stopped: ${e && e.stack ? e.stack : e}`);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return report;
}

async function scenario(browser, url, shots, report, check) {
  {
    const page = await browser.newPage();
    await page.setViewport({ width: 800, height: 900, deviceScaleFactor: 1 });
    const origin = new URL(url).origin;
    await page.setRequestInterception(true);
    page.on("request", (req) => {
      const u = req.url();
      if (u.startsWith(origin) || u.startsWith("about:") || u.startsWith("data:")) return req.continue();
      const o = (() => { try { return new URL(u).origin; } catch { return u; } })();
      if (report.declared.includes(o)) {
        report.images.push(u);
        return req.respond({ status: 200, contentType: "image/svg+xml", body: poster(new URL(u).pathname) });
      }
      report.undeclared.push(u);
      return req.abort("blockedbyclient");
    });
    page.on("console", (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) report.csp.push(m.text()); });
    page.on("dialog", async (d) => { report.dialogs.push(d.message()); await d.dismiss(); });
    page.on("pageerror", (e) => report.failures.push(`page error: ${e.message}`));
    await page.goto(url, { waitUntil: "load" });

    /** Shows a tool's result; the view's frame once its cards (or state) are drawn. */
    const show = async (tool, args, theme, variables) => {
      const before = await page.evaluate(() => window.hostLog.sizes.length);
      const info = await page.evaluate((t, a, th, v) => window.showTool(t, a, th, v), tool, args, theme || null, variables || null);
      for (const o of info.csp.resourceDomains) if (!report.declared.includes(o)) report.declared.push(o);
      const handle = await page.waitForSelector("#views iframe");
      const frame = await handle.contentFrame();
      await frame.waitForFunction(() => document.getElementById("root").getAttribute("aria-busy") === "false", { timeout: 15000 });
      // Let the last size-changed land, then make sure no more come (no loop).
      await new Promise((r) => setTimeout(r, 400));
      const settled = await page.evaluate(() => window.hostLog.sizes.length);
      await new Promise((r) => setTimeout(r, 600));
      const after = await page.evaluate(() => window.hostLog.sizes.length);
      check(after === settled, `${tool}: size-changed still arriving after the view settled (${settled} → ${after})`);
      check(settled - before <= 6, `${tool}: ${settled - before} size-changed notifications for one render`);
      const first = await page.evaluate(() => window.hostLog.first);
      check(first === "ui/initialize", `${tool}: the view's first message was ${first}`);
      const sizes = await page.evaluate(() => window.hostLog.sizes.slice());
      const height = await frame.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
      check(sizes[sizes.length - 1] === height, `${tool}: the host's height ${sizes[sizes.length - 1]} is not the content's ${height}`);
      return { frame, info, handle };
    };
    const result = async (tool, args) => (await page.evaluate(async (t, a) => {
      const r = await fetch("/mcp", { method: "POST", body: JSON.stringify({ method: "tools/call", params: { name: t, arguments: a } }) });
      return (await r.json()).result.structuredContent;
    }, tool, args));
    const cards = (frame) => frame.$$eval(".card", (cs) => cs.map((c) => ({
      title: c.querySelector("h2").textContent,
      text: c.textContent,
      badge: (c.querySelector(".badge") || {}).textContent || null,
      buttons: [...c.querySelectorAll("button")].map((b) => b.textContent),
      img: (c.querySelector("img") || {}).alt || null,
      elements: [...c.querySelectorAll("*")].map((e) => e.tagName.toLowerCase()),
    })));
    const shoot = async (handle, name) => {
      if (!shots) return;
      mkdirSync(shots, { recursive: true });
      const file = join(shots, `${name}.png`);
      await handle.screenshot({ path: file });
      report.shots.push(file);
    };
    const outcome = async (frame, card) => {
      await frame.waitForFunction((i) => {
        const t = document.querySelectorAll(".card")[i].querySelector(".outcome").textContent;
        return t && !/…$/.test(t);
      }, { timeout: 20000 }, card);
      return frame.evaluate((i) => {
        const o = document.querySelectorAll(".card")[i].querySelector(".outcome");
        return { text: o.textContent, error: o.classList.contains("error") };
      }, card);
    };

    // 0. Loading: the view before the host hands it the result.
    const held = await page.evaluate(() => window.showTool("read_search", { query: "matrix" }, "light", null, true));
    for (const o of held.csp.resourceDomains) if (!report.declared.includes(o)) report.declared.push(o);
    {
      const frame = await (await page.waitForSelector("#views iframe")).contentFrame();
      await page.waitForFunction(() => window.hostLog.initialized > 0);
      report.views.loading = await frame.$eval("#root", (r) => ({ text: r.textContent, busy: r.getAttribute("aria-busy") }));
      await page.evaluate(() => window.releaseResult());
      await frame.waitForFunction(() => document.getElementById("root").getAttribute("aria-busy") === "false");
    }

    // 1. Titles: a poster grid of a real read_discover result.
    const discover = { action: "popular", media: "movie" };
    const want = await result("read_discover", discover);
    let { frame, handle } = await show("read_discover", discover, "light");
    let seen = await cards(frame);
    report.views.titles = seen;
    check(seen.length === want.data.items.length && seen.length > 0, `titles: ${seen.length} cards for ${want.data.items.length} items`);
    want.data.items.forEach((item, i) => {
      check(seen[i] && seen[i].title === (item.title || "Untitled"), `titles: card ${i} shows ${seen[i] && seen[i].title}, not ${item.title}`);
      const badge = item.available ? "Available" : item.requested ? "Requested" : (item.available === false && item.requested === false) ? "Not requested" : null;
      check(seen[i] && seen[i].badge === badge, `titles: card ${i} badge ${seen[i] && seen[i].badge}, want ${badge}`);
    });
    const planted = seen.findIndex((c) => c.title.includes("<img"));
    check(planted >= 0, "titles: the planted HTML title is not shown as text");
    check(seen.every((c) => c.elements.filter((e) => e === "img").length <= 1), "titles: an element was made from a title");
    check(await frame.$$eval("img", (is) => is.every((i) => i.alt && i.classList.contains("poster"))), "titles: an image without alt, or not a poster");
    await frame.waitForFunction(() => [...document.images].every((i) => i.complete), { timeout: 10000 });
    await shoot(handle, "titles-light");

    // Keyboard: Tab reaches a Request button, and Enter on it requests.
    await frame.focus("body");
    let focused = "";
    for (let i = 0; i < 8 && focused !== "Request"; i++) {
      await page.keyboard.press("Tab");
      focused = await frame.evaluate(() => document.activeElement && document.activeElement.textContent);
    }
    check(focused === "Request", `keyboard: Tab reached ${JSON.stringify(focused)}, not a Request button`);

    // 2. Request a movie by clicking its button.
    const movieIndex = seen.findIndex((c, i) => c.buttons.includes("Request") && want.data.items[i].media === "movie");
    check(movieIndex >= 0, "titles: no movie card with a Request button");
    if (movieIndex >= 0) {
      const buttons = await frame.$$(".card");
      await (await buttons[movieIndex].$("button")).click();
      report.outcomes.movie = await outcome(frame, movieIndex);
      report.outcomes.movie.tmdb = want.data.items[movieIndex].identifiers.find((i) => i.namespace === "tmdb").value;
    }

    // 3. Dark theme, same view.
    ({ frame, handle } = await show("read_discover", discover, "dark"));
    const bg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    report.views.dark_background = bg;
    check(bg === "rgb(17, 24, 39)", `dark: the view's background is ${bg}`);
    await frame.waitForFunction(() => [...document.images].every((i) => i.complete), { timeout: 10000 });
    await shoot(handle, "titles-dark");

    // Without a theme from the host the view follows the system's; the host's
    // own variables win over the view's colours.
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
    ({ frame } = await show("read_discover", discover, undefined));
    report.views.system_dark_background = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(report.views.system_dark_background === "rgb(17, 24, 39)", `no host theme: background ${report.views.system_dark_background}`);
    await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "light" }]);
    ({ frame } = await show("read_discover", discover, "light", { "--color-background-primary": "rgb(1, 2, 3)" }));
    report.views.host_variable_background = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    check(report.views.host_variable_background === "rgb(1, 2, 3)", `host variables: background ${report.views.host_variable_background}`);

    // 4. TV: the seasons come from read_media details, then a season is requested.
    ({ frame, handle } = await show("read_search", { action: "tv", query: "breaking" }, "light"));
    seen = await cards(frame);
    report.views.tv = seen;
    const tvIndex = seen.findIndex((c) => c.buttons.includes("Request"));
    check(tvIndex >= 0, "tv: no show with a Request button");
    if (tvIndex >= 0) {
      const card = (await frame.$$(".card"))[tvIndex];
      await (await card.$("button")).click();
      await frame.waitForSelector("fieldset input[type=checkbox]", { timeout: 20000 });
      const seasons = await frame.$$eval("fieldset input", (is) => is.map((i) => Number(i.value)));
      report.outcomes.tv_seasons = seasons;
      await frame.click("fieldset label:last-of-type input");
      await frame.click("fieldset button");
      report.outcomes.tv = await outcome(frame, tvIndex);
      // The same season again from a fresh view: Ombi refuses, and says why on the card.
      ({ frame } = await show("read_search", { action: "tv", query: "breaking" }, "light"));
      await (await (await frame.$$(".card"))[tvIndex].$("button")).click();
      await frame.waitForSelector("fieldset input[type=checkbox]", { timeout: 20000 });
      await frame.click("fieldset label:last-of-type input");
      await frame.click("fieldset button");
      report.outcomes.tv_refused = await outcome(frame, tvIndex);
    }

    // 5. Requests: one card per request, Approve on a pending one.
    const list = { action: "list", media: "movie" };
    const requests = await result("read_requests", list);
    ({ frame, handle } = await show("read_requests", list, "light"));
    seen = await cards(frame);
    report.views.requests = seen;
    check(seen.length === requests.data.items.length && seen.length > 0, `requests: ${seen.length} cards for ${requests.data.items.length} items`);
    requests.data.items.forEach((r, i) => check(seen[i] && seen[i].title === (r.title || "Untitled request"), `requests: card ${i} shows ${seen[i] && seen[i].title}`));
    check(seen.some((c) => c.title.includes("<img")), "requests: the planted HTML title is not shown as text");
    await shoot(handle, "requests-light");
    const pending = requests.data.items.findIndex((r, i) => seen[i].buttons.includes("Approve") && r.target.kind === "movie");
    check(pending >= 0, "requests: no pending movie request with Approve");
    if (pending >= 0) {
      const card = (await frame.$$(".card"))[pending];
      for (const b of await card.$$("button")) {
        if ((await b.evaluate((x) => x.textContent)) === "Approve") { await b.click(); break; }
      }
      report.outcomes.approve = await outcome(frame, pending);
      report.outcomes.approve.request_id = requests.data.items[pending].target.id;
    }
    ({ frame, handle } = await show("read_requests", list, "dark"));
    await shoot(handle, "requests-dark");
    const albumList = { action: "list", media: "album" };
    const albumRequests = await result("read_requests", albumList);
    ({ frame } = await show("read_requests", albumList, "light"));
    seen = await cards(frame);
    report.views.album_requests = seen;
    const deniable = seen.findIndex((c) => c.buttons.includes("Deny"));
    check(deniable >= 0, "requests: no pending album request with Deny");
    if (deniable >= 0) {
      const card = (await frame.$$(".card"))[deniable];
      await (await card.$("input")).focus();
      await page.keyboard.type("Not this season");
      await page.keyboard.press("Enter");
      report.outcomes.deny = await outcome(frame, deniable);
      report.outcomes.deny.request_id = albumRequests.data.items[deniable].target.id;
    }

    // 6. Music: an album's cover comes from the Cover Art Archive (a declared origin).
    ({ frame } = await show("read_search", { action: "album", query: "hybrid" }, "light"));
    report.views.albums = await cards(frame);
    await frame.waitForFunction(() => [...document.images].every((i) => i.complete), { timeout: 10000 });

    // 7. One title's details, and a write_request_create result as a host shows it
    //    when the model made the call: one card with what happened.
    ({ frame } = await show("read_media", { action: "details", media: "movie", tmdb_id: 496243 }, "light"));
    report.views.details = await cards(frame);
    ({ frame } = await show("write_request_create", { action: "movie", tmdb_id: 496243 }, "light"));
    report.views.created = await frame.$$eval(".card", (cs) => cs.map((c) => c.textContent));

    // 8. States: an error result, and an empty page.
    ({ frame } = await show("read_media", { action: "details", media: "movie", tmdb_id: 999999 }, "light"));
    report.views.error_state = await frame.$eval("#root", (r) => ({ text: r.textContent, error: !!r.querySelector(".state.error") }));
    ({ frame } = await show("read_search", { action: "movie", query: "zzzznothing" }, "light"));
    report.views.empty_state = await frame.$eval("#root", (r) => r.textContent);

    report.calls = await page.evaluate(() => window.hostLog.calls);
    report.initialized = await page.evaluate(() => window.hostLog.initialized);
    check(report.undeclared.length === 0, `requests to undeclared origins: ${report.undeclared.join(", ")}`);
    check(report.csp.length === 0, `CSP refusals: ${report.csp.join(" | ")}`);
    check(report.dialogs.length === 0, `dialogs opened: ${report.dialogs.join(", ")}`);
    check(report.images.length > 0, "no poster was loaded");
  }
}
