// The test host: a page built on the MCP Apps extension's own host side
// (`AppBridge` of @modelcontextprotocol/ext-apps), bundled for the browser by
// esbuild at test time (run.mjs). It does what a host that renders apps does:
// reads the tool's declared `ui://` view from the daemon (through the
// driver's /mcp endpoint, a plain MCP client on the daemon's socket), puts it
// in a sandboxed iframe under the CSP its `_meta.ui.csp` declares, hands it the
// tool's real result, and forwards the view's `tools/call` to the daemon.
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";

/** What the page saw, for the test to read. */
const log = (window.hostLog = { calls: [], sizes: [], initialized: 0, errors: [] });

async function mcp(method, params) {
  const answer = await fetch("/mcp", { method: "POST", body: JSON.stringify({ method, params }) });
  const reply = await answer.json();
  if (reply.error) throw new Error(reply.error.message);
  return reply.result;
}

/** The CSP a host derives from a view's `_meta.ui.csp`: inline script and
 * style of the page itself, images from the declared origins, nothing else. */
function cspOf(csp) {
  const images = ((csp && csp.resourceDomains) || []).join(" ");
  return [
    "default-src 'none'",
    "script-src 'unsafe-inline'",
    "style-src 'unsafe-inline'",
    `img-src ${images || "'none'"}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

let current = null;

// The first message a view sends must be its ui/initialize request.
window.addEventListener("message", (event) => {
  if (current && event.source === current.contentWindow && log.first === null) {
    log.first = (event.data && event.data.method) || "(not a request)";
  }
});

/** Shows `tool`'s result in its view; resolves when the view has it. */
window.showTool = async function (tool, args, theme, variables, hold) {
  const listed = await mcp("tools/list", {});
  const def = listed.tools.find((t) => t.name === tool);
  if (!def) throw new Error(`${tool} is not listed for this session`);
  const uri = getToolUiResourceUri(def);
  if (!uri) throw new Error(`${tool} declares no view`);
  const read = await mcp("resources/read", { uri });
  const content = read.contents[0];
  if (content.mimeType !== "text/html;profile=mcp-app") throw new Error(`${uri}: ${content.mimeType}`);
  const ui = (content._meta && content._meta.ui) || {};
  const result = await mcp("tools/call", { name: tool, arguments: args });

  if (current) current.remove();
  log.first = null;
  const frame = document.createElement("iframe");
  frame.title = `${uri} view of ${tool}`;
  frame.setAttribute("sandbox", "allow-scripts");
  frame.className = ui.prefersBorder ? "bordered" : "";
  document.getElementById("views").replaceChildren(frame);
  current = frame;
  if (theme) document.documentElement.dataset.theme = theme;
  // A host without a theme of its own sends none; one with variables sends them.
  const hostContext = { displayMode: "inline", platform: "web", locale: "en-GB", containerDimensions: { maxHeight: 6000, width: 760 } };
  if (theme) hostContext.theme = theme;
  if (variables) hostContext.styles = { variables };

  const bridge = new AppBridge(
    null,
    { name: "ombi-mcp test host", version: "1.0.0" },
    { serverTools: {}, logging: {} },
    { hostContext },
  );
  bridge.oncalltool = async (params) => {
    log.calls.push({ name: params.name, arguments: params.arguments });
    return mcp("tools/call", params);
  };
  bridge.onsizechange = ({ height }) => {
    log.sizes.push(height);
    if (typeof height === "number") frame.style.height = `${height}px`;
  };
  const initialized = new Promise((resolve) => {
    bridge.oninitialized = () => {
      log.initialized += 1;
      resolve();
    };
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  const meta = `<meta http-equiv="Content-Security-Policy" content="${cspOf(ui.csp)}">`;
  frame.srcdoc = content.text.replace("<head>", `<head>${meta}`);
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  // `hold`: the result comes when the caller says (the view's loading state).
  window.releaseResult = () => bridge.sendToolResult(result);
  if (!hold) await window.releaseResult();
  return { uri, csp: ui.csp, prefersBorder: ui.prefersBorder };
};
